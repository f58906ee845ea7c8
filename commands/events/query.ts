// Flags of `mailctl events` → the lookup query: statuses checked against each channel's list.
// Times are read by the one date parser (src/cli/date.ts).
import { UsageError } from '../../src/cli/errors.js';

export const EMAIL_STATUSES = ['accept', 'retry', 'delivery', 'open', 'click', 'bounce', 'complaint'];
export const SMS_STATUSES = ['accept', 'delivery', 'bounce'];

export function parseStatuses(v: string, allowed: string[], sms: boolean): string {
  const names = v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = names.filter((n) => !allowed.includes(n));
  if (bad.length || !names.length) {
    throw new UsageError(`--status takes a comma-separated list among ${allowed.join(', ')}${sms ? ' (SMS)' : ''}; ${bad.length ? `"${bad.join('", "')}" ${bad.length === 1 ? 'is' : 'are'} not one` : 'got nothing'}.`);
  }
  return [...new Set(names)].join(',');
}
