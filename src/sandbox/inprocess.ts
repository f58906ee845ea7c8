// --sandbox: the emulator runs inside this process, behind a fetch function, with its state
// kept under MAILCTL_CONFIG_DIR/sandbox so multi-step flows work across invocations with no
// server and no network. Requests to any other host go to the real fetch (e.g. a local
// webhook listener).
//
// Several processes may use one config directory at once (`events tail --sandbox` in one
// terminal, `send --sandbox` in another). So each request is handled under a lock file beside
// state.json (src/fs/lock-file.ts, the rate budget's lock too), and first reads state.json again
// when another process changed it since this one last read or wrote it: read, change and write
// all happen under the lock, so no process writes back a state older than another's change.
// The lock is held for the whole request (a request's body may be read in between), kept fresh
// while held; a holder that died leaves it to the next process at once (its pid is gone), one
// that hangs after LOCK_STALE_MS. Within one process the requests on one folder take turns
// before they try the lock file (tests run several commands in one process), so a request
// never waits on the lock of a request of its own process that is waiting behind it.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { systemClock, type Clock } from '../core/clock.js';
import { takeLock, type HeldLock } from '../fs/lock-file.js';
import { writeFileAtomicSync } from '../fs/safe-write.js';
import { asDiskError, DiskError } from '../fs/disk-error.js';
import { AuthError } from '../core/errors.js';
import { SANDBOX_BASE } from './constants.js';
import { Sandbox, type RawRequest, type SbOutcome } from './sandbox.js';
import type { SandboxState } from './types.js';

/** A lock not refreshed for this long belongs to a hung process: taken over. */
const LOCK_STALE_MS = 5000;
/** How often a holder refreshes its lock while a request is under way. */
const HEARTBEAT_MS = 500;

export function sandboxDir(configDir: string): string {
  return path.join(configDir, 'sandbox');
}

/** This process's requests on one sandbox folder, one at a time. */
const turns = new Map<string, Promise<unknown>>();

function inTurn<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = turns.get(dir) ?? Promise.resolve();
  const mine = before.then(fn, fn);
  const settled = mine.catch(() => {});
  turns.set(dir, settled);
  void settled.then(() => {
    if (turns.get(dir) === settled) turns.delete(dir);
  });
  return mine;
}

/** Which version of the file is there: a rename puts a new file in place, so any write changes this. */
function identity(file: string): string | undefined {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}

function readState(file: string): { state?: SandboxState; text?: string } {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const parsed = JSON.parse(text);
    return parsed?.version === 1 ? { state: parsed, text } : {};
  } catch {
    return {}; // first run, or unreadable: start fresh
  }
}

/**
 * A private temporary file beside `file`, written whole and renamed over it (src/fs/safe-write.ts):
 * readers see the old state or the new, never half, and a disk that takes only part of it is a
 * DiskError naming state.json, with the old state left in place.
 */
function writeState(file: string, text: string): void {
  writeFileAtomicSync(file, text);
}

async function acquire(lock: string, signal: AbortSignal): Promise<HeldLock> {
  // No deadline of its own: a live holder keeps the lock only for one request, and the
  // request's own time-out (or Ctrl-C) ends the wait.
  for (;;) {
    const held = takeLock(lock, { staleMs: LOCK_STALE_MS, heartbeatMs: HEARTBEAT_MS });
    if (held) return held;
    signal.throwIfAborted();
    // Real time, not the run's clock: the lock is about other processes.
    await systemClock.sleep(1 + Math.random() * 4, signal);
  }
}

/** The sandbox of one config directory, shared with the other processes that use it. */
export class SharedSandbox {
  private sandbox?: Sandbox;
  /** The identity of state.json when this process last read or wrote it. */
  private seen?: string;
  /** What that version holds, so a request that changed nothing writes nothing. */
  private text?: string;
  private readonly file: string;
  private readonly lock: string;

  constructor(private readonly dir: string, private readonly clock?: Clock) {
    this.file = path.join(dir, 'state.json');
    this.lock = path.join(dir, 'state.lock');
  }

  /** One request, handled on the newest state under the lock; the change is saved before the lock goes. */
  handle(raw: RawRequest, signal: AbortSignal): Promise<SbOutcome> {
    return inTurn(this.dir, async () => {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const held = await acquire(this.lock, signal);
      try {
        return await this.current().handle(raw);
      } finally {
        held.release();
      }
    });
  }

  /** Waits for webhook deliveries in flight (they run after the request, outside the lock). */
  async settle(): Promise<void> {
    await this.sandbox?.settle();
  }

  /** The emulator on the state in the file now (read again only when another process changed it). */
  private current(): Sandbox {
    const id = identity(this.file);
    if (this.sandbox && id === this.seen) return this.sandbox;
    const { state, text } = readState(this.file);
    if (!this.sandbox) {
      this.sandbox = new Sandbox({ publicBase: SANDBOX_BASE, dataDir: this.dir, clock: this.clock }, state);
      this.sandbox.onChange = (s) => this.save(s);
    } else {
      // Changed by another process, or gone (`sandbox reset`: start afresh, as a new run would).
      fs.mkdirSync(path.join(this.dir, 'files'), { recursive: true });
      this.sandbox.state = state ?? this.sandbox.initialState();
    }
    this.seen = id;
    this.text = text;
    return this.sandbox;
  }

  private save(s: SandboxState): void {
    const text = JSON.stringify(s);
    if (text === this.text) return;
    writeState(this.file, text);
    this.text = text;
    this.seen = identity(this.file);
  }
}

/**
 * The sandbox's own files failing (a read-only or full disk, a folder it may not write) are this
 * machine's problem, said as one, never a network error: the API client would otherwise read the
 * errno as a connection that broke, retry it and say "Cannot reach the campaign service".
 */
function localFailure(e: unknown, dir: string): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return e;
  const disk = asDiskError(e, dir);
  if (disk instanceof DiskError) return disk;
  return new AuthError(`The built-in sandbox keeps its state in ${dir}, which cannot be used (${(e as Error).message}).`, 'Point MAILCTL_CONFIG_DIR at a folder you can write, or fix the permissions of that one.');
}

export function inProcessSandboxFetch(configDir: string, clock?: Clock): typeof fetch {
  let shared: SharedSandbox | undefined;
  const sandboxFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    // Names below the sandbox's own (links.sandbox.mailctl.invalid) are its link targets' "other host".
    const home = new URL(SANDBOX_BASE);
    if (url.origin !== home.origin && !(url.protocol === home.protocol && url.hostname.endsWith(`.${home.hostname}`))) return globalThis.fetch(request);
    shared ??= new SharedSandbox(sandboxDir(configDir), clock);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const body = request.body ? (Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) as AsyncIterable<Uint8Array>) : null;
    const out = await shared.handle({ method: request.method, url, headers, body }, request.signal).catch((e: unknown) => {
      throw localFailure(e, sandboxDir(configDir));
    });
    await shared.settle();
    if ('fault' in out) {
      if (out.fault === 'drop') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }));
    }
    const h = new Headers(out.headers);
    if (out.file) return new Response(Readable.toWeb(fs.createReadStream(out.file)) as ReadableStream, { status: out.status, headers: h });
    if (out.json !== undefined) {
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      return new Response(JSON.stringify(out.json), { status: out.status, headers: h });
    }
    return new Response(out.status === 204 ? null : out.body ?? '', { status: out.status, headers: h });
  };
  return sandboxFetch as typeof fetch;
}
