// How many parts (billed units) one SMS text takes — decisions row P7. One counter for the
// client's forecast (src/send/forecast.ts) and the sandbox's `point` (src/sandbox/notify/outcomes.ts).
//
// A text made only of the GSM 7-bit default alphabet (3GPP TS 23.038) is sent as GSM-7: one
// message holds 160 septets, and a character of the extension table (^ { } \ [ ~ ] | € and form
// feed) takes two. Any other character (Chinese, 【】, a backtick, an emoji) makes the whole text
// UCS-2: one message holds 70 UTF-16 units, and a character outside the Basic Multilingual Plane
// (most emoji) takes two. A longer text is split into parts of 153 septets or 67 units (the rest
// of each part carries the concatenation header, TS 23.040), never splitting an escape pair or a
// surrogate pair across two parts.

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2) the text takes. */
  units: number;
  /** Billed parts: 1 when the text fits one message. */
  parts: number;
}

export const SINGLE = { 'GSM-7': 160, 'UCS-2': 70 } as const;
export const PART = { 'GSM-7': 153, 'UCS-2': 67 } as const;

// TS 23.038 default alphabet, in table order (0x1B, the escape, is left out).
const GSM_BASIC = new Set([...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà']);
// Its extension table: each is sent as the escape plus one septet.
const GSM_EXTENDED = new Set([...'\f^{}\\[~]|€']);

/** The encoding a text is sent in, and the parts it takes. */
export function smsSegments(text: string): SmsSegments {
  const chars = [...text];
  const gsm = chars.every((c) => GSM_BASIC.has(c) || GSM_EXTENDED.has(c));
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  // A surrogate pair is one code point of [...text] and two UTF-16 units.
  const cost = gsm ? (c: string) => (GSM_EXTENDED.has(c) ? 2 : 1) : (c: string) => c.length;
  let units = 0;
  for (const c of chars) units += cost(c);
  if (units <= SINGLE[encoding]) return { encoding, units, parts: 1 };
  // Greedy packing, as a sender fills each part before starting the next.
  let parts = 1;
  let used = 0;
  for (const c of chars) {
    const n = cost(c);
    if (used + n > PART[encoding]) {
      parts++;
      used = 0;
    }
    used += n;
  }
  return { encoding, units, parts };
}
