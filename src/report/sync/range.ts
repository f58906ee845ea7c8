// Which finished campaigns a run looks at (endpoint 14 with both dates: "all finished campaigns
// in the range"). A new directory: the last 30 days. Afterwards: from where the last run's range
// ended, less a margin, so a campaign that began before that run and finished after it is still
// listed. --refresh-days widens the range to cover the campaigns it re-exports.
import { UsageError } from '../../core/errors.js';
import { isoSeconds, parseTimeRange, type RangeFlags } from '../../core/date.js';

export const DAY_MS = 86_400_000;
export const FIRST_RUN_MS = 30 * DAY_MS;
export const MARGIN_MS = 2 * DAY_MS;

export interface SyncRange {
  from: number;
  to: number;
  /** The range ends now (default or --since alone): its end becomes the new high-water mark. */
  movesHighWater: boolean;
  /** How it was chosen, for messages. */
  why: string;
}

export function syncRange(o: RangeFlags & { refreshDays?: number; highWater?: string; now: number }): SyncRange {
  // Endpoint 14 takes whole seconds: the end rounds up, so a campaign of this very second is in.
  const now = Math.ceil(o.now / 1000) * 1000;
  const t = parseTimeRange(o, now);
  let r: SyncRange;
  if (t.until !== undefined) {
    if (t.since === undefined) throw new UsageError(`${t.untilFlag} needs --since too (a back-fill is a range with both ends); give --since DATE, or neither for the usual run.`);
    r = { from: t.since, to: t.until, movesHighWater: false, why: `${t.sinceFlag} ${o.since} ${t.untilFlag} ${o.until}` };
  } else if (t.since !== undefined) {
    r = { from: t.since, to: now, movesHighWater: true, why: `${t.sinceFlag} ${o.since}` };
  } else {
    const hw = o.highWater ? Date.parse(o.highWater) : NaN;
    r = Number.isNaN(hw)
      ? { from: now - FIRST_RUN_MS, to: now, movesHighWater: true, why: 'first run: the last 30 days' }
      : { from: Math.min(hw, now) - MARGIN_MS, to: now, movesHighWater: true, why: 'since the last run, less 2 days' };
  }
  if (o.refreshDays) r.from = Math.min(r.from, now - o.refreshDays * DAY_MS);
  return r;
}

export function parseRefreshDays(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = Number(v.trim());
  if (!/^\d+$/.test(v.trim()) || n > 3650) throw new UsageError(`--refresh-days takes a whole number of days (0 to 3650); got "${v}".`);
  return n;
}

/** ISO 8601 in UTC without milliseconds, as endpoint 14 takes it. */
export const isoSecond = isoSeconds;
