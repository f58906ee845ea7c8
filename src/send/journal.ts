// The batch journal of `send` and `automation`: an append-only JSONL file, each line fsync'd
// before the next step, so a run killed at any point (even kill -9) leaves a record of what was
// certainly not sent, what certainly was, and what was in flight. The first line is the whole
// plan (the request body and recipients exactly as they go on the wire, and the account they
// went through), so `--resume` needs nothing else.
//
// Lines, in the order one run writes them (field `type`):
//   plan     the kind (email, sms, automation), the request body without recipients, the recipients,
//            the account (base URL, profile, key fingerprint; src/send/account.ts)
//   intent   batch `batch` is about to be sent to these keys     (written BEFORE the request)
//   result   the service's answer for the batch                  (after it)
//   unsent   the batch certainly did not go out (refused as a whole, never connected)
//   doubt    the batch may or may not have gone out (timeout, reset, 5xx, interrupted)
//   settled  what an event lookup proved about in-doubt recipients (email and SMS only)
//   done     every recipient is either sent or failed for good
//
// Only the version written now is read (JOURNAL_VERSION): a journal of another version is
// refused, not reinterpreted. Every record is checked field by field when read
// (./journal-check.ts): a journal that does not hold what its writer wrote is damaged, never
// half-trusted.
import fs from 'node:fs';
import path from 'node:path';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { fileProblem } from '../core/file-problem.js';
import { lockHolder, takeLock, type HeldLock } from '../fs/lock-file.js';
import { forTerminal } from '../core/sanitize.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import { appendWhole, appendWholeAsync, cutTornTail, DiskError, isDiskProblem } from '../fs/append-whole.js';
import { smsKey } from './sms-rules.js';
import { journalProblem, planProblem } from './journal-check.js';

/** What one journal sends: transactional email or SMS, or automation events (campaign service). */
export type Kind = 'email' | 'sms' | 'automation';
const KINDS: readonly Kind[] = ['email', 'sms', 'automation'];

/** A journal lock untouched this long belongs to a run that hung or died on another host. */
const JOURNAL_LOCK_STALE_MS = 60 * 60_000;
const JOURNAL_LOCK_HEARTBEAT_MS = 60_000;

/** The record format written and read (the only one: earlier formats never shipped). */
export const JOURNAL_VERSION = 3;

export interface WireRecipient {
  address: string;
  name?: string;
  country_code?: string;
  variables?: Record<string, string>;
}

export interface PlanRecord {
  type: 'plan';
  version: number;
  kind: Kind;
  createdAt: string;
  batchSize: number;
  /** The request body without `recipients`. */
  message: Record<string, unknown>;
  recipients: WireRecipient[];
  /** Where the run sent (src/send/account.ts): recorded when the journal is created. */
  account: JournalAccount;
}

/** A plan as a command builds it, before its run knows the account it goes through (src/send/session.ts adds it). */
export type NewPlan = Omit<PlanRecord, 'account'>;

/**
 * The account and service a journal's run went through, so a resume goes through the same
 * ones: the base URL (campaign service for automation, notification service for email and
 * SMS), the profile's name, and a fingerprint of the key (src/send/account.ts) — never the key.
 */
export interface JournalAccount {
  url: string;
  profile: string;
  key: string;
}

export type JournalRecord =
  | PlanRecord
  | { type: 'intent'; batch: string; keys: string[]; at: string }
  /**
   * `success` maps a key to its message id ('' when the service gives none, as automation does).
   * `conflict`: recipients the answer listed both as accepted and as refused (key → the message id
   * it gave, or ''): in neither list, in doubt.
   */
  | { type: 'result'; batch: string; at: string; requestId?: string; success: Record<string, string>; failure: Record<string, string>; conflict?: Record<string, string>; unmatched?: string[] }
  | { type: 'unsent'; batch: string; at: string; reason: string }
  | { type: 'doubt'; batch: string; at: string; reason: string }
  | { type: 'settled'; at: string; sent: Record<string, { id: string; eventTime?: string }>; unsent: string[]; unknown: Record<string, string> }
  | { type: 'done'; at: string };

export type Settlement = Extract<JournalRecord, { type: 'settled' }>;

