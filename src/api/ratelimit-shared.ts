// One rate budget per key for every mailctl process of this user on this machine (issue 11 §2;
// spec 000 §8: the service counts 2 requests/s and 1 export per 10 s per key, not per process).
// The recent requests of a key live in a small file in the config directory, named by a hash of
// the base URL and the key (never the key itself). A request is admitted under a lock: an O_EXCL
// lock file naming its holder, held only for a few synchronous file operations (no await while
// held), so a lock whose holder is gone or older than LOCK_STALE_MS never blocks. Anything that
// goes wrong with the files (an unwritable config directory, a lock that stays busy) falls back
// to this process's own limiter, with one warning under -v.
//
// What the service counts is arrivals, which the client does not see. It sees when a request
// was admitted (s) and when its answer came (a), and the arrival lies between; how long after s
// is anyone's guess on a busy machine, where a process can be descheduled for a long moment
// between admission and sending (an earlier estimate, "arrives within 50 ms of s", met 429s with
// three CPU hogs running). So nothing is estimated: a request holds its slot until a second
// after its answer (or its failure) came, which bounds what the service can have counted, and
// until then it holds it whatever time it is. A request is admitted only when fewer than `max`
// requests hold a slot now. The price is the round trip: each slot turns over every window +
// round trip (about 1.005 s per slot against the sandbox on loopback).
// A 429 seen by any process pauses every process until a window after it (the service counted
// something nobody here knows about: another machine, a clock that jumped). A request whose
// process is gone (kill -9) holds its slot until a window after that is noticed; one still
// unanswered after IN_FLIGHT_MAX_MS is taken as answered then (its answer was lost to a bug).
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import { SlidingWindowLimiter, type Limiter, type Ticket } from './ratelimit.js';
import { HOST, LOCK_STALE_MS, alive, takeLock, type HeldLock } from '../fs/lock-file.js';
import { asDiskError, DiskError } from '../fs/append-whole.js';
import { writeAllSync } from '../fs/write-all.js';
import { normalUrl } from '../config/base-url.js';

// The lock (src/fs/lock-file.ts) is held for a few file operations (microseconds): one older than
// LOCK_STALE_MS belongs to a holder that died or hung.
export { LOCK_STALE_MS };
/** How long one admission waits for the lock before this process paces itself alone. */
const LOCK_WAIT_MS = 3 * LOCK_STALE_MS;
/**
 * Past this, a request with no answer recorded is taken as answered: every request settles
 * sooner (the client's time-out, 30 s, ends it and records it), so only a lost record gets here.
 */
export const IN_FLIGHT_MAX_MS = 60_000;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const FILE_MODE = 0o600;

/** The file stem of one key's budget: a hash of base URL and key, so no file names or holds the key. */
export function budgetName(baseUrl: string, apiKey: string, bucket: string): string {
  // One service, one budget: the URL compared as a resumed journal compares it (normalUrl).
  const h = createHash('sha256').update(`mailctl rate budget\n${normalUrl(baseUrl)}\n${apiKey}`).digest('hex');
  return `${h.slice(0, 32)}.${bucket}`;
}

export interface SharedLimiterOptions {
  /** The folder of budget files (<config dir>/ratelimit), created 0700 when missing. */
  dir: string;
  /** From budgetName(). */
  name: string;
  max: number;
  windowMs: number;
  clock: Clock;
  /** Told once when the budget cannot be shared and this process paces itself alone. */
  warn?: (line: string) => void;
}

/** One admitted request: when it was admitted (s), when its answer came (a), whose it is (pid on host). */
interface Entry {
  id: string;
  s: number;
  a?: number;
  pid?: number;
  host?: string;
}

/** The file: the requests that hold a slot, and until when a 429 pauses everyone. */
interface Budget {
  entries: Entry[];
  pause?: number;
}

/** At most `max` requests arriving in any `windowMs`, counted over every process that shares the file. */
export class SharedWindowLimiter implements Limiter {
  private queue: Promise<unknown> = Promise.resolve();
  private alone?: SlidingWindowLimiter;
  private readonly file: string;
  private readonly lock: string;
  private seq = 0;
  private readonly me = randomBytes(4).toString('hex');

  constructor(private readonly o: SharedLimiterOptions) {
    this.file = path.join(o.dir, `${o.name}.json`);
    this.lock = path.join(o.dir, `${o.name}.lock`);
  }

  /** True once the budget could not be shared (tests, -v). */
  get local(): boolean {
    return !!this.alone;
  }

