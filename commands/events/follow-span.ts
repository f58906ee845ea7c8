// How long `events tail` follows and how often it looks, read one way with or without --history:
// --since already past, --until still to come (or --for; not both), --interval no shorter than
// the source allows. Bad flags are a UsageError before anything is read.
import { UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import type { TimeRange } from '../../src/core/date.js';
import type { Clock } from '../../src/core/clock.js';

export interface FollowFlags {
  since?: string;
  until?: string;
  for?: string;
  interval?: string;
}

/** Default time between reads. */
const DEFAULT_INTERVAL_MS = 5000;

/**
 * The interval and the time to stop (Infinity: until Ctrl-C) for `range` (parsed from the same
 * flags). `minIntervalMs` and `why` say how short an interval the source takes, and why.
 */
export function followSpan(range: TimeRange, opts: FollowFlags, now: number, min: { intervalMs: number; why: string }): { interval: number; stopAt: number } {
  if (range.since !== undefined && range.since > now) throw new UsageError(`${range.sinceFlag} "${opts.since}" is in the future; give a time already past, such as 10m.`);
  if (range.until !== undefined && opts.for !== undefined) throw new UsageError(`${range.untilFlag} and --for both say when to stop; give one of them.`);
  if (range.until !== undefined && range.until <= now) throw new UsageError(`${range.untilFlag} "${opts.until}" has already passed; give a later time, or --for a duration.`);
  const interval = opts.interval === undefined ? DEFAULT_INTERVAL_MS : parseDuration(opts.interval, '--interval', { positive: true });
  if (interval < min.intervalMs) throw new UsageError(`--interval must be at least ${min.intervalMs / 1000}s${min.why}; got "${opts.interval}".`);
  const stopAt = range.until ?? (opts.for === undefined ? Infinity : now + parseDuration(opts.for, '--for', { positive: true }));
  return { interval, stopAt };
}

/**
 * The pause between reads, cut short at the stop. False when following is over: the stop is
 * reached, or Ctrl-C came during the pause (the normal way to stop following).
 */
export async function pauseUntilNext(clock: Clock, signal: AbortSignal, interval: number, stopAt: number): Promise<boolean> {
  const left = stopAt - clock.now();
  if (left <= 0) return false;
  try {
    await clock.sleep(Math.min(interval, left), signal);
    return true;
  } catch {
    return false;
  }
}

/** The last line on a terminal. */
export function stoppedLine(shown: number, asDocument: boolean): string {
  return `Stopped following; ${shown} event${shown === 1 ? '' : 's'} ${asDocument ? 'in the document' : 'shown'}.`;
}
