// Dates for endpoint 14: both or neither. The service treats a single date as an invalid range
// and silently answers with the 10 most recent campaigns instead, so one date alone is refused.
import { UsageError } from '../cli/errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (start or end of that UTC day) or an ISO date-time → UTC ISO 8601. */
export function reportDate(v: string, flag: string, endOfDay: boolean): string {
  const text = v.trim();
  const ms = DATE_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) + (endOfDay ? 86_400_000 - 1000 : 0) : /T/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`${flag} "${v}" is not a date; write it as YYYY-MM-DD (a UTC day) or an ISO 8601 date-time such as 2026-11-01T00:00:00Z.`);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function reportRange(from: string | undefined, to: string | undefined): { startDate?: string; endDate?: string } {
  if ((from === undefined) !== (to === undefined)) {
    const given = from !== undefined ? '--from' : '--to';
    const other = from !== undefined ? '--to' : '--from';
    throw new UsageError(
      `${given} needs ${other} too: with only one date the service ignores the range and returns the 10 most recent campaigns.`,
      'Give both --from and --to, or neither for the 10 most recent.',
    );
  }
  if (from === undefined || to === undefined) return {};
  const startDate = reportDate(from, '--from', false);
  const endDate = reportDate(to, '--to', true);
  if (Date.parse(startDate) > Date.parse(endDate)) throw new UsageError(`--from (${startDate}) is after --to (${endDate}); swap them.`);
  return { startDate, endDate };
}
