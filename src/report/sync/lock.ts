// One run per sync directory: the lock file of src/fs/lock-file.ts in the directory, naming its
// holder (host, pid, start). The holder touches it every minute. A lock never blocks when its
// holder is gone: on this host a pid that no longer runs, anywhere a lock not touched for an
// hour (a crashed run on another host, or a pid reused since).
import path from 'node:path';
import type { Context } from '../../run/context.js';
import { CliError, ExitCode, InterruptedError } from '../../core/errors.js';
import { lockHolder, takeLock, type HeldLock, type LockHolder } from '../../fs/lock-file.js';
import { forTerminal } from '../../core/sanitize.js';
import { DiskError } from '../../fs/append-whole.js';

export const LOCK_FILE = '.mailctl-sync.lock';
const HEARTBEAT_MS = 60_000;
export const LOCK_STALE_MS = 60 * 60_000;

export interface Lock extends HeldLock {
  /** How long the lock was waited for. */
  waitedMs: number;
}

/** Takes the directory's lock, waiting up to `waitMs` (0: not at all) for another run to end. */
export async function acquireLock(ctx: Context, dir: string, waitMs: number, waitFlag: string): Promise<Lock> {
  const file = path.join(dir, LOCK_FILE);
  const start = ctx.clock.now();
  const about = { startedAt: new Date(start).toISOString() };
  const deadline = start + waitMs;
  let told = false;
  for (;;) {
    const held = take(file, about);
    if (held) return { release: () => held.release(), waitedMs: ctx.clock.now() - start };
    const holder = lockHolder(file);
    if (holder === 'gone') continue; // released just now: take it
    const who = describe(holder);
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

function take(file: string, about: Record<string, string>): HeldLock | undefined {
  try {
    return takeLock(file, { staleMs: LOCK_STALE_MS, heartbeatMs: HEARTBEAT_MS, about });
  } catch (e) {
    if (e instanceof DiskError) throw e; // nothing done yet: main's hint is this same command, to run once there is room
    throw new CliError(`Cannot create the lock file ${file}: ${(e as Error).message}.`, ExitCode.FAILED, 'Check that the directory is writable by this user.');
  }
}

/** The holder in words; the lock file may have been written by anyone: its words only through the sanitiser. */
function describe(h: LockHolder | undefined): string {
  if (!h) return 'a run whose lock file is unreadable';
  return forTerminal(`pid ${h.pid} on ${h.host}, started ${String(h.startedAt ?? 'at an unknown time')}`, 200);
}
