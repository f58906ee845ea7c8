// SMS rules checked before sending: country calling codes (spec 001 section 2, decisions row 24),
// national numbers, alive_mins (section 8, decisions row 3) and the regulatory content rules
// (section 2, decisions row 17). Only a malformed code or number is refused; the rest are warnings.
import { UsageError } from '../core/errors.js';
import { ITU_CALLING_CODES as ITU_CODES, DOCUMENTED_SMS_COUNTRY_CODES as DOCUMENTED_CODES } from '../spec/sms-country-codes.js';


export type CodeCheck = { code: string; documented: boolean } | { error: string };

/**
 * "+886", "00886" or "886" → "886"; whether it is documented (the spec's list or the vendor's
 * reference: 886 is, decisions row 24); or why it is no calling code.
 */
export function checkCountryCode(input: string): CodeCheck {
  const code = input.trim().replace(/^(\+|00)/, '');
  if (!/^\d{1,7}$/.test(code)) return { error: `"${input}" is not a country calling code (digits only, such as 886 or 81)` };
  if (DOCUMENTED_CODES.has(code)) return { code, documented: true };
  if (ITU_CODES.has(code)) return { code, documented: false };
  return { error: `"${input}" is not a country calling code` };
}

/**
 * The national number as the service wants it (spec: "phone number in national form").
 * Spaces and hyphens are formatting and are dropped; anything else that is not a digit is
 * refused (decisions row 24), including a leading "+" — the country code goes in --country-code.
 */
export function checkNationalNumber(input: string): { number: string } | { error: string } {
  const number = input.trim().replace(/[\s-]/g, '');
  if (number.startsWith('+')) return { error: `"${input}" includes a country code; give the national number and the code separately (--country-code)` };
  if (!/^\d{4,15}$/.test(number)) return { error: `"${input}" is not a phone number (digits only, 4 to 15 of them)` };
  return { number };
}

/**
 * The national number without formatting and without its trunk zero(s): 0912-345-678 and
 * 912345678 under +886 are one phone. The service and its event log may give a number either
 * way, so duplicates, journal keys, answers and event lookups all compare this form.
 */
export function bareNational(number: string): string {
  return number.replace(/[\s+-]/g, '').replace(/^0+/, '');
}

/** The identity of an SMS recipient — duplicate check, journal key — "CC:national digits without the trunk zero". */
export function smsKey(countryCode: string | undefined, number: string): string {
  return `${countryCode ?? ''}:${bareNational(number)}`;
}

export const ALIVE_MIN = 5;
export const ALIVE_MAX = 480;

/** Spec section 8: outside 5..480 the service clamps; we clamp first and say so. */
export function clampAliveMins(value: string): { minutes: number; notice?: string } {
  if (!/^\s*\d+\s*$/.test(value)) throw new UsageError(`--alive-mins takes a whole number of minutes (${ALIVE_MIN} to ${ALIVE_MAX}); got "${value}".`);
  const n = Number(value);
  if (n < ALIVE_MIN) return { minutes: ALIVE_MIN, notice: `--alive-mins ${n} is below the minimum; using ${ALIVE_MIN} minutes (the service allows ${ALIVE_MIN} to ${ALIVE_MAX}).` };
  if (n > ALIVE_MAX) return { minutes: ALIVE_MAX, notice: `--alive-mins ${n} is above the maximum; using ${ALIVE_MAX} minutes (the service allows ${ALIVE_MIN} to ${ALIVE_MAX}).` };
  return { minutes: n };
}

/** decisions row 17: a third-party client caps content at 268 characters. */
export const LONG_SMS = 268;

/**
 * Spec section 2: "the content must state the real-name identity (company, brand or campaign
 * name) at the start or end". Seen when the text starts or ends with a bracketed brand
 * (【Acme】, [Acme]) or with one of the names we know (--brand, the profile's sender name).
 */
export function hasSenderIdentity(content: string, names: Array<string | undefined> = []): boolean {
  const t = content.trim();
  if (/^(【[^】]+】|\[[^\]]+\])/.test(t) || /(【[^】]+】|\[[^\]]+\])$/.test(t)) return true;
  const lower = t.toLowerCase();
  return names.some((n) => {
    const name = n?.trim().toLowerCase();
    return !!name && (lower.startsWith(name) || lower.endsWith(name));
  });
}

/** The link domains in an SMS text: each needs the carrier allow-list (spec section 2). */
export function linkDomains(content: string): string[] {
  const found = new Set<string>();
  for (const m of content.matchAll(/\b(?:https?:\/\/|www\.)([^\s/?#【】]+)|\b((?:[a-z0-9-]+\.)+(?:com|net|org|tw|io|co|me|ly|app|info|biz|cc|us|jp|hk|cn|sg|my)\b)(?=[/\s]|$)/gi)) {
    const host = (m[1] ?? m[2]).toLowerCase().replace(/[.,;:!)]+$/, '');
    found.add(m[0].toLowerCase().startsWith('www.') ? `www.${host}` : host);
  }
  return [...found];
}