/** Where one recipient stands after replaying the journal. `at` is when its batch started. */
export type RecipientState =
  | { state: 'pending'; lastError?: string }
  | { state: 'inflight'; batch: string; at: string }
  /** `conflict`: the answer listed it both as accepted and as refused; `id`: the message id it gave then. */
  | { state: 'doubt'; batch: string; at: string; reason?: string; conflict?: true; id?: string }
  | { state: 'sent'; id?: string; batch?: string; requestId?: string; settled?: boolean }
  | { state: 'failed'; reason: string };

/** The journal identity of a wire recipient: the lower-cased address, or smsKey() "CC:number" without the trunk zero. */
export function keyOf(plan: Pick<PlanRecord, 'kind'>, r: WireRecipient): string {
  return plan.kind === 'sms' ? smsKey(r.country_code, r.address) : r.address.toLowerCase();
}

export function labelOf(kind: Kind, r: WireRecipient): string {
  return kind === 'sms' ? `+${r.country_code} ${r.address}` : r.address;
}

export interface CreateOptions {
  /** The journal path was given by the user (--journal): its folder must exist already. */
  userPath: boolean;
  /** The command that resumes this journal, for the "already exists" hint. */
  resumeCommand: string;
}

export class Journal {
  readonly file: string;
  private fd: number;
  private held?: HeldLock;

  private constructor(file: string, fd: number) {
    this.file = file;
    this.fd = fd;
  }