  take(signal?: AbortSignal): Promise<Ticket | void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        if (this.alone) return this.alone.take(signal);
        const r = await this.admit(signal);
        if (typeof r === 'object') return r;
        if (r !== undefined) await this.o.clock.sleep(r, signal);
      }
    });
    this.queue = turn.catch(() => {});
    return turn;
  }

  /**
   * The request of `ticket` settled: its answer came (with `status`), or it failed (no status).
   * Either way it has arrived, if it ever will. A 429 pauses every process for a window.
   */
  async answered(ticket: Ticket, status?: number): Promise<void> {
    if (this.alone) return;
    const at = this.o.clock.now();
    await this.underLock((b) => {
      const e = b.entries.find((x) => x.id === ticket.id);
      if (e) e.a = at;
      if (status === 429) b.pause = Math.max(b.pause ?? -Infinity, at + this.o.windowMs);
      return true;
    }).catch(() => {}); // not recorded: the entry holds its slot until IN_FLIGHT_MAX_MS, which only makes others wait longer
  }

  /** A ticket: admitted now; a number: look again after that many ms; undefined: pace alone from now on. */
  private async admit(signal?: AbortSignal): Promise<Ticket | number | undefined> {
    let out: Ticket | number = 0;
    const ok = await this.underLock((b) => {
      const now = this.o.clock.now();
      const far = now + 64 * this.o.windowMs;
      for (const e of b.entries) {
        if (e.a !== undefined) continue;
        // Its process is gone (killed mid-request), or its answer was never recorded: whatever
        // it sent has arrived by now.
        const gone = e.host === HOST && e.pid !== undefined && e.pid !== process.pid && !alive(e.pid);
        if (gone || now - e.s >= IN_FLIGHT_MAX_MS) e.a = now;
      }
      // Only entries that still hold a slot stay (so the file stays small); a time implausibly
      // far ahead means the system clock was set back, and would make everyone wait for nothing.
      b.entries = b.entries.filter((e) => (e.a === undefined || e.a + this.o.windowMs > now) && e.s <= far && (e.a ?? 0) <= far);
      if (b.pause !== undefined && (b.pause <= now || b.pause > far)) delete b.pause;
      if (b.pause !== undefined) {
        out = b.pause - now;
        return false;
      }
      if (b.entries.length >= this.o.max) {
        // The earliest moment enough slots can be free: an unanswered request frees its slot a
        // window after its answer, so not before a window from now. Then look again.
        const free = b.entries.map((e) => (e.a ?? now) + this.o.windowMs).sort((x, y) => x - y);
        out = Math.max(1, free[b.entries.length - this.o.max] - now);
        return false;
      }
      const e: Entry = { id: `${this.me}-${++this.seq}`, s: now, pid: process.pid, host: HOST };
      b.entries.push(e);
      out = { id: e.id };
      return true;
    }, signal).catch((e: unknown) => {
      if (signal?.aborted) throw e;
      return this.goAlone(e);
    });
    return ok === undefined ? undefined : out;
  }

  /**
   * Runs `change` on the budget under the lock and writes it back when it changed. Throws what
   * stops the budget from being shared.
   */
  private async underLock(change: (b: Budget) => boolean, signal?: AbortSignal): Promise<boolean> {
    try {
      fs.mkdirSync(this.o.dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      const disk = asDiskError(e, this.o.dir);
      if (disk instanceof DiskError) throw disk;
      throw new Error(`cannot create ${this.o.dir}: ${reason(e)}`);
    }
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      let held: HeldLock | undefined;
      try {
        held = takeLock(this.lock);
      } catch (e) {
        if (e instanceof DiskError) throw e;
        throw new Error(`cannot write ${this.lock}: ${reason(e)}`);
      }
      if (held) {
        try {
          const budget = readBudget(this.file);
          const before = JSON.stringify(budget);
          const result = change(budget);
          if (JSON.stringify(budget) !== before) writeBudget(this.file, budget);
          return result;
        } catch (e) {
          if (e instanceof DiskError) throw e;
          throw new Error(`cannot write ${this.file}: ${reason(e)}`);
        } finally {
          held.release();
        }
      }
      if (Date.now() > deadline) throw new Error(`${this.lock} stayed locked for ${LOCK_WAIT_MS / 1000} s`);
      // Real time, not the injected clock: the lock is about other processes.
      await systemClock.sleep(1 + Math.random() * 4, signal);
    }
  }

  /**
   * The budget cannot be shared (its folder or file cannot be written: a full disk is a
   * DiskError naming the file). Pacing is all it does, so the run goes on pacing itself — the
   * requests and what the run records are unaffected — and says why.
   */
  private goAlone(e: unknown): undefined {
    this.alone = new SlidingWindowLimiter(this.o.max, this.o.windowMs, this.o.clock);
    const why = String((e as Error)?.message ?? e).replace(/[.\s]+$/, '');
    this.o.warn?.(`The rate budget is not shared with other mailctl processes (${why}); this process paces itself alone, so runs in parallel on the same key may meet "too many requests" and wait.`);
    return undefined;
  }
}

function reason(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);
}

function readBudget(file: string): Budget {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | NOFOLLOW);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    throw e;
  }
  try {
    const v = JSON.parse(text) as { entries?: unknown; pause?: unknown };
    const entries = Array.isArray(v?.entries)
      ? v.entries.filter((e): e is Entry => Number.isFinite(e?.s) && typeof e.id === 'string' && (e.a === undefined || Number.isFinite(e.a)))
      : [];
    return { entries, ...(Number.isFinite(v?.pause) ? { pause: v.pause as number } : {}) };
  } catch {
    return { entries: [] }; // damaged (a crash mid-write on a file system without atomic rename): start afresh
  }
}

/**
 * Written beside and renamed in; only the lock holder writes, so one fixed temporary name serves.
 * Renamed only once written whole: a short write on a full disk would otherwise replace the
 * budget with a torn one (read back as empty), and every process would forget the slots taken.
 */
function writeBudget(file: string, budget: Budget): void {
  const tmp = `${file}.tmp`;
  let fd: number;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | NOFOLLOW, FILE_MODE);
  } catch (e) {
    throw asDiskError(e, file);
  }
  try {
    // A new file (O_TRUNC), removed below if it cannot be written whole; pacing only, not synced.
    writeAllSync(fd, JSON.stringify(budget), file);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  // The old budget goes before the rename rather than being renamed over: ext4 (auto_da_alloc)
  // writes a file renamed over another out to disk before the rename returns, ~0.4 ms, twice for
  // every request (issue 24.6). Only the lock holder reads or writes the budget, and the new one
  // is whole before the old one goes: what a crash in between loses is what a torn file would.
  fs.rmSync(file, { force: true });
  fs.renameSync(tmp, file);
}
