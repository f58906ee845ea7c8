// The send journal: an append-only JSONL file, each line fsync'd before the next step, so a
// run killed at any point (even kill -9) leaves a record of what was certainly not sent, what
// certainly was, and what was in flight. The first line is the whole plan (message and
// recipients exactly as they go on the wire), so `send --resume` needs nothing else.
//
// Lines, in the order one run writes them:
//   plan     the request body without recipients, and the recipients
//   intent   batch b is about to be sent to these keys          (written BEFORE the request)
//   result   the service's answer for batch b                   (after it)
//   unsent   batch b certainly did not go out (refused as a whole, never connected)
//   doubt    batch b may or may not have gone out (timeout, reset, 5xx, interrupted)
//   settled  what an event lookup proved about in-doubt recipients
//   done     every recipient is either sent or failed for good
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../cli/errors.js';
import type { Channel } from './recipients.js';
import { fileProblem } from '../cli/file-problem.js';

export interface WireRecipient {
  address: string;
  name?: string;
  country_code?: string;
  variables?: Record<string, string>;
}

export interface PlanRecord {
  t: 'plan';
  v: 1;
  kind: Channel;
  createdAt: string;
  batchSize: number;
  /** The request body without `recipients`. */
  message: Record<string, unknown>;
  recipients: WireRecipient[];
}

export type JournalRecord =
  | PlanRecord
  | { t: 'intent'; b: string; keys: string[]; at: string }
  | { t: 'result'; b: string; at: string; requestId?: string; success: Record<string, string>; failure: Record<string, string>; unmatched?: string[] }
  | { t: 'unsent'; b: string; at: string; reason: string }
  | { t: 'doubt'; b: string; at: string; reason: string }
  | { t: 'settled'; at: string; sent: Record<string, { id: string; eventTime?: string }>; unsent: string[]; unknown: Record<string, string> }
  | { t: 'done'; at: string };

/** Where one recipient stands after replaying the journal. */
export type RecipientState =
  | { s: 'pending'; lastError?: string }
  | { s: 'inflight'; b: string; at: string }
  | { s: 'doubt'; b: string; at: string; reason?: string }
  | { s: 'sent'; id: string; b?: string; requestId?: string; settled?: boolean }
  | { s: 'failed'; reason: string };

/** The journal identity of a wire recipient: lower-cased address, or "CC:number". */
export function keyOf(kind: Channel, r: WireRecipient): string {
  return kind === 'email' ? r.address.toLowerCase() : `${r.country_code}:${r.address}`;
}

export function labelOf(kind: Channel, r: WireRecipient): string {
  return kind === 'email' ? r.address : `+${r.country_code} ${r.address}`;
}

export class Journal {
  readonly file: string;
  private fd: number;
  private lockFile?: string;

  private constructor(file: string, fd: number) {
    this.file = file;
    this.fd = fd;
  }

  /** A new journal; refuses to overwrite one (that would forget what was sent). */
  static create(file: string, plan: PlanRecord): Journal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`The journal ${file} already exists.`, `To continue that send, run \`mailctl send --resume ${file}\`; for a new send, choose another --journal file.`);
      throw new UsageError(`Cannot create the journal ${file}: ${(e as Error).message}.`);
    }
    const j = new Journal(file, fd);
    j.lock();
    j.appendSync(plan);
    syncDir(path.dirname(file));
    return j;
  }

  /** An existing journal for resuming: its records (a torn last line is dropped) and a handle to append. */
  static open(file: string): { journal: Journal; plan: PlanRecord; records: JournalRecord[]; torn: boolean } {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(fileProblem(e, file, 'journal'));
    }
    const { records, torn } = parseJournal(text, file);
    const plan = records[0];
    if (!plan || plan.t !== 'plan' || plan.v !== 1) throw new UsageError(`${file} is not a mailctl send journal.`);
    const fd = fs.openSync(file, 'a');
    const j = new Journal(file, fd);
    j.lock();
    // A torn line (killed mid-write) must not swallow the next record: start on a fresh line.
    if (text.length && !text.endsWith('\n')) {
      fs.writeSync(fd, '\n');
      fs.fsyncSync(fd);
    }
    return { journal: j, plan, records, torn };
  }

  /** One record per line, on disk (written and fdatasync'd) before the promise resolves. */
  append(rec: JournalRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line: JSON.stringify(rec) + '\n', resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private queue: Array<{ line: string; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing?: Promise<void>;

  /**
   * Group commit: records queued while a write+sync is under way go out together in the next
   * one. The sync runs off the event loop, so batches in flight are not held up by each
   * other's journal writes — and still no request starts before its intent is on disk.
   */
  private async flush(): Promise<void> {
    while (this.queue.length) {
      const group = this.queue.splice(0);
      try {
        await writeAsync(this.fd, group.map((g) => g.line).join(''));
        await datasyncAsync(this.fd);
        group.forEach((g) => g.resolve());
      } catch (e) {
        group.forEach((g) => g.reject(e));
      }
    }
    this.flushing = undefined;
  }

  /** The first line, synchronously: nothing else happens before the plan is on disk. */
  private appendSync(rec: JournalRecord): void {
    fs.writeSync(this.fd, JSON.stringify(rec) + '\n');
    fs.fsyncSync(this.fd);
  }

  async close(): Promise<void> {
    await this.flushing;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    if (this.lockFile) fs.rmSync(this.lockFile, { force: true });
    this.lockFile = undefined;
  }

  /** Two processes working one journal could both send a batch: the second one is refused. */
  private lock(): void {
    const lockFile = `${this.file}.lock`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
        this.lockFile = lockFile;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
        if (pid && pid !== process.pid && alive(pid)) {
          fs.closeSync(this.fd);
          throw new UsageError(`The journal ${this.file} is in use by another mailctl (process ${pid}).`, 'Wait for it to finish; if that process is gone, delete the .lock file next to the journal.');
        }
        // Left behind by a run that was killed: take it over.
        fs.rmSync(lockFile, { force: true });
      }
    }
  }
}

