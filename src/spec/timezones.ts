// The campaign service's 88 time zone codes (spec section 2, `config.schedule.timezone`) and
// the mapping decisions row 11 asks for: users give an IANA zone (Asia/Taipei), a city name
// (TAIPEI, "new york") or the code itself, and get back the code plus a real IANA zone whose
// rules turn a wall-clock time into the UTC `scheduleDate`.

export interface TimeZoneCode {
  code: number;
  /** The spec's name, e.g. HO_CHI_MINH. */
  city: string;
  /** A representative IANA zone for the city. */
  iana: string;
}

// Spec section 2, in the spec's order (the index is the code).
const TABLE: Array<[string, string]> = [
  ['KIRITIMATI', 'Pacific/Kiritimati'], ['CHATHAM', 'Pacific/Chatham'], ['AUCKLAND', 'Pacific/Auckland'],
  ['ENDERBURY', 'Pacific/Enderbury'], ['TONGATAPU', 'Pacific/Tongatapu'], ['KAMCHATKA', 'Asia/Kamchatka'],
  ['FIJI', 'Pacific/Fiji'], ['LORD_HOWE', 'Australia/Lord_Howe'], ['SYDNEY', 'Australia/Sydney'],
  ['GUADALCANAL', 'Pacific/Guadalcanal'], ['NORFOLK', 'Pacific/Norfolk'], ['ADELAIDE', 'Australia/Adelaide'],
  ['BRISBANE', 'Australia/Brisbane'], ['DARWIN', 'Australia/Darwin'], ['SEOUL', 'Asia/Seoul'],
  ['TOKYO', 'Asia/Tokyo'], ['HONG_KONG', 'Asia/Hong_Kong'], ['KUALA_LUMPUR', 'Asia/Kuala_Lumpur'],
  ['MANILA', 'Asia/Manila'], ['SHANGHAI', 'Asia/Shanghai'], ['SINGAPORE', 'Asia/Singapore'],
  ['TAIPEI', 'Asia/Taipei'], ['PERTH', 'Australia/Perth'], ['BANGKOK', 'Asia/Bangkok'],
  ['HO_CHI_MINH', 'Asia/Ho_Chi_Minh'], ['JAKARTA', 'Asia/Jakarta'], ['RANGOON', 'Asia/Rangoon'],
  ['DHAKA', 'Asia/Dhaka'], ['KATHMANDU', 'Asia/Kathmandu'], ['COLOMBO', 'Asia/Colombo'],
  ['KOLKATA', 'Asia/Kolkata'], ['KARACHI', 'Asia/Karachi'], ['TASHKENT', 'Asia/Tashkent'],
  ['YEKATERINBURG', 'Asia/Yekaterinburg'], ['KABUL', 'Asia/Kabul'], ['TEHRAN', 'Asia/Tehran'],
  ['DUBAI', 'Asia/Dubai'], ['TBILISI', 'Asia/Tbilisi'], ['NAIROBI', 'Africa/Nairobi'],
  ['BAGHDAD', 'Asia/Baghdad'], ['JERUSALEM', 'Asia/Jerusalem'], ['KUWAIT', 'Asia/Kuwait'],
  ['RIYADH', 'Asia/Riyadh'], ['ATHENS', 'Europe/Athens'], ['BUCHAREST', 'Europe/Bucharest'],
  ['HELSINKI', 'Europe/Helsinki'], ['ISTANBUL', 'Europe/Istanbul'], ['MINSK', 'Europe/Minsk'],
  ['MOSCOW', 'Europe/Moscow'], ['CAIRO', 'Africa/Cairo'], ['JOHANNESBURG', 'Africa/Johannesburg'],
  ['AMSTERDAM', 'Europe/Amsterdam'], ['BERLIN', 'Europe/Berlin'], ['BRUSSELS', 'Europe/Brussels'],
  ['PARIS', 'Europe/Paris'], ['PRAGUE', 'Europe/Prague'], ['ROME', 'Europe/Rome'],
  ['ALGIERS', 'Africa/Algiers'], ['DUBLIN', 'Europe/Dublin'], ['LISBON', 'Europe/Lisbon'],
  ['LONDON', 'Europe/London'], ['GMT', 'Etc/GMT'], ['CAPE_VERDE', 'Atlantic/Cape_Verde'],
  ['SOUTH_GEORGIA', 'Atlantic/South_Georgia'], ['ST_JOHNS', 'America/St_Johns'], ['BUENOS_AIRES', 'America/Argentina/Buenos_Aires'],
  ['HALIFAX', 'America/Halifax'], ['SANTIAGO', 'America/Santiago'], ['SAO_PAULO', 'America/Sao_Paulo'],
  ['BERMUDA', 'Atlantic/Bermuda'], ['CARACAS', 'America/Caracas'], ['INDIANAPOLIS', 'America/Indiana/Indianapolis'],
  ['NEW_YORK', 'America/New_York'], ['PUERTO_RICO', 'America/Puerto_Rico'], ['BOGOTA', 'America/Bogota'],
  ['CHICAGO', 'America/Chicago'], ['LIMA', 'America/Lima'], ['PANAMA', 'America/Panama'],
  ['DENVER', 'America/Denver'], ['EL_SALVADOR', 'America/El_Salvador'], ['MEXICO_CITY', 'America/Mexico_City'],
  ['LOS_ANGELES', 'America/Los_Angeles'], ['PHOENIX', 'America/Phoenix'], ['TIJUANA', 'America/Tijuana'],
  ['ANCHORAGE', 'America/Anchorage'], ['HONOLULU', 'Pacific/Honolulu'], ['NIUE', 'Pacific/Niue'],
  ['PAGO_PAGO', 'Pacific/Pago_Pago'],
];

