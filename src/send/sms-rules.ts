// SMS rules checked before sending: country calling codes (spec 001 section 2, GAPS row 24),
// national numbers, alive_mins (section 8, GAPS row 3) and the regulatory content rules
// (section 2, GAPS row 17). Only a malformed code or number is refused; the rest are warnings.
import { UsageError } from '../cli/errors.js';

/** Spec section 2, "SMS country codes supported", as listed (it includes some NANP area codes). */
export const DOCUMENTED_CODES: ReadonlySet<string> = new Set(`60 62 63 65 66 670 673 7 77 81 82 84 852 853 855 856 86 880
90 91 92 93 94 95 961 962 963 964 965 966 967 968 970 971 972 973 974 975 976 977 98 992 993 996
61 64 674 675 676 677 678 679 680 682 685 686 687 689 960
30 31 32 33 34 350 351 352 353 354 356 357 358 359 36 370 371 372 373 374 375 377 380 381 382 385 386 387 389 39
40 41 420 421 423 43 44 45 46 47 48 49 599 882 994 995 998
1 11 1242 124625 126447 126876 128454 134599 147340 16492 166449 175828 176727 178449 1809 186966 187682 1939 297
501 502 503 504 505 506 509 51 52 53 54 55 56 57 590 591 592 593 595 597 598 71401
20 211 212 213 216 220 221 222 223 224 225 226 227 228 229 230 231 233 234 235 236 237 238 239 241 242 243 245
248 249 250 254 255 256 257 258 260 261 262 263 264 265 266 268 27 355 652`.split(/\s+/));

/** ITU-T E.164 country codes in use: a code here but not above is real, just undocumented (886). */
const ITU_CODES: ReadonlySet<string> = new Set(`1 7 20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58
60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98 211 212 213 216 218 220 221 222 223 224 225 226 227 228
229 230 231 232 233 234 235 236 237 238 239 240 241 242 243 244 245 246 247 248 249 250 251 252 253 254 255 256
257 258 260 261 262 263 264 265 266 267 268 269 290 291 297 298 299 350 351 352 353 354 355 356 357 358 359 370
371 372 373 374 375 376 377 378 379 380 381 382 383 385 386 387 389 420 421 423 500 501 502 503 504 505 506 507
508 509 590 591 592 593 594 595 596 597 598 599 670 672 673 674 675 676 677 678 679 680 681 682 683 685 686 687
688 689 690 691 692 800 808 850 852 853 855 856 870 878 880 881 882 883 886 888 960 961 962 963 964 965 966 967
968 970 971 972 973 974 975 976 977 979 992 993 994 995 996 998`.split(/\s+/));

export type CodeCheck = { code: string; documented: boolean } | { error: string };

/** "+886", "00886" or "886" → "886"; whether the spec lists it; or why it is no calling code. */
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
 * refused (GAPS row 24), including a leading "+" — the country code goes in --country-code.
 */
export function checkNationalNumber(input: string): { number: string } | { error: string } {
  const number = input.trim().replace(/[\s-]/g, '');
  if (number.startsWith('+')) return { error: `"${input}" includes a country code; give the national number and the code separately (--country-code)` };
  if (!/^\d{4,15}$/.test(number)) return { error: `"${input}" is not a phone number (digits only, 4 to 15 of them)` };
  return { number };
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

/** GAPS row 17: a third-party client caps content at 268 characters. */
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
