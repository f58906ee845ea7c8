// The one parser for every date and time a user gives (--since/--until, --at with a zone, a campaign file's scheduleDate, `webhook trigger --set
// …timestamp=ISO`), and the one calendar check (also for a contacts file's date-typed custom
// fields, in a looser form: src/import/header.ts). It never lets the calendar
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
const DATE_FORMS = 'a date such as 2026-05-01 or a time such as 2026-05-01T08:00Z (UTC unless an offset such as +08:00 is given)';
const INSTANT_FORMS = 'an ISO 8601 date and time with Z or an offset, such as 2026-12-01T01:00:00Z';

// Spans take days, hours, minutes and seconds; a bare number would be ambiguous here.
const SPAN_UNITS = { d: DURATION_UNITS.d, h: DURATION_UNITS.h, m: DURATION_UNITS.m, s: DURATION_UNITS.s };

/** The years a check accepts. */
export interface YearRange {
  min: number;
  max: number;
}

/** How a date may be written: the flags' form by default; a contacts file's custom fields are looser. */
export interface DateForm {
  /** Years accepted (default YEARS). */
  years?: YearRange;
  /** Also `/` between year, month and day, and one-digit months, days and hours, as spreadsheets write them. */
  loose?: boolean;
}

// Date, then optionally time (T or a space), seconds, fraction and zone (Z, ±HH, ±HHMM, ±HH:MM);
// matched against the lower-cased text.
const STRICT_DATE = dateForm(false);
const LOOSE_DATE = dateForm(true);
function dateForm(loose: boolean): RegExp {
  const sep = loose ? '[-/]' : '-';
  const two = loose ? '\\d{1,2}' : '\\d{2}';
  return new RegExp(`^(\\d{4})${sep}(${two})${sep}(${two})(?:[t ](${two}):(\\d{2})(?::(\\d{2})(?:\\.(\\d+))?)?(z|[+-]\\d{2}(?::?\\d{2})?)?)?$`);
}

export interface CalendarParts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Days in a month of the Gregorian calendar (not Date's: it reads years 0-99 as 1900-1999). */
function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Why these parts are not a real date and time within `years` (default YEARS), or undefined when they are. */
export function calendarProblem(p: CalendarParts, years: YearRange = YEARS): string | undefined {
  if (p.year < years.min || p.year > years.max) return `the year must be from ${years.min} to ${years.max}`;
  if (p.month < 1 || p.month > 12) return `there is no month ${p.month}`;
  const days = daysIn(p.year, p.month);
  if (p.day < 1 || p.day > days) return `${MONTHS[p.month - 1]} ${p.year} has ${days} days`;
  if ((p.hour ?? 0) > 23) return `there is no hour ${p.hour} (0 to 23)`;
  if ((p.minute ?? 0) > 59) return `there is no minute ${p.minute} (0 to 59)`;
  if ((p.second ?? 0) > 59) return `there is no second ${p.second} (0 to 59)`;
  return undefined;
}

/** A date or date-time as written, checked against the calendar: its parts, or why it is not one. */
export type ReadDate =
  | { parts: CalendarParts; /** Fraction of a second, as digits. */ fraction?: string; /** Minutes east of UTC, when a zone is given. */ offsetMinutes?: number }
  | { problem: string; /** The text is not in the form at all (rather than an impossible date). */ form: boolean };

export function readDate(text: string, f: DateForm = {}): ReadDate {
  const m = (f.loose ? LOOSE_DATE : STRICT_DATE).exec(text.trim().toLowerCase());
  if (!m) return { problem: 'is not a date or time mailctl reads', form: true };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x)));
  const parts: CalendarParts = { year: year!, month: month!, day: day!, hour, minute, second };
  const problem = calendarProblem(parts, f.years);
  if (problem) return { problem: `is not a real date and time (${problem})`, form: false };
  const zone = m[8];
  let offsetMinutes: number | undefined;
  if (zone === 'z') offsetMinutes = 0;
  else if (zone) {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const [h, min] = [Number(z[2]), Number(z[3] ?? 0)];
    if (h > 14 || min > 59) return { problem: `has an offset (${zone}) no place on Earth uses`, form: false };
    offsetMinutes = (z[1] === '-' ? -1 : 1) * (h * 60 + min);
  }
  return { parts, fraction: m[7], offsetMinutes };
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
  const forms = o.zoneRequired ? INSTANT_FORMS : o.spans === false ? DATE_FORMS : TIME_FORMS;
  const refuse = (why: string): never => {
    throw new UsageError(`${flag} "${value}" ${why}; give ${forms}.`);
  };
  if (o.spans !== false && /^\d/.test(text) && !/^\d{4}-/.test(text)) {
    const ms = parseDuration(text, flag, { units: SPAN_UNITS, bareSeconds: false, examples: '7d, 12h or 30m (or a date such as 2026-05-01)' });
    if (ms > MAX_SPAN_MS) refuse(`reaches back more than ${MAX_SPAN_MS / 86_400_000} days`);
    return now - ms;
  }
  const d = readDate(text);
  if ('problem' in d) return refuse(d.problem);
  if (o.zoneRequired && d.offsetMinutes === undefined) refuse('has no time zone');
  const { year, month, day, hour, minute, second } = d.parts;
  const ms = d.fraction === undefined ? 0 : Number(`0.${d.fraction}`) * 1000;
  let t = Date.UTC(year, month - 1, day, hour ?? 0, minute ?? 0, second ?? 0, Math.floor(ms)) - (d.offsetMinutes ?? 0) * 60_000;
  if (hour === undefined && o.endOfDay) t += 86_400_000 - 1000;
  return t;
}

/** UTC ISO 8601 without milliseconds, as both services take times. */
export function isoSeconds(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * --since/--until as a command's options hold them. The declaration is commander's
 * (src/cli/range-options.ts, which checks its options have exactly this shape, so a flag renamed
 * there fails typecheck there); the type is spelled here so this parser depends on nothing.
 */
export interface RangeFlags {
  since?: string;
  until?: string;
}

export interface TimeRange {
  since?: number;
  until?: number;
  /** The flags, for messages (a time range has no other names: docs/flags.md). */
  sinceFlag: '--since';
  untilFlag: '--until';
}

/**
 * --since/--until: both optional, each checked, the start not after the end. A date alone for
 * --until means to the end of that day.
 */
export function parseTimeRange(f: RangeFlags, now: number): TimeRange {
  const sinceFlag = '--since';
  const untilFlag = '--until';
  const since = f.since === undefined ? undefined : parseTime(f.since, sinceFlag, now);
  const until = f.until === undefined ? undefined : parseTime(f.until, untilFlag, now, { endOfDay: true });
  if (since !== undefined && until !== undefined && since > until) {
    throw new UsageError(`${sinceFlag} (${isoSeconds(since)}) is later than ${untilFlag} (${isoSeconds(until)}); swap them.`);
  }
  return { since, until, sinceFlag, untilFlag };
}