  /** A new journal, 0600; refuses to overwrite one (that would forget what was sent). */
  static create(file: string, plan: PlanRecord, o: CreateOptions): Journal {
    const dir = path.dirname(file);
    if (o.userPath) checkUserPath(file);
    if (o.userPath) checkFolder(dir, file);
    else {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      } catch (e) {
        if (isDiskProblem(e)) throw new DiskError(dir, e.code!);
        throw new UsageError(`Cannot create the journal folder ${dir}: ${reason(e)}.`, 'Check the config directory (MAILCTL_CONFIG_DIR), or give a journal path with --journal FILE.');
      }
    }
    let fd: number;
    try {
      // Read as well as written: after a failed append the tail is read to cut any torn part.
      fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_APPEND, PRIVATE_FILE_MODE);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UsageError(`The journal ${file} already exists.`, `To continue that run: ${o.resumeCommand}; for a new one, choose another --journal file.`);
      if (isDiskProblem(e)) throw new DiskError(file, e.code!);
      if (code === 'ENOENT' || code === 'ENOTDIR') checkFolder(dir, file);
      throw new UsageError(`Cannot create the journal ${file}: ${reason(e)}.`, 'Give another path with --journal FILE.');
    }
    const j = new Journal(file, fd);
    try {
      j.lock();
      appendWhole(fd, JSON.stringify(plan) + '\n', file);
    } catch (e) {
      // No plan, no journal: an empty file would only stand in the way of running it again
      // (--journal refuses an existing file) and of a bare --resume.
      j.release();
      fs.rmSync(file, { force: true });
      throw e;
    }
    syncDir(dir);
    return j;
  }

  /**
   * An existing journal for resuming, locked first and read after, so no other run can append
   * between our reading and our sending: its records (a torn last line is cut off the file) and a handle
   * to append.
   */
  static open(file: string): { journal: Journal; plan: PlanRecord; records: JournalRecord[]; torn: boolean } {
    let fd: number;
    try {
      // Never through a symlink planted at the journal's path.
      fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new UsageError(`The journal ${file} is a symbolic link; mailctl does not write through links.`, 'Give the path of the journal file itself.');
      if (code === 'ENOENT' || code === 'EISDIR') throw new UsageError(fileProblem(e, file, 'journal'));
      if (isDiskProblem(e)) throw new DiskError(file, e.code!);
      throw new UsageError(`The journal ${file} cannot be written to: ${reason(e)}.`);
    }
    const j = new Journal(file, fd);
    j.lock();
    let read;
    try {
      read = Journal.read(file);
    } catch (e) {
      j.release();
      throw e;
    }
    try {
      if (read.torn) cutAfterLines(fd, read.goodLines);
      // A whole last record whose newline was not written yet: end its line before appending.
      else if (read.text.length && !read.text.endsWith('\n')) appendWhole(fd, '\n', file);
    } catch (e) {
      j.release();
      if (e instanceof DiskError) throw e;
      if (isDiskProblem(e)) throw new DiskError(file, e.code!);
      throw new UsageError(`The journal ${file} cannot be repaired: ${reason(e)}.`);
    }
    return { journal: j, plan: read.plan, records: read.records, torn: read.torn };
  }

  /** Read-only replay input (dry runs): no lock, no repair, no file touched. */
  static read(file: string): { plan: PlanRecord; records: JournalRecord[]; torn: boolean; goodLines: number; text: string } {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(fileProblem(e, file, 'journal'));
    }
    const { records, lines, torn, goodLines } = parseJournal(text, file);
    const plan = records[0];
    // Earlier formats never shipped: a plan of another version (or no plan) is refused, never guessed at.
    if (!plan || plan.type !== 'plan' || plan.version !== JOURNAL_VERSION || !KINDS.includes(plan.kind)) {
      throw new UsageError(`${file} is not a mailctl journal of this version (a send or automation journal of version ${JOURNAL_VERSION}), so it cannot be resumed.`);
    }
    const problem = journalProblem(records, keyOf);
    if (problem) throw damaged(file, lines[problem.index], problem.what);
    return { plan, records, torn, goodLines, text };
  }

  /**
   * One record per line, on disk (written whole and fdatasync'd) before the promise resolves. A
   * record the disk did not take whole (full, I/O error) rejects with a DiskError and leaves
   * nothing of itself in the file.
   */
  append(rec: JournalRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line: JSON.stringify(rec) + '\n', resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private queue: Array<{ line: string; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing?: Promise<void>;
  /** A write failed: its part may still be in the file if cutting it back failed too. */
  private mayBeTorn = false;

  /**
   * Group commit: records queued while a write+sync is under way go out together in the next
   * one. The sync runs off the event loop, so batches in flight are not held up by each
   * other's journal writes — and still no request starts before its intent is on disk.
   */
  private async flush(): Promise<void> {
    while (this.queue.length) {
      const group = this.queue.splice(0);
      try {
        // Never onto a torn line: a record appended there would be part of one damaged line.
        if (this.mayBeTorn) cutTornTail(this.fd);
        this.mayBeTorn = false;
        await appendWholeAsync(this.fd, group.map((g) => g.line).join(''), this.file, { sync: 'data' });
        group.forEach((g) => g.resolve());
      } catch (e) {
        this.mayBeTorn = true;
        const err = e instanceof DiskError ? e : isDiskProblem(e) ? new DiskError(this.file, e.code!) : e;
        group.forEach((g) => g.reject(err));
      }
    }
    this.flushing = undefined;
  }

  async close(): Promise<void> {
    await this.flushing;
    this.release();
  }

  /** Closes the file and gives the lock back (nothing may be queued). */
  private release(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.held?.release();
    this.held = undefined;
  }

  /**
   * Two processes working one journal could both send a batch: the second one is refused. The
   * lock (src/fs/lock-file.ts) is kept fresh while held, so one left by a run that was killed
   * (its pid gone) or that hung for an hour (or ran on another host) never blocks.
   */
  private lock(): void {
    const lockFile = `${this.file}.lock`;
    let h: ReturnType<typeof lockHolder> = 'gone';
    // A holder that lets go between our try and our look: try again.
    for (let attempt = 0; attempt < 3 && h === 'gone'; attempt++) {
      try {
        this.held = takeLock(lockFile, { staleMs: JOURNAL_LOCK_STALE_MS, heartbeatMs: JOURNAL_LOCK_HEARTBEAT_MS });
      } catch (e) {
        fs.closeSync(this.fd);
        if (e instanceof DiskError) throw e;
        throw new UsageError(`Cannot lock the journal ${this.file} (${lockFile}): ${reason(e)}.`);
      }
      if (this.held) return;
      h = lockHolder(lockFile);
    }
    fs.closeSync(this.fd);
    const who = h && h !== 'gone' ? forTerminal(`process ${h.pid} on ${h.host}`, 200) : 'a process whose lock file is unreadable';
    throw new CliError(
      `The journal ${this.file} is in use by another mailctl (${who}); nothing was sent.`,
      ExitCode.LOCKED,
      `Wait for that run to finish, then resume. A lock whose process is gone, or untouched for an hour, is taken over by itself.`,
      { code: 'LOCKED', reached: 'no', refused: false, retryable: true },
    );
  }
}

/**
 * --journal names a new file: not nothing (which would read as "no such file") and not an
 * existing folder (which would read as a journal to resume, and offer `--resume FOLDER`).
 */
function checkUserPath(file: string): void {
  if (!file.trim()) throw new UsageError('--journal is empty; give the path of a new journal file.', 'For example: --journal run.jsonl (or leave --journal out to keep it in the config directory).');
  let folder = false;
  try {
    folder = fs.statSync(file).isDirectory();
  } catch {
    // missing, or below a file: the folder check that follows says which
  }
  if (folder) {
    throw new UsageError(`--journal ${file} is a folder; give the path of a new journal file in it, such as ${path.join(file, 'run.jsonl')}.`);
  }
}

/** The folder a user named for --journal: it must exist and be a folder (nothing is created). */
function checkFolder(dir: string, file: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`The folder ${dir} of the journal ${file} (--journal) does not exist.`, 'Create the folder first, or give a path in an existing one.');
    if (code === 'ENOTDIR') throw new UsageError(`The journal ${file} (--journal) cannot be created: part of ${dir} is a file, not a folder.`, 'Give a path inside an existing folder.');
    throw new UsageError(`The folder ${dir} of the journal ${file} (--journal) cannot be used: ${reason(e)}.`);
  }
  if (!st.isDirectory()) throw new UsageError(`The journal ${file} (--journal) cannot be created: ${dir} is a file, not a folder.`, 'Give a path inside an existing folder.');
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'ENOSPC') return 'the disk is full';
  return (e as Error)?.message ?? String(e);
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch {
    /* not supported on every platform; the file itself is synced */
  }
}

