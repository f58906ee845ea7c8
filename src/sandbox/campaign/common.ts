// Small helpers shared by the campaign-service routes.
import type { SbResponse } from '../types.js';
import type { SandboxShapes } from '../shapes.js';

export const iso = (ms: number): string => new Date(ms).toISOString();

export function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A practical address check (the spec gives no grammar): one @, a dot in the domain, no spaces. */
const EMAIL_RE = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.[^\s@,;<>"()[\]\\.]{2,}$/;
export function isEmail(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 254 && EMAIL_RE.test(s) && !s.includes('..');
}

/** Spec section 7, the campaign codes' meanings (as the message of the {errorCode, message} shape). */
const CODE_MEANINGS: Record<string, string> = {
  '40001': 'field error', '40003': 'invalid email', '40004': 'domain not allowed', '40007': 'invalid sn',
  '40008': 'unsupported file format', '40009': 'file content empty', '40010': 'file size over limit',
  '40011': 'sender address not verified', '40012': 'insufficient balance', '40013': 'no recipients to send to',
  '40014': 'invalid campaign content', '40015': 'invalid sending information', '40017': 'insufficient balance for test',
  '40019': 'wrong schedule time', '40020': 'invalid date format',
};

/**
 * Spec section 7: campaign creation failure → 400 {code (string), invalidFields (string)}. With
 * the shape campaignError 'errorCode' (decisions row 6: what public code reads) it is
 * {errorCode, message}, the message naming the meaning and the fields.
 */
export function campaignError(shapes: SandboxShapes, code: string, invalidFields = ''): SbResponse {
  if (shapes.campaignError === 'errorCode') {
    const meaning = CODE_MEANINGS[code] ?? 'invalid request';
    return { status: 400, json: { errorCode: code, message: invalidFields ? `${meaning}: ${invalidFields}` : meaning } };
  }
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
