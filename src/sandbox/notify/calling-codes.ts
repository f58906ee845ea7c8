// Country calling codes. The spec's section 2 list is what the service documents as supported;
// decisions row 24: a code outside it but still a real calling code (886, Taiwan, used in the
// official CLI's own examples) is accepted and sent by the sandbox — mailctl only warns about
// it — while something that is no calling code at all is refused per recipient.

import { ITU_CALLING_CODES as ITU, SPEC_SMS_COUNTRY_CODES as SPEC_SUPPORTED } from '../../spec/sms-country-codes.js';


const CALLING_CODES = new Set([...SPEC_SUPPORTED, ...ITU]);

/** The code without a leading "+", or undefined when it is not a calling code. */
export function callingCode(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const code = String(v).trim().replace(/^\+/, '');
  return CALLING_CODES.has(code) ? code : undefined;
}
