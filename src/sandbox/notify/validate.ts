// Request checks shared by email and SMS sends, and the {{variable}} rendering.
import type { SbResponse } from '../types.js';

/** Spec section 7: "email send rejected (for example unverified sender domain) → 400 {errors: string}". */
export function rejected(errors: string): SbResponse {
  return { status: 400, json: { errors } };
}

/** Spec section 4, verbatim. */
export const REASON_BAD_ADDRESS = 'Invalid: address is not a valid email format';
/** Spec section 4, verbatim. */
export const REASON_LONG_VARIABLE = 'Invalid: the value of recipient variables should under 100 characters';
/**
 * Spec section 4 says variables allow "no mathematical expressions; must not start with a
 * digit", and section 2 that names "must not contain special characters". Values like a
 * verification code ("042917") start with a digit all the time, so the sandbox reads those
 * rules as rules about variable NAMES and refuses such a recipient with this reason, which
 * is the sandbox's own wording (the spec gives none). Values are only checked for length.
 */
export const REASON_BAD_VARIABLE_NAME = 'Invalid: recipient variable names must not start with a digit or contain special characters or mathematical expressions';
/** decisions row 24; the sandbox's own wording. */
export const REASON_BAD_PHONE = 'Invalid: address is not a valid phone number (digits only)';
export const REASON_BAD_COUNTRY_CODE = 'Invalid: country_code is not a calling code';

export const MAX_RECIPIENTS = 100;
export const MAX_VARIABLE_LENGTH = 100;

const EMAIL = /^[^\s@"<>(),;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEmail(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 254 && EMAIL.test(v);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Checks one recipient's variables; returns the failure reason or the variables as strings.
 * Values that are not strings are taken as their JSON text.
 */
export function checkVariables(v: unknown): { reason: string } | { variables: Record<string, string> } {
  if (v === undefined || v === null) return { variables: {} };
  if (!isObject(v)) return { reason: REASON_BAD_VARIABLE_NAME };
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(v)) {
    if (!VARIABLE_NAME.test(name)) return { reason: REASON_BAD_VARIABLE_NAME };
    const value = typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '';
    // "each content at most 100 long" — counted in characters, not UTF-16 units.
    if ([...value].length > MAX_VARIABLE_LENGTH) return { reason: REASON_LONG_VARIABLE };
    out[name] = value;
  }
  return { variables: out };
}

/**
 * Fills `{{name}}` (spaces inside the braces allowed) from the variables. A placeholder with
 * no value, or one that is not a plain name (`{{#subject}}`, `{{a+1}}`), is left as written:
 * the spec does not say what the service does with those, and leaving them shows the mistake.
 */
export function render(text: string, variables: Record<string, string>, encode?: (v: string) => string): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (encode ? encode(variables[name]) : variables[name]) : whole);
}

/** The href targets in html content, in order (click `sort` 0 is the first). */
export function linksOf(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)].map((m) => m[1] ?? m[2]).filter((h) => /^https?:/i.test(h));
}

/** A time in a query (UTC ISO 8601, spec conventions). undefined when absent; NaN when bad. */
export function parseTime(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  // Date.parse accepts far too much ("1", "March 7"); insist on the ISO date at least.
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) return NaN;
  return Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
}

/** A status filter among the allowed ones; returns the set, or the unknown names. */
export function parseStatuses(v: string | null, allowed: readonly string[]): { set?: Set<string>; unknown?: string[] } {
  if (v === null || v.trim() === '') return {};
  const names = v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((n) => !allowed.includes(n));
  return unknown.length ? { unknown } : { set: new Set(names) };
}

/** A small deterministic hash, so a given address always behaves the same. */
export function hashOf(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
