import { UsageError } from './errors.js';

/** A duration flag: "90s", "10m", "1h", "1h30m", "500ms"; a bare number is seconds. → ms. */
export function parseDuration(v: string, flag: string): number {
  const s = v.trim().toLowerCase();
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (/^\d+(?:\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== s) {
    throw new UsageError(`${flag} takes a duration such as 90s, 10m or 1h; got "${v}".`);
  }
  return Math.round(parts.reduce((ms, p) => ms + Number(p[1]) * units[p[2]], 0));
}
