// One run per sync directory. The lock is a file created exclusively (O_EXCL) in the directory,
// naming its holder (host, pid, start). The holder touches it every minute. A lock never blocks
// when its holder is gone: on this host a pid that no longer runs, anywhere a lock not touched
// for an hour (a crashed run on another host, or a pid reused since).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, InterruptedError } from '../../cli/errors.js';
import { PRIVATE_FILE_MODE } from '../../fs/safe-write.js';
import { forTerminal } from '../../output/sanitize.js';

export const LOCK_FILE = '.mailctl-sync.lock';
const HEARTBEAT_MS = 60_000;
export const LOCK_STALE_MS = 60 * 60_000;

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

export interface Lock {
  release(): void;
  /** How long the lock was waited for. */
  waitedMs: number;
}

/** Takes the directory's lock, waiting up to `waitMs` (0: not at all) for another run to end. */
export async function acquireLock(ctx: Context, dir: string, waitMs: number, waitFlag: string): Promise<Lock> {
  const file = path.join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: os.hostname(), startedAt: new Date(ctx.clock.now()).toISOString(), token: randomBytes(8).toString('hex') };
  const start = ctx.clock.now();
  const deadline = start + waitMs;
  let told = false;
  for (;;) {
    if (tryCreate(file, me)) return { ...held(file, me), waitedMs: ctx.clock.now() - start };
    const holder = readHolder(file);
    if (holder === 'gone') continue;
    if (isStale(file, holder)) {
      takeOver(file, holder);
      continue;
    }
    // The lock file may have been written by anyone: its words only through the sanitiser.
    const who = holder ? forTerminal(`pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}`, 200) : 'a run whose lock file is unreadable';
    if (ctx.clock.now() >= deadline) {
      throw new CliError(
        waitMs ? `${dir} was still locked by another report sync (${who}) after waiting ${Math.round(waitMs / 1000)} s.` : `Another report sync is working on ${dir} (${who}).`,
        ExitCode.LOCKED,
        waitMs ? 'Give it longer with --wait-lock, or check that run.' : `Nothing was done. Pass ${waitFlag} to wait for it, or let the next scheduled run pick up the work.`,
        { code: 'LOCKED', reached: 'no', refused: false, retryable: true },
      );
    }
    // For a person watching; a log (no terminal) or --json gets the wait in the run's summary.
    if (!told && ctx.io.stderrTTY && !ctx.io.json) ctx.io.info(`Waiting for another report sync to finish with ${dir} (${who})…`);
    told = true;
    await ctx.clock.sleep(Math.min(1000, Math.max(1, deadline - ctx.clock.now())), ctx.signal).catch(() => {
      throw new InterruptedError(`Stopped waiting for the lock of ${dir}; nothing was done.`);
    });
  }
}

function tryCreate(file: string, me: Holder): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new CliError(`Cannot create the lock file ${file}: ${(e as Error).message}.`, ExitCode.FAILED, 'Check that the directory is writable by this user.');
  }
  try {
    fs.writeSync(fd, JSON.stringify(me) + '\n');
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** The holder, undefined when the file cannot be understood (judged by its age only), 'gone' when it vanished. */
function readHolder(file: string): Holder | undefined | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isInteger(h.pid) && typeof h.host === 'string' && typeof h.token === 'string' ? h : undefined;
  } catch {
    return undefined; // being written this very moment, or damaged: its age decides
  }
}

function isStale(file: string, h: Holder | undefined): boolean {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return false; // vanished: the next round creates it
  if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return true;
  if (!h || h.host !== os.hostname()) return false;
  return !alive(h.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}

/**
 * Moves a stale lock aside (rename is atomic: of two runs doing this, one wins) and checks that
 * what was moved is the lock judged stale; if a live run's lock was moved instead, it is put back.
 */
function takeOver(file: string, stale: Holder | undefined): void {
  const aside = `${file}.${randomBytes(6).toString('hex')}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = readHolder(aside);
  const same = stale === undefined ? moved === undefined : moved !== undefined && moved !== 'gone' && moved.token === stale.token;
  if (!same) {
    try {
      fs.linkSync(aside, file); // never over a lock created meanwhile
    } catch {
      /* a newer lock is in place: it wins */
    }
  }
  fs.rmSync(aside, { force: true });
}

function held(file: string, me: Holder): Omit<Lock, 'waitedMs'> {
  const beat = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(file, now, now);
    } catch {
      /* gone: release() copes */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    release() {
      clearInterval(beat);
      const h = readHolder(file);
      if (h && h !== 'gone' && h.token === me.token) fs.rmSync(file, { force: true });
    },
  };
}
