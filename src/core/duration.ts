import { UsageError } from './errors.js';

/** The units every duration flag takes, in ms. */
export const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface DurationRules {
  /** A time-out of 0 makes no sense: refuse 0. */
  positive?: boolean;
  /** The spellings this flag takes and their length in ms (default DURATION_UNITS). */
  units?: Readonly<Record<string, number>>;
  /** A bare number is seconds (default); false refuses it (where a number alone is ambiguous). */
  bareSeconds?: boolean;
  /** The longest accepted, in ms; `maxText` says it in words for the message. */
  max?: number;
  maxText?: string;
  /** Examples for the message (default "90s, 10m or 1h"). */
  examples?: string;
}

/**
 * A duration flag: "90s", "10m", "1h", "1h30m", "500ms", "30d" (a space between number and unit
 * is fine); a bare number is seconds unless `bareSeconds: false`. → ms. The one parser for every
 * duration: time-outs, --settle-after, --interval/--for, relative times ("7d" back from now, via
 * src/core/date.ts) and the A/B --test-duration (with its own units).
 */
export function parseDuration(v: string, flag: string, o: DurationRules = {}): number {
  const s = v.trim().toLowerCase();
  const units = o.units ?? DURATION_UNITS;
  const examples = o.examples ?? '90s, 10m or 1h';
  let ms: number;
  if (/^\d+(?:\.\d+)?$/.test(s) && o.bareSeconds !== false) ms = Math.round(Number(s) * 1000);
  else {
    // Longest spelling first, so "ms" is not read as "m" followed by a stray "s".
    const names = Object.keys(units).sort((a, b) => b.length - a.length).map((u) => u.replace(/[^a-z]/g, ''));
    const part = new RegExp(`(\\d+(?:\\.\\d+)?)\\s*(${names.join('|')})(?![a-z])\\s*`, 'g');
    const parts = [...s.matchAll(part)];
    if (!parts.length || parts.map((p) => p[0]).join('') !== s) {
      throw new UsageError(`${flag} takes a duration such as ${examples}; got "${v}".`);
    }
    ms = Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]], 0));
  }
  if (o.max !== undefined && !(ms <= o.max)) {
    throw new UsageError(`${flag} is at most ${o.maxText ?? `${Math.floor(o.max / 86_400_000)} days`}; got "${v}".`);
  }
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${flag} "${v}" is far too long; give a duration such as ${examples}.`);
  if (o.positive && ms <= 0) throw new UsageError(`${flag} must be longer than 0; got "${v}".`);
  return ms;
}
