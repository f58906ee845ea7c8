import { UsageError } from './errors.js';

/**
 * A duration flag: "90s", "10m", "1h", "1h30m", "500ms", "30d"; a bare number is seconds. → ms.
 * The one parser for every --timeout and --settle-after. A time-out of 0 makes no sense, so
 * `positive` refuses it.
 */
export function parseDuration(v: string, flag: string, o: { positive?: boolean } = {}): number {
  const s = v.trim().toLowerCase();
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let ms: number;
  if (/^\d+(?:\.\d+)?$/.test(s)) ms = Math.round(Number(s) * 1000);
  else {
    const parts = [...s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
    if (!parts.length || parts.map((p) => p[0]).join('') !== s) {
      throw new UsageError(`${flag} takes a duration such as 90s, 10m or 1h; got "${v}".`);
    }
    ms = Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]], 0));
  }
  if (o.positive && ms <= 0) throw new UsageError(`${flag} must be longer than 0; got "${v}".`);
  return ms;
}