/** A parsed line as a record: a JSON object (its fields are checked by ./journal-check.ts). */
function asRecord(raw: unknown): JournalRecord {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a record');
  return raw as JournalRecord;
}

/** The first line of a journal as its plan, when it is a plan of the version this mailctl reads. */
function planOfLine(line: string): PlanRecord | undefined {
  const first = asRecord(JSON.parse(line));
  return first.type === 'plan' && first.version === JOURNAL_VERSION ? first : undefined;
}

/**
 * The records, the line of each (1-based), whether the last line was cut short (`torn`), and
 * how many whole lines come before the torn one (`goodLines`; every line when nothing is torn).
 * Only a line that is not JSON can be a cut-short write (a record is one JSON object, and a
 * part of one never parses); a whole line that is not a record is damage.
 */
function parseJournal(text: string, file = 'journal'): { records: JournalRecord[]; lines: number[]; torn: boolean; goodLines: number } {
  const lines = text.split('\n');
  const records: JournalRecord[] = [];
  const at: number[] = [];
  let torn = false;
  let goodLines = lines.length;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      // Only the last line can be cut short by a kill; damage elsewhere means we cannot trust it.
      const last = lines.slice(i + 1).every((l) => !l.trim());
      if (!last) throw damaged(file, i + 1);
      torn = true;
      goodLines = i;
      return;
    }
    try {
      records.push(asRecord(raw));
    } catch {
      throw damaged(file, i + 1, 'a line that is not a record');
    }
    at.push(i + 1);
  });
  return { records, lines: at, torn, goodLines };
}

function damaged(file: string, line: number, what?: string): UsageError {
  return new UsageError(`${file} is damaged at line ${line}${what ? ` (${what})` : ''}; it cannot be used to resume safely.`);
}

/**
 * Cuts a torn last line off (the file ends after its `goodLines`-th newline), on disk before
 * anything is appended: a fragment left in place would sit in the middle of the file after the
 * next record and make every later resume refuse the journal as damaged. Counted in bytes of
 * the file itself ('\n' is never part of a multi-byte UTF-8 sequence), not of decoded text.
 */
function cutAfterLines(fd: number, goodLines: number): void {
  const size = fs.fstatSync(fd).size;
  const buf = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  let end = 0;
  for (let seen = 0; seen < goodLines; seen++) {
    const nl = buf.indexOf(0x0a, end);
    if (nl < 0) break;
    end = nl + 1;
  }
  fs.ftruncateSync(fd, end);
  fs.fsyncSync(fd);
}

