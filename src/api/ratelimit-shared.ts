// One rate budget per key for every mailctl process of this user on this machine (issue 11 §2;
// spec 000 §8: the service counts 2 requests/s and 1 export per 10 s per key, not per process).
// The recent requests of a key live in a small file in the config directory, named by a hash of
// the base URL and the key (never the key itself). A request is admitted under a lock: an O_EXCL
// lock file naming its holder, held only for a few synchronous file operations (no await while
// held), so a lock whose holder is gone or older than LOCK_STALE_MS never blocks. Anything that
// goes wrong with the files (an unwritable config directory, a lock that stays busy) falls back
// to this process's own limiter, with one warning under -v.
//
// What the service counts is arrivals, which the client does not see; it sees when a request
// left (s) and when its answer came (a), and the arrival lies between. So a request blocks the
// budget until min(s + window + margin, a + window): the first is the usual estimate (requests
// arrive a steady moment after they leave; the margin absorbs the jitter), the second is certain.
// A cold request (a process's first, or its first after a pause, when the connection is new and
// the process may still be starting, hundreds of ms on a busy machine) is not steady: it blocks
// until a + window, and until its answer comes, others look again every POLL_MS. A request is
// admitted only when a slot is free now, never reserved ahead, so what others wait on is always
// what is known at that moment.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../cli/clock.js';
import { SlidingWindowLimiter, type Limiter, type Ticket } from './ratelimit.js';
import { LOCK_STALE_MS, releaseLock, takeLock } from '../fs/lock-file.js';

// The lock (src/fs/lock-file.ts) is held for a few file operations (microseconds): one older than
// LOCK_STALE_MS belongs to a holder that died or hung.
export { LOCK_STALE_MS };
/** How long one admission waits for the lock before this process paces itself alone. */
const LOCK_WAIT_MS = 3 * LOCK_STALE_MS;
/** How late an unanswered cold request may arrive, as far as others are concerned. */
export const COLD_MS = 1000;
/** After this long without an answer the connection may be closed (Node's keep-alive is 4 s): cold again. */
const WARM_FOR_MS = 4000;
/** How often a waiting process looks again while what it waits for is an unanswered cold request. */
const POLL_MS = 20;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const FILE_MODE = 0o600;

/** The file stem of one key's budget: a hash of base URL and key, so no file names or holds the key. */
export function budgetName(baseUrl: string, apiKey: string, bucket: string): string {
  const h = createHash('sha256').update(`mailctl rate budget\n${baseUrl.replace(/\/+$/, '')}\n${apiKey}`).digest('hex');
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
  marginMs?: number;
  /** Told once when the budget cannot be shared and this process paces itself alone. */
  warn?: (line: string) => void;
}

/** One admitted request: when it left (s), when its answer came (a), whether it was cold. */
interface Entry {
  id: string;
  s: number;
  a?: number;
  cold?: 1;
}

/** At most `max` requests arriving in any `windowMs`, counted over every process that shares the file. */
export class SharedWindowLimiter implements Limiter {
  private queue: Promise<unknown> = Promise.resolve();
  private alone?: SlidingWindowLimiter;
  private readonly file: string;
  private readonly lock: string;
  private readonly margin: number;
  private lastAnswer = -Infinity;
  private seq = 0;
  private readonly me = randomBytes(4).toString('hex');

