// Times from the services, as each output shows them: ISO 8601 in UTC for scripts and
// spreadsheets (TSV, CSV), and on a terminal the reader's own: relative in a table ("3 hours
// ago"), local date and time with the relative one in a record ("2026-11-28 21:03 +08:00 (3 hours
// ago)"). What the services send is read by declaration: ISO 8601 (spec 000: "Timestamps are ISO
// 8601 in UTC unless stated", so one without an offset is UTC) and endpoint 15's
// "yyyy/MM/dd HH:mm:ss" (UTC). Anything else is shown as it came, never guessed at: Date.parse
// would read "2026/11/28 21:03:31" in the machine's own zone.

const ISO = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;
const SLASHED = /^(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)$/;

/** A service's time as epoch milliseconds, or undefined when it is in no form the services document. */
export function readServiceTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  const iso = ISO.exec(s);
  const m = iso ?? SLASHED.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', sec = '0'] = m.slice(1, 7);
  const frac = iso?.[7];
  const zone = iso?.[8];
  const parts = [+y, +mo, +d, +h, +mi, +sec];
  if (parts[1] < 1 || parts[1] > 12 || parts[2] < 1 || parts[3] > 23 || parts[4] > 59 || parts[5] > 60) return undefined;
  let t = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
  // The calendar must not roll over (February 30 is no date).
  if (new Date(t).getUTCDate() !== parts[2]) return undefined;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.replace(/[^0-9]/g, '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return t;
}

/** UTC ISO 8601, milliseconds only when there are some: 2026-11-28T21:03:31Z. */
export function isoUtc(t: number): string {
  return new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

/** "3 hours ago", "in 2 days"; past a month, the local date (2026-01-05). */
export function relativeTime(t: number, now: number, timeZone?: string): string {
  const s = Math.round((now - t) / 1000);
  const a = Math.abs(s);
  if (a >= 86_400 * 30) return localParts(t, timeZone).date;
  if (a < 5) return 'just now';
  const [n, unit] = a < 60 ? [a, 'second'] : a < 3600 ? [Math.floor(a / 60), 'minute'] : a < 86_400 ? [Math.floor(a / 3600), 'hour'] : [Math.floor(a / 86_400), 'day'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return s < 0 ? `in ${text}` : `${text} ago`;
}

/** "2026-11-28 21:03 +08:00 (3 hours ago)": the reader's local time, and how far it is. */
export function localTime(t: number, now: number, timeZone?: string): string {
  const p = localParts(t, timeZone);
  const rel = relativeTime(t, now, timeZone);
  return `${p.date} ${p.time} ${p.offset}${rel === p.date ? '' : ` (${rel})`}`;
}

/** "21:03:05" local for a time of today, "2026-11-27 21:03:05" for another day: a line per event. */
export function localStamp(t: number, now: number, timeZone?: string): string {
  const p = localParts(t, timeZone, true);
  return p.date === localParts(now, timeZone, true).date ? p.time : `${p.date} ${p.time}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function localParts(t: number, timeZone: string | undefined, seconds = false): { date: string; time: string; offset: string } {
  const key = `${timeZone ?? ''}|${seconds}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
      ...(seconds ? { second: '2-digit' } : {}), timeZoneName: 'longOffset',
    });
    formats.set(key, f);
  }
  const parts = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace(/^GMT/, '');
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ''}`, offset };
}

/** The zone the run's environment names (TZ), when Intl knows it; otherwise the machine's. */
export function zoneOf(tz: string | undefined): string | undefined {
  if (!tz) return undefined;
  const name = tz.startsWith(':') ? tz.slice(1) : tz;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}