/** Each recipient's state, from the plan and the records in order. */
export function replay(plan: PlanRecord, records: JournalRecord[]): Map<string, RecipientState> {
  const states = new Map<string, RecipientState>();
  for (const r of plan.recipients) states.set(keyOf(plan, r), { state: 'pending' });
  const batchKeys = new Map<string, string[]>();
  const inBatch = (batch: string, fn: (key: string, st: Extract<RecipientState, { at: string }>) => RecipientState | undefined) => {
    for (const key of batchKeys.get(batch) ?? []) {
      const st = states.get(key);
      if (!st || (st.state !== 'inflight' && st.state !== 'doubt') || st.batch !== batch) continue;
      const next = fn(key, st);
      if (next) states.set(key, next);
    }
  };
  for (const rec of records) {
    switch (rec.type) {
      case 'intent':
        batchKeys.set(rec.batch, rec.keys);
        for (const key of rec.keys) states.set(key, { state: 'inflight', batch: rec.batch, at: rec.at });
        break;
      case 'result':
        inBatch(rec.batch, (key, st) => {
          if (rec.conflict && Object.hasOwn(rec.conflict, key)) return conflictState(rec.batch, st.at, rec.conflict[key]);
          if (Object.hasOwn(rec.success, key)) return { state: 'sent', id: rec.success[key] || undefined, batch: rec.batch, requestId: rec.requestId };
          if (Object.hasOwn(rec.failure, key)) return { state: 'failed', reason: rec.failure[key] };
          // Answered, yet this recipient is in neither list: nothing proves either way.
          return { state: 'doubt', batch: rec.batch, at: st.at, reason: NOT_LISTED };
        });
        break;
      case 'unsent':
        inBatch(rec.batch, () => ({ state: 'pending', lastError: rec.reason }));
        break;
      case 'doubt':
        inBatch(rec.batch, (_k, st) => ({ state: 'doubt', batch: rec.batch, at: st.at, reason: rec.reason }));
        break;
      case 'settled':
        applySettlement(states, rec);
        break;
      default:
        break;
    }
  }
  // Whatever is still "inflight" was in flight when the process died.
  for (const [key, st] of states) if (st.state === 'inflight') states.set(key, { state: 'doubt', batch: st.batch, at: st.at, reason: 'the run stopped while this request was in flight' });
  return states;
}

export const NOT_LISTED = 'not listed in the service\'s answer';

/** Why a recipient the answer listed as both accepted and refused is in doubt. */
export const CONFLICT = 'the service\'s answer listed it both as accepted and as refused, so neither is known; mailctl never sends it again by itself';

/** A recipient the answer listed both ways (issue 19 item 8): in doubt, its message id kept for a lookup by id. */
export function conflictState(batch: string, at: string, id: string): RecipientState {
  return { state: 'doubt', batch, at, reason: CONFLICT, conflict: true, ...(id ? { id } : {}) };
}

/** Applies a settlement to the states (a replay applies the journal's record the same way). */
export function applySettlement(states: Map<string, RecipientState>, rec: Settlement): void {
  for (const [key, v] of Object.entries(rec.sent)) states.set(key, { state: 'sent', id: v.id, settled: true });
  for (const key of rec.unsent) states.set(key, { state: 'pending', lastError: 'in doubt; the event lookup showed it was not sent' });
  for (const [key, why] of Object.entries(rec.unknown)) {
    const st = states.get(key);
    // A conflict keeps its reason: what a lookup could not tell adds nothing to it.
    if (st?.state === 'doubt' && !st.conflict) states.set(key, { ...st, reason: why });
  }
}

/** The next free batch id (ids are a sequence over the whole journal, resumes included). */
export function nextBatchNumber(records: JournalRecord[]): number {
  return records.filter((r) => r.type === 'intent').length + 1;
}

export function isDone(records: JournalRecord[]): boolean {
  return records.some((r) => r.type === 'done');
}

export function journalDir(configDir: string): string {
  return path.join(configDir, 'journals');
}

/**
 * File names say which command resumes them: send-email-…, send-sms-…, automation-trigger-…,
 * automation-terminate-…, so a bare `--resume` picks only its own command's journals.
 */
