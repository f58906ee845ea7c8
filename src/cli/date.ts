// The one parser for every date and time flag (--since/--until and their old spellings
// --from/--to, --at with a zone, a campaign file's scheduleDate). It never lets the calendar
// roll over: JavaScript's Date turns February 30 into March 2 without a word, and a query for the
// wrong days is worse than a refusal. Relative spans ("7d", "12h") go through the one duration
// parser. Everything here throws a UsageError (exit 2) before any request is made.
import { UsageError } from './errors.js';
import { DURATION_UNITS, parseDuration } from './duration.js';

/**
 * Years a date may name. Before 2000 is a typo for these services; 2999 is far beyond any real
 * schedule but is where the campaign wizard probes a time zone (src/campaign/wizard.ts).
 */
export const YEARS = { min: 2000, max: 2999 } as const;
/** The furthest a relative span reaches back: ten years. */
export const MAX_SPAN_MS = 3650 * 86_400_000;

export const TIME_FORMS = 'a date such as 2026-05-01, a time such as 2026-05-01T08:00Z (UTC unless an offset such as +08:00 is given), or a span back from now such as 7d or 12h';
const INSTANT_FORMS = 'an ISO 8601 date and time with Z or an offset, such as 2026-12-01T01:00:00Z';

// Date, then optionally time (T or a space), seconds, fraction and zone (Z, ±HH, ±HHMM, ±HH:MM).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// Spans take days, hours, minutes and seconds; a bare number would be ambiguous here.
const SPAN_UNITS = { d: DURATION_UNITS.d, h: DURATION_UNITS.h, m: DURATION_UNITS.m, s: DURATION_UNITS.s };

export interface CalendarParts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Why these parts are not a real date and time within YEARS, or undefined when they are. */
export function calendarProblem(p: CalendarParts): string | undefined {
  if (p.year < YEARS.min || p.year > YEARS.max) return `the year must be from ${YEARS.min} to ${YEARS.max}`;
  if (p.month < 1 || p.month > 12) return `there is no month ${p.month}`;
  const days = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
  if (p.day < 1 || p.day > days) return `${MONTHS[p.month - 1]} ${p.year} has ${days} days`;
  if ((p.hour ?? 0) > 23) return `there is no hour ${p.hour} (0 to 23)`;
  if ((p.minute ?? 0) > 59) return `there is no minute ${p.minute} (0 to 59)`;
  if ((p.second ?? 0) > 59) return `there is no second ${p.second} (0 to 59)`;
  return undefined;
}

export interface TimeRules {
  /** A date alone means the last second of that day (the end of a range). */
  endOfDay?: boolean;
  /** Relative spans back from now are accepted (default true). */
  spans?: boolean;
  /** A zone (Z or an offset) is required: the value is an instant, not a wall time. */
  zoneRequired?: boolean;
}

/** A date, a date-time or a span back from now → ms since the epoch, checked against the calendar. */
export function parseTime(value: string, flag: string, now: number, o: TimeRules = {}): number {
  const text = value.trim();
  const forms = o.zoneRequired ? INSTANT_FORMS : TIME_FORMS;
  const refuse = (why: string): never => {
    throw new UsageError(`${flag} "${value}" ${why}; give ${forms}.`);
  };
  if (o.spans !== false && /^\d/.test(text) && !/^\d{4}-/.test(text)) {
    const ms = parseDuration(text, flag, { units: SPAN_UNITS, bareSeconds: false, examples: '7d, 12h or 30m (or a date such as 2026-05-01)' });
    if (ms > MAX_SPAN_MS) refuse(`reaches back more than ${MAX_SPAN_MS / 86_400_000} days`);
    return now - ms;
  }
  const m = ISO.exec(text.toLowerCase());
  if (!m) return refuse('is not a date or time mailctl reads');
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x)));
  const fraction = m[7];
  const zone = m[8];
  const problem = calendarProblem({ year: year!, month: month!, day: day!, hour, minute, second });
  if (problem) refuse(`is not a real date and time (${problem})`);
  if (o.zoneRequired && !zone) refuse('has no time zone');
  let offsetMs = 0;
  if (zone && zone !== 'z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const [h, min] = [Number(z[2]), Number(z[3] ?? 0)];
    if (h > 14 || min > 59) refuse(`has an offset (${zone}) no place on Earth uses`);
    offsetMs = (z[1] === '-' ? -1 : 1) * (h * 60 + min) * 60_000;
  }
  const ms = fraction === undefined ? 0 : Number(`0.${fraction}`) * 1000;
  let t = Date.UTC(year!, month! - 1, day!, hour ?? 0, minute ?? 0, second ?? 0, Math.floor(ms)) - offsetMs;
  if (hour === undefined && o.endOfDay) t += 86_400_000 - 1000;
  return t;
}

/** UTC ISO 8601 without milliseconds, as both services take times. */
export function isoSeconds(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface RangeFlags {
  since?: string;
  until?: string;
  /** The old spellings, still read. */
  from?: string;
  to?: string;
}

export interface TimeRange {
  since?: number;
  until?: number;
  /** The flags as the user typed them, for messages. */
  sinceFlag: string;
  untilFlag: string;
}

/**
 * --since/--until (or the old --from/--to): both optional, each checked, the start not after the
 * end. A date alone for --until means to the end of that day.
 */
export function parseTimeRange(f: RangeFlags, now: number): TimeRange {
  if (f.since !== undefined && f.from !== undefined) throw new UsageError('--from is the old spelling of --since; give one of them.');
  if (f.until !== undefined && f.to !== undefined) throw new UsageError('--to is the old spelling of --until; give one of them.');
  const sinceFlag = f.from !== undefined ? '--from' : '--since';
  const untilFlag = f.to !== undefined ? '--to' : '--until';
  const sinceText = f.since ?? f.from;
  const untilText = f.until ?? f.to;
  const since = sinceText === undefined ? undefined : parseTime(sinceText, sinceFlag, now);
  const until = untilText === undefined ? undefined : parseTime(untilText, untilFlag, now, { endOfDay: true });
  if (since !== undefined && until !== undefined && since > until) {
    throw new UsageError(`${sinceFlag} (${isoSeconds(since)}) is later than ${untilFlag} (${isoSeconds(until)}); swap them.`);
  }
  return { since, until, sinceFlag, untilFlag };
}