const writeAsync = promisify(fs.write) as (fd: number, s: string) => Promise<unknown>;
const datasyncAsync = promisify(fs.fdatasync);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
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

export function parseJournal(text: string, file = 'journal'): { records: JournalRecord[]; torn: boolean } {
  const lines = text.split('\n');
  const records: JournalRecord[] = [];
  let torn = false;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(JSON.parse(line) as JournalRecord);
    } catch {
      // Only the last line can be cut short by a kill; damage elsewhere means we cannot trust it.
      const last = lines.slice(i + 1).every((l) => !l.trim());
      if (!last) throw new UsageError(`${file} is damaged at line ${i + 1}; it cannot be used to resume safely.`);
      torn = true;
    }
  });
  return { records, torn };
}

/** Each recipient's state, from the plan and the records in order. */
export function replay(plan: PlanRecord, records: JournalRecord[]): Map<string, RecipientState> {
  const states = new Map<string, RecipientState>();
  for (const r of plan.recipients) states.set(keyOf(plan.kind, r), { s: 'pending' });
  const batchKeys = new Map<string, string[]>();
  const inBatch = (b: string, fn: (key: string, st: RecipientState) => RecipientState | undefined) => {
    for (const key of batchKeys.get(b) ?? []) {
      const st = states.get(key);
      if (!st || (st.s !== 'inflight' && st.s !== 'doubt') || st.b !== b) continue;
      const next = fn(key, st);
      if (next) states.set(key, next);
    }
  };
  for (const rec of records) {
    switch (rec.t) {
      case 'intent':
        batchKeys.set(rec.b, rec.keys);
        for (const key of rec.keys) states.set(key, { s: 'inflight', b: rec.b, at: rec.at });
        break;
      case 'result':
        inBatch(rec.b, (key, st) => {
          if (Object.hasOwn(rec.success, key)) return { s: 'sent', id: rec.success[key], b: rec.b, requestId: rec.requestId };
          if (Object.hasOwn(rec.failure, key)) return { s: 'failed', reason: rec.failure[key] };
          // Answered, yet this recipient is in neither list: nothing proves either way.
          return { s: 'doubt', b: rec.b, at: st.s === 'inflight' || st.s === 'doubt' ? st.at : rec.at, reason: 'not listed in the service\'s answer' };
        });
        break;
      case 'unsent':
        inBatch(rec.b, () => ({ s: 'pending', lastError: rec.reason }));
        break;
      case 'doubt':
        inBatch(rec.b, (_k, st) => ({ s: 'doubt', b: rec.b, at: st.s === 'inflight' || st.s === 'doubt' ? st.at : rec.at, reason: rec.reason }));
        break;
      case 'settled':
        for (const [key, v] of Object.entries(rec.sent)) states.set(key, { s: 'sent', id: v.id, settled: true });
        for (const key of rec.unsent) states.set(key, { s: 'pending', lastError: 'in doubt; the event lookup showed it was not sent' });
        break;
      default:
        break;
    }
  }
  // Whatever is still "inflight" was in flight when the process died.
  for (const [key, st] of states) if (st.s === 'inflight') states.set(key, { s: 'doubt', b: st.b, at: st.at, reason: 'the run stopped while this request was in flight' });
  return states;
}

/** The next free batch id (ids are a sequence over the whole journal, resumes included). */
export function nextBatchNumber(records: JournalRecord[]): number {
  return records.filter((r) => r.t === 'intent').length + 1;
}

export function isDone(records: JournalRecord[]): boolean {
  return records.some((r) => r.t === 'done');
}

export function journalDir(configDir: string): string {
  return path.join(configDir, 'journals');
}

export function newJournalPath(configDir: string, kind: Channel, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const rand = Math.random().toString(36).slice(2, 6);
  return path.join(journalDir(configDir), `send-${kind}-${stamp}-${rand}.jsonl`);
}

/** The most recent journal that is not done, for a bare `--resume`. */
export function latestUnfinished(configDir: string): string | undefined {
  const dir = journalDir(configDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  const files = names.map((n) => path.join(dir, n)).map((f) => ({ f, m: fs.statSync(f).mtimeMs })).sort((a, b) => b.m - a.m);
  return files.find(({ f }) => !tailSaysDone(f))?.f;
}

/** Finished journals older than this are removed when a new send starts (they hold addresses). */
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
    return /"t":"done"/.test(buf.toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}