export const TIME_ZONE_CODES: readonly TimeZoneCode[] = TABLE.map(([city, iana], code) => ({ code, city, iana }));

/** Names that mean "UTC" to people; all map to 61 GMT. */
const UTC_NAMES = new Set(['UTC', 'GMT', 'Z', 'ZULU', 'ETC/UTC', 'ETC/GMT', 'UNIVERSAL', 'ETC/UNIVERSAL']);

export interface ResolvedZone extends TimeZoneCode {
  /** The zone used for the wall-clock conversion: the user's own IANA zone when they gave one. */
  zone: string;
}

/** "Ho Chi Minh", "ho-chi-minh", "HO_CHI_MINH" → HO_CHI_MINH. */
function cityKey(s: string): string {
  return s.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

/** The zone's canonical id as this runtime's ICU knows it, or undefined when it is no zone. */
export function canonicalZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The code for what a user typed, or an Error whose message is one sentence. An IANA zone not
 * in the table maps to a listed city with the same clock all year (Europe/Madrid → PARIS),
 * while the conversion still uses the user's own zone.
 */
export function resolveTimeZone(input: string): ResolvedZone | Error {
  const raw = input.trim();
  if (!raw) return new Error('The time zone is empty; give an IANA zone such as Asia/Taipei, a city such as TAIPEI, or a code from 0 to 87.');
  if (/^\d+$/.test(raw)) {
    const tz = TIME_ZONE_CODES[Number(raw)];
    return tz ? { ...tz, zone: tz.iana } : new Error(`Time zone code ${raw} does not exist; the codes go from 0 to 87 (see \`mailctl campaign create --help\`).`);
  }
  if (UTC_NAMES.has(raw.toUpperCase())) return { ...TIME_ZONE_CODES[61], zone: 'Etc/GMT' };
  const byCity = TIME_ZONE_CODES.find((t) => t.city === cityKey(raw) || cityKey(t.iana.split('/').pop()!) === cityKey(raw));
  if (byCity) return { ...byCity, zone: byCity.iana };
  const canon = raw.includes('/') ? canonicalZone(raw) : undefined;
  if (!canon) {
    return new Error(`"${raw}" is not a time zone the campaign service knows; give an IANA zone such as Asia/Taipei, or one of its cities such as TAIPEI, NEW_YORK or LONDON.`);
  }
  const exact = TIME_ZONE_CODES.find((t) => canonicalZone(t.iana) === canon);
  if (exact) return { ...exact, zone: raw };
  const twin = TIME_ZONE_CODES.find((t) => sameClockAllYear(t.iana, raw));
  if (twin) return { ...twin, zone: raw };
  return new Error(`The campaign service has no time zone that keeps the same clock as ${raw}; choose one of its cities (see \`mailctl campaign create --help\`) or give the time in UTC (--timezone GMT).`);
}

/** Two zones agree on the UTC offset at every sample instant over two years (DST included). */
function sameClockAllYear(a: string, b: string): boolean {
  const start = Date.UTC(new Date().getUTCFullYear(), 0, 1);
  for (let day = 0; day < 730; day += 5) {
    const t = start + day * 86_400_000;
    if (offsetMs(a, t) !== offsetMs(b, t)) return false;
  }
  return true;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of `zone` at instant `t`, read back as if it were UTC (ms). */
function wallAsUtc(zone: string, t: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** UTC offset of `zone` at instant `t` (east positive), in ms. */
export function offsetMs(zone: string, t: number): number {
  const whole = Math.floor(t / 1000) * 1000;
  return wallAsUtc(zone, whole) - whole;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

export type ZonedResult = { utc: number; ambiguous: boolean } | { gap: true };

/**
 * The instant at which `zone`'s clocks show `w`. Around a DST change a wall time can happen
 * twice (autumn: the earlier one is taken, and `ambiguous` says so) or not at all (spring: a gap).
 */
export function zonedToUtc(w: WallTime, zone: string): ZonedResult {
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second ?? 0);
  // The offsets a day either side cover any single transition near this time.
  const offsets = new Set([offsetMs(zone, wall - 86_400_000), offsetMs(zone, wall), offsetMs(zone, wall + 86_400_000)]);
  const hits = [...offsets].map((o) => wall - o).filter((t) => wallAsUtc(zone, t) === wall);
  const unique = [...new Set(hits)].sort((a, b) => a - b);
  if (!unique.length) return { gap: true };
  return { utc: unique[0], ambiguous: unique.length > 1 };
}

/** "+08:00" style offset of `zone` at `t`, for messages. */
export function offsetLabel(zone: string, t: number): string {
  const m = Math.round(offsetMs(zone, t) / 60_000);
  const sign = m < 0 ? '-' : '+';
  const a = Math.abs(m);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** The operator's own time zone (TZ, else the system's). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "2026-12-01 09:00" as `zone`'s clocks show instant `t` (the summaries `campaign create` and `send` show before asking). */
export function wallTime(t: number, zone: string): string {
  return new Date(t + offsetMs(zone, t)).toISOString().slice(0, 16).replace('T', ' ');
}