  constructor(private readonly o: SharedLimiterOptions) {
    this.file = path.join(o.dir, `${o.name}.json`);
    this.lock = path.join(o.dir, `${o.name}.lock`);
    this.margin = o.marginMs ?? 50;
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

  /** The answer to the request of `ticket` came: it has certainly arrived. */
  async answered(ticket: Ticket): Promise<void> {
    const at = this.o.clock.now();
    this.lastAnswer = at;
    if (this.alone) return;
    await this.underLock((entries) => {
      const e = entries.find((x) => x.id === ticket.id);
      if (e) e.a = at;
      return !!e;
    }).catch(() => {}); // not recorded: the estimate stands, which only makes others wait longer
  }

  /** When a new request may leave without making `e`'s window hold too many. */
  private freeAfter(e: Entry): number {
    const certain = e.a === undefined ? Infinity : e.a + this.o.windowMs;
    const estimate = e.cold ? (e.a === undefined ? e.s + COLD_MS + this.o.windowMs + this.margin : Infinity) : e.s + this.o.windowMs + this.margin;
    return Math.min(certain, estimate);
  }

  /** A ticket: admitted now; a number: look again after that many ms; undefined: pace alone from now on. */
  private async admit(signal?: AbortSignal): Promise<Ticket | number | undefined> {
    let out: Ticket | number = 0;
    const ok = await this.underLock((entries) => {
      const now = this.o.clock.now();
      // Only entries that still block count (so the file stays small); one implausibly far
      // ahead means the system clock was set back, and would make everyone wait for nothing.
      const live = entries.filter((e) => this.freeAfter(e) > now && e.s <= now + 64 * this.o.windowMs);
      live.sort((x, y) => this.freeAfter(y) - this.freeAfter(x));
      entries.splice(0, entries.length, ...live);
      if (live.length >= this.o.max) {
        const blocking = live.slice(0, this.o.max);
        const wait = this.freeAfter(blocking[this.o.max - 1]) - now;
        out = blocking.some((e) => e.a === undefined) ? Math.min(wait, POLL_MS) : wait;
        return false;
      }
      const cold = now - this.lastAnswer > WARM_FOR_MS;
      const e: Entry = { id: `${this.me}-${++this.seq}`, s: now, ...(cold ? { cold: 1 as const } : {}) };
      entries.push(e);
      out = { id: e.id };
      return true;
    }, signal).catch((e: unknown) => {
      if (signal?.aborted) throw e;
      return this.goAlone(e);
    });
    return ok === undefined ? undefined : out;
  }

  /**
   * Runs `change` on the entries under the lock and writes them back when they changed. Throws
   * what stops the budget from being shared.
   */
  private async underLock(change: (entries: Entry[]) => boolean, signal?: AbortSignal): Promise<boolean> {
    try {
      fs.mkdirSync(this.o.dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new Error(`cannot create ${this.o.dir}: ${reason(e)}`);
    }
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      let held: boolean;
      try {
        held = takeLock(this.lock);
      } catch (e) {
        throw new Error(`cannot write ${this.lock}: ${reason(e)}`);
      }
      if (held) {
        try {
          const entries = readEntries(this.file);
          const before = JSON.stringify(entries);
          const result = change(entries);
          if (JSON.stringify(entries) !== before) writeEntries(this.file, entries);
          return result;
        } catch (e) {
          throw new Error(`cannot write ${this.file}: ${reason(e)}`);
        } finally {
          releaseLock(this.lock);
        }
      }
      if (Date.now() > deadline) throw new Error(`${this.lock} stayed locked for ${LOCK_WAIT_MS / 1000} s`);
      // Real time, not the injected clock: the lock is about other processes.
      await systemClock.sleep(1 + Math.random() * 4, signal);
    }
  }

  private goAlone(e: unknown): undefined {
    this.alone = new SlidingWindowLimiter(this.o.max, this.o.windowMs, this.o.clock, this.margin);
    this.o.warn?.(`The rate budget is not shared with other mailctl processes (${(e as Error).message}); this process paces itself alone, so runs in parallel on the same key may meet "too many requests" and wait.`);
    return undefined;
  }
}

function reason(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);
}

function readEntries(file: string): Entry[] {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | NOFOLLOW);
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  try {
    const v = JSON.parse(text) as { entries?: unknown };
    if (!Array.isArray(v?.entries)) return [];
    return v.entries.filter((e): e is Entry => Number.isFinite(e?.s) && typeof e.id === 'string' && (e.a === undefined || Number.isFinite(e.a)));
  } catch {
    return []; // damaged (a crash mid-write on a file system without atomic rename): start afresh
  }
}

/** Written beside and renamed in; only the lock holder writes, so one fixed temporary name serves. */
function writeEntries(file: string, entries: Entry[]): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | NOFOLLOW, FILE_MODE);
  try {
    fs.writeSync(fd, JSON.stringify({ entries }));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}
