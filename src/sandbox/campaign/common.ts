// Small helpers shared by the campaign-service routes.
import type { SbResponse } from '../types.js';

export const iso = (ms: number): string => new Date(ms).toISOString();

export function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A practical address check (the spec gives no grammar): one @, a dot in the domain, no spaces. */
const EMAIL_RE = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.[^\s@,;<>"()[\]\\.]{2,}$/;
export function isEmail(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 254 && EMAIL_RE.test(s) && !s.includes('..');
}

/** Spec section 7: campaign creation failure → 400 {code (string), invalidFields (string)}. */
export function campaignError(code: string, invalidFields = ''): SbResponse {
  return { status: 400, json: { code, invalidFields } };
}

/** Spec section 7: report endpoints, invalid campaign code → 403 {code "40303", message}. */
export const INVALID_REPORT_CODE: SbResponse = {
  status: 403,
  json: { code: '40303', message: 'bad operation with invalid user state' },
};

/** Spec section 7: "import start failure: 500, no content". */
export const IMPORT_START_FAILED: SbResponse = { status: 500, body: '' };

/** Deterministic 32-bit FNV-1a: the sandbox's "random" numbers must repeat across runs. */
export function hash32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche so close inputs (a1@x, a2@x) spread well.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/** A deterministic number in [0, 1) for a string. */
export const unit = (s: string): number => hash32(s) / 2 ** 32;
