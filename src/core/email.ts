// What mailctl counts as an email address, everywhere: imported contacts, recipients, senders,
// profile defaults. The spec only says "invalid EMAIL format" fails; this is the practical rule mail systems accept: an ASCII local part of letters, digits and
// !#$%&'*+/=?^_`{|}~.- (no leading, trailing or doubled dot, at most 64 characters), one @, and a
// domain of dot-separated labels (letters, digits, inner hyphens) ending in a 2+ letter top-level
// label or an internationalised one in its A-label form (xn--…, as .рф is xn--p1ai), 254
// characters at most in all. Quoted local parts and IP-literal domains are refused:
// no bulk-mail list needs them and many receiving systems reject them.

/**
 * The whole rule above but the two lengths, as one precompiled expression: local part, @,
 * domain. The local part cannot hold an @, so a match has exactly one. Cheap enough for the
 * import's per-row loop (no split at the @).
 */
export const EMAIL_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9](?:[A-Za-z0-9-]{0,57}[A-Za-z0-9])?)$/;

export function isValidEmail(s: string): boolean {
  return s.length <= 254 && EMAIL_ADDRESS.test(s) && s.indexOf('@') <= 64;
}

/** Why an address fails, in a few words for the rejects file. */
export function emailProblem(s: string): string {
  if (!s) return 'EMAIL is empty';
  if (/\s/.test(s)) return `EMAIL "${s}" contains a space`;
  const ats = s.split('@').length - 1;
  if (ats === 0) return `EMAIL "${s}" has no @`;
  if (ats > 1) return `EMAIL "${s}" has more than one @`;
  return `EMAIL "${s}" is not a valid address`;
}
