// Flags of `mailctl events` → the lookup query: times as UTC ISO 8601 (spec conventions),
// statuses checked against each channel's list.
import { UsageError } from '../../src/cli/errors.js';

export const EMAIL_STATUSES = ['accept', 'retry', 'delivery', 'open', 'click', 'bounce', 'complaint'];
export const SMS_STATUSES = ['accept', 'delivery', 'bounce'];

/**
 * "2024-05-01", "2024-05-01T08:00", a full ISO time, or a span back from now ("7d", "12h",
 * "30m"). A date alone is midnight UTC — or, for the end of a range, the last second of that day.
 */
export function parseTime(v: string, flag: string, now: number, endOfDay = false): string {
  const s = v.trim();
  const rel = /^(\d+)\s*(d|h|m)$/i.exec(s);
  if (rel) return iso(now - Number(rel[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[rel[2].toLowerCase() as 'd' | 'h' | 'm']);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const t = Date.parse(`${s}T00:00:00Z`);
    if (!Number.isNaN(t)) return iso(endOfDay ? t + 86_399_000 : t);
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) {
    // No zone given: UTC, as the service reads it.
    const t = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`);
    if (!Number.isNaN(t)) return iso(t);
  }
  throw new UsageError(`${flag} takes a date or time such as 2024-05-01, 2024-05-01T08:00Z, or a span back from now such as 7d or 12h; got "${v}".`);
}

function iso(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function parseStatuses(v: string, allowed: string[], sms: boolean): string {
  const names = v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = names.filter((n) => !allowed.includes(n));
  if (bad.length || !names.length) {
    throw new UsageError(`--status takes a comma-separated list among ${allowed.join(', ')}${sms ? ' (SMS)' : ''}; ${bad.length ? `"${bad.join('", "')}" ${bad.length === 1 ? 'is' : 'are'} not one` : 'got nothing'}.`);
  }
  return [...new Set(names)].join(',');
}
