// Which finished campaigns a run looks at (endpoint 14 with both dates: "all finished campaigns
// in the range"). A new directory: the last 30 days. Afterwards: from where the last run's range
// ended, less a margin, so a campaign that began before that run and finished after it is still
// listed. --refresh-days widens the range to cover the campaigns it re-exports.
import { UsageError } from '../../cli/errors.js';
import { parseDuration } from '../../cli/duration.js';
import { reportDate, reportRange } from '../dates.js';

export const DAY_MS = 86_400_000;
export const FIRST_RUN_MS = 30 * DAY_MS;
export const MARGIN_MS = 2 * DAY_MS;

export interface SyncRange {
  from: number;
  to: number;
  /** The range ends now (default or --since): its end becomes the new high-water mark. */
  movesHighWater: boolean;
  /** How it was chosen, for messages. */
  why: string;
}

export function syncRange(o: { since?: string; from?: string; to?: string; refreshDays?: number; highWater?: string; now: number }): SyncRange {
  if (o.since !== undefined && (o.from !== undefined || o.to !== undefined)) {
    throw new UsageError('--since cannot be combined with --from/--to; give one or the other.');
  }
  // Endpoint 14 takes whole seconds: the end rounds up, so a campaign of this very second is in.
  const now = Math.ceil(o.now / 1000) * 1000;
  let r: SyncRange;
  if (o.from !== undefined || o.to !== undefined) {
    const { startDate, endDate } = reportRange(o.from, o.to);
    r = { from: Date.parse(startDate!), to: Date.parse(endDate!), movesHighWater: false, why: '--from/--to' };
  } else if (o.since !== undefined) {
    r = { from: now - parseDuration(o.since, '--since', { positive: true }), to: now, movesHighWater: true, why: `--since ${o.since}` };
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
export const isoSecond = (ms: number) => reportDate(new Date(ms).toISOString(), 'date', false);