export function journalPrefix(kind: Kind, event?: unknown): string {
  if (kind !== 'automation') return `send-${kind}-`;
  return event === undefined ? 'automation-' : `automation-${event === 'TERMINATE' ? 'terminate' : 'trigger'}-`;
}

export function newJournalPath(configDir: string, plan: Pick<PlanRecord, 'kind' | 'message'>, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const rand = Math.random().toString(36).slice(2, 6);
  return path.join(journalDir(configDir), `${journalPrefix(plan.kind, plan.message.event)}${stamp}-${rand}.jsonl`);
}

/**
 * For a bare `--resume`: the most recent journal whose name starts with one of `prefixes`, that
 * is not done and whose plan `accept`s (same profile and service), and the unfinished ones passed
 * over because their plan did not, most recent first. A journal whose first line cannot be read,
 * or is a plan of another version, is taken as it is (the resume then says what is wrong with it).
 * Reads only.
 */
export function latestUnfinished(configDir: string, prefixes: readonly string[], accept: (plan: PlanRecord) => boolean = () => true): { file?: string; passedOver: Array<{ file: string; plan: PlanRecord }> } {
  const passedOver: Array<{ file: string; plan: PlanRecord }> = [];
  for (const f of journalsNewestFirst(configDir, prefixes)) {
    if (tailSaysDone(f)) continue;
    let plan: PlanRecord | undefined;
    try {
      plan = planOfLine(firstLine(f));
    } catch {
      /* unreadable: the resume reports it */
    }
    if (!plan || planProblem(plan as unknown as Record<string, unknown>) || accept(plan)) return { file: f, passedOver };
    passedOver.push({ file: f, plan });
  }
  return { passedOver };
}

/**
 * An unfinished journal in the config directory whose plan is this one — the same kind, request
 * body and recipients — most recent first: a new run of it probably meant `--resume`. Reads the
 * first line of each candidate only; a journal it cannot read (or cannot resume: another version)
 * is passed over.
 */
export function unfinishedWithSamePlan(configDir: string, plan: Pick<PlanRecord, 'kind' | 'message' | 'recipients'>): string | undefined {
  const want = JSON.stringify([plan.kind, plan.message, plan.recipients]);
  for (const f of journalsNewestFirst(configDir, [journalPrefix(plan.kind, plan.message.event)])) {
    try {
      // The tail first: a finished journal (kept 30 days) is passed over without parsing its plan.
      if (tailSaysDone(f)) continue;
      const first = planOfLine(firstLine(f));
      if (first && JSON.stringify([first.kind, first.message, first.recipients]) === want) return f;
    } catch {
      /* not a journal, torn, or gone: not the run we look for */
    }
  }
  return undefined;
}

/** The journals in the config directory whose names start with one of `prefixes`, newest first; one gone meanwhile is left out. */
function journalsNewestFirst(configDir: string, prefixes: readonly string[]): string[] {
  const dir = journalDir(configDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl') && prefixes.some((p) => n.startsWith(p)));
  } catch {
    return [];
  }
  return names
    .flatMap((n) => {
      const f = path.join(dir, n);
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return st ? [{ f, m: st.mtimeMs }] : [];
    })
    .sort((a, b) => b.m - a.m)
    .map(({ f }) => f);
}

/** The first line of a file, read in pieces (a plan line holds every recipient; the rest may be long). */
function firstLine(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const parts: Buffer[] = [];
    const buf = Buffer.alloc(1 << 16);
    for (let pos = 0; ; ) {
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      parts.push(Buffer.from(buf.subarray(0, nl < 0 ? n : nl)));
      if (nl >= 0) break;
      pos += n;
    }
    return Buffer.concat(parts).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Finished journals older than this are removed when a new run starts (they hold addresses). */
export const KEEP_DONE_DAYS = 30;

export function pruneJournals(configDir: string, now: number): void {
  const dir = journalDir(configDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return;
  }
  for (const n of names) {
    const f = path.join(dir, n);
    try {
      if (now - fs.statSync(f).mtimeMs > KEEP_DONE_DAYS * 86_400_000 && tailSaysDone(f)) fs.rmSync(f);
    } catch {
      /* someone else's file or a race: leave it */
    }
  }
}

function tailSaysDone(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const len = Math.min(size, 256);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, size - len);
    return /"type":"done"/.test(buf.toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}
