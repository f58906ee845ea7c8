// Dates for endpoint 14. The service treats a single date as an invalid range and silently
// answers with the 10 most recent campaigns instead, so a start alone runs to now and an end alone
// is refused. The dates themselves are read by the one strict parser (src/core/date.ts).
import { UsageError } from '../core/errors.js';
import { isoSeconds, parseTimeRange, type RangeFlags } from '../core/date.js';

export function reportRange(flags: RangeFlags, now: number): { startDate?: string; endDate?: string } {
  const r = parseTimeRange(flags, now);
  if (r.since === undefined && r.until !== undefined) {
    throw new UsageError(
      `${r.untilFlag} needs --since too: with only an end date the service ignores the range and returns the 10 most recent campaigns.`,
      'Give --since (a date or a span such as 30d) with it, or neither for the 10 most recent.',
    );
  }
  if (r.since === undefined) return {};
  // Endpoint 14 takes whole seconds: an end of "now" rounds up, so a campaign of this very second is in.
  const until = r.until ?? Math.ceil(now / 1000) * 1000;
  return { startDate: isoSeconds(r.since), endDate: isoSeconds(until) };
}
