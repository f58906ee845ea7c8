// `--at "2026-12-01 09:00" --timezone Asia/Taipei` → the spec's schedule: a time zone code and
// the UTC ISO 8601 `scheduleDate` (decisions rows 10 and 11). A time in the past is refused here,
// before anything is sent, since the service would only answer 40019.
import { offsetLabel, resolveTimeZone, zonedToUtc, type ResolvedZone } from '../spec/timezones.js';
import { calendarProblem, isoSeconds, parseTime } from '../core/date.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

export interface Schedule {
  timezone: number;
  /** UTC, ISO 8601 without milliseconds. */
  scheduleDate: string;
  /** For messages: "2026-12-01 09:00 TAIPEI (+08:00)". */
  label: string;
  zone: ResolvedZone;
  /** The wall time happened twice (end of DST); the earlier one was taken. */
  ambiguous?: boolean;
}

const WALL = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;
// A time followed by Z or an offset: an instant, read by the shared date parser (src/core/date.ts).
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

export { isoSeconds };

/**
 * One sentence on failure. `at` is a wall-clock time in the zone, or an absolute time with Z or
 * an offset (then the zone only names the code; GMT when none is given).
 */
export function parseSchedule(at: string, timezone: string | undefined, now: number, cmd: Suggest = plainSuggest): Schedule | Error {
  const text = at.trim();
  const absolute = ABSOLUTE.test(text);
  if (!absolute && !WALL.test(text)) {
    return new Error(`--at "${at}" is not a date and time; write it as "YYYY-MM-DD HH:MM" (for example "2026-12-01 09:00") in the --timezone zone.`);
  }
  if (!timezone && !absolute) {
    return new Error(`--at needs a time zone: pass --timezone (e.g. Asia/Taipei or TAIPEI) or set a default with \`${cmd('config', 'set', 'timezone', 'Asia/Taipei')}\`.`);
  }
  const zone = resolveTimeZone(timezone ?? 'GMT');
  if (zone instanceof Error) return zone;
  let utc: number;
  let ambiguous = false;
  if (absolute) {
    try {
      utc = parseTime(text, '--at', now, { spans: false, zoneRequired: true });
    } catch (e) {
      return e as Error;
    }
  } else {
    const m = WALL.exec(text)!;
    const [year, month, day, hour, minute, second] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
    // The calendar check is the shared one; the zone arithmetic (DST gaps and repeats) stays here.
    const problem = calendarProblem({ year, month, day, hour, minute, second });
    if (problem) return new Error(`--at "${at}" is not a real date and time (${problem}); write it as "YYYY-MM-DD HH:MM" in the --timezone zone.`);
    const r = zonedToUtc({ year, month, day, hour, minute, second }, zone.zone);
    if ('gap' in r) {
      return new Error(`${text} does not exist in ${zone.zone}: the clocks skip that hour for daylight saving time that night; choose a time outside the skipped hour.`);
    }
    utc = r.utc;
    ambiguous = r.ambiguous;
  }
  if (utc <= now) {
    return new Error(`The schedule time ${text}${absolute ? '' : ` ${zone.city}`} (${isoSeconds(utc)} UTC) is in the past; give a later --at time.`);
  }
  const local = absolute ? isoSeconds(utc) : text;
  return {
    timezone: zone.code,
    scheduleDate: isoSeconds(utc),
    label: `${local} ${zone.city} (UTC${offsetLabel(zone.zone, utc)})`,
    zone,
    ambiguous,
  };
}
