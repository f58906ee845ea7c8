// Flags of `mailctl events` and `events tail` → the lookup query: statuses checked against each
// channel's list, the recipient by the one email and national-number rules, a start kept within
// what the lookup reaches. Times are read by the one date parser (src/core/date.ts).
import { UsageError } from '../../src/core/errors.js';
import { isoSeconds, type TimeRange } from '../../src/core/date.js';
import { isValidEmail } from '../../src/core/email.js';
import { checkCountryCode, checkNationalNumber } from '../../src/send/sms-rules.js';

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

/** decisions row 30: a lookup by id sends the id alone; said once, in the same words everywhere. */
export function warnIdOverRecipient(ctx: { io: { warn(m: string): void } }, id: string | undefined, recipient: string | undefined): void {
  if (id && recipient) ctx.io.warn('Both --id and --recipient given: only --id is sent (the service takes one or the other).');
}

/**
 * --recipient checked before any request, by the rules every other command uses: an email
 * address (src/core/email.ts), or with --sms a national number (src/send/sms-rules.ts). Returns
 * what the lookup sends: the address trimmed, the number as digits.
 */
export function checkRecipient(recipient: string | undefined, sms: boolean): string | undefined {
  if (recipient === undefined) return undefined;
  if (sms) {
    const n = checkNationalNumber(recipient);
    if ('error' in n) throw new UsageError(`--recipient: ${n.error}; for example --recipient 0912345678 --country-code 886.`);
    return n.number;
  }
  const address = recipient.trim();
  if (!isValidEmail(address)) throw new UsageError(`--recipient "${recipient}" is not an email address; give one such as someone@example.com (with --sms, a national number).`);
  return address;
}

/** --country-code checked by the SMS rules (src/send/sms-rules.ts); returns the code the query sends. */
export function checkCountryCodeFlag(countryCode: string | undefined): string | undefined {
  if (countryCode === undefined) return undefined;
  const c = checkCountryCode(countryCode);
  if ('error' in c) throw new UsageError(`--country-code: ${c.error}.`);
  return c.code;
}

/**
 * How far back a lookup reaches: the SMS lookup covers "only the last 30 days" (spec 001
 * section 8); the vendor's reference says the same of the email lookup (decisions row P9).
 */
export const LOOKUP_DAYS = 30;

/**
 * One rule for a start further back than the lookup reaches, in `events` and `events tail`:
 * warn, and start at the limit (whole seconds, rounded inwards) instead. `what` names the
 * events kept ("SMS events"). A range that ends before the limit could return nothing: refused.
 * Returns the start to use.
 */
export function startWithinWindow(warn: (text: string) => void, range: TimeRange, text: string | undefined, now: number, what: string): number | undefined {
  const limit = Math.ceil((now - LOOKUP_DAYS * 86_400_000) / 1000) * 1000;
  if (range.since === undefined || range.since >= limit) return range.since;
  if (range.until !== undefined && range.until < limit) {
    throw new UsageError(`${range.untilFlag} (${isoSeconds(range.until)}) is further back than the ${LOOKUP_DAYS} days the service keeps ${what}, so nothing could be returned; give a later one.`);
  }
  warn(`${range.sinceFlag} "${text}" reaches back further than the ${LOOKUP_DAYS} days the service keeps ${what}; looking from ${isoSeconds(limit)}, the ${LOOKUP_DAYS}-day limit.`);
  return limit;
}
