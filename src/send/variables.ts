// The {{name}} placeholders of the notification service (spec 001 section 2) and the checks
// that run before anything is sent: every placeholder needs a value for every recipient, and
// values the service refuses or may refuse are named up front instead of surfacing as
// per-recipient failures after the mail has gone to everyone else.
import { UsageError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

/** Spec section 4: "each content at most 100 long". Counted in characters, not UTF-16 units. */
export const MAX_VALUE_LENGTH = 100;

/**
 * Spec section 2: names "must not contain special characters (for example {{#subject}} is
 * invalid)". Kept to ASCII letters, digits and underscore, not starting with a digit — the
 * narrowest reading, so a name that passes here passes on the service.
 */
export const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** decisions row 18: the campaign service's syntax. */
const CAMPAIGN_SYNTAX = /\$\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}/g;
/**
 * "No mathematical expressions" (spec section 4): two numbers joined by an operator. A hyphen
 * is left out on purpose — dates and phone numbers ("2024-05-01", "02-2345-6789") are not sums.
 */
const EXPRESSION = /\d\s*[+*/×÷^%=]\s*\d|\{\{|\}\}/;

export interface VariableHolder {
  /** How the recipient is named in messages (address, or +CC number). */
  label: string;
  variables: Record<string, string>;
}

/** The placeholders used in some texts: valid names, and written ones that are not names. */
export function placeholders(...texts: Array<string | undefined>): { names: string[]; invalid: string[] } {
  const names = new Set<string>();
  const invalid = new Set<string>();
  for (const t of texts) {
    for (const m of (t ?? '').matchAll(PLACEHOLDER)) {
      if (VALID_NAME.test(m[1])) names.add(m[1]);
      else invalid.add(m[0]);
    }
  }
  return { names: [...names], invalid: [...invalid] };
}

/** `${FIELD}` occurrences — the other service's syntax, sent literally by this one. */
export function campaignSyntax(...texts: Array<string | undefined>): string[] {
  const found = new Set<string>();
  for (const t of texts) for (const m of (t ?? '').matchAll(CAMPAIGN_SYNTAX)) found.add(m[0]);
  return [...found];
}

/** Fills {{name}} from the variables; unknown names stay as written. */
export function render(text: string, variables: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (VALID_NAME.test(name) && Object.hasOwn(variables, name) ? variables[name] : whole));
}

/** Recipients lacking a value (absent or empty) for some of the names. */
export function missingValues(recipients: VariableHolder[], names: string[]): Array<{ label: string; missing: string[] }> {
  const out: Array<{ label: string; missing: string[] }> = [];
  for (const r of recipients) {
    const missing = names.filter((n) => !Object.hasOwn(r.variables, n) || r.variables[n] === '');
    if (missing.length) out.push({ label: r.label, missing });
  }
  return out;
}

export interface ValueFinding {
  label: string;
  name: string;
  value: string;
}

export interface ValueProblems {
  /** Names the service refuses (special characters, leading digit). */
  badNames: ValueFinding[];
  /** Over 100 characters: the service fails the recipient ("should under 100 characters"). */
  tooLong: ValueFinding[];
  /** Spec: "must not start with a digit". */
  leadingDigit: ValueFinding[];
  /** Spec: "no mathematical expressions". */
  expression: ValueFinding[];
}

export function valueProblems(recipients: VariableHolder[]): ValueProblems {
  const p: ValueProblems = { badNames: [], tooLong: [], leadingDigit: [], expression: [] };
  for (const r of recipients) {
    for (const [name, value] of Object.entries(r.variables)) {
      const f = { label: r.label, name, value };
      if (!VALID_NAME.test(name)) p.badNames.push(f);
      if ([...value].length > MAX_VALUE_LENGTH) p.tooLong.push(f);
      if (/^\s*\d/.test(value)) p.leadingDigit.push(f);
      if (EXPRESSION.test(value)) p.expression.push(f);
    }
  }
  return p;
}

/**
 * decisions row 26: both specs say values "must not start with a digit", yet verification codes
 * are the notification service's own example and neither service lists a failure for it. The
 * same rule for `send`, `send sms` and `automation`: one warning per run naming the variables
 * and how many recipients; with `strict`, a refusal before any request.
 */
export function leadingDigitRule(recipients: VariableHolder[], strict: boolean, warn: (line: string) => void): void {
  const found = valueProblems(recipients).leadingDigit;
  if (!found.length) return;
  const names = [...new Set(found.map((f) => f.name))];
  const people = new Set(found.map((f) => f.label)).size;
  const what = `${people} recipient${people === 1 ? ' has' : 's have'} variable values that start with a digit (${summarise(names, (n) => forTerminal(n, 40))})`;
  if (strict) {
    throw new UsageError(`${what}, and --strict refuses them: the spec says values must not start with a digit. Nothing was sent.`, 'Change those values, or leave out --strict to send them with a warning.');
  }
  warn(`${what}. The spec says values must not start with a digit, but the service lists no failure for it, so they are sent; pass --strict to refuse them instead.`);
}

/** "a@x.com (code, name), b@x.com (code) and 3 more" — a readable list for one sentence. */
export function summarise<T>(items: T[], show: (t: T) => string, max = 5): string {
  const shown = items.slice(0, max).map(show);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/** --var name=value, repeatable (send, send sms, automation). */
export function parseVars(list: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf('=');
    if (i <= 0) throw new UsageError(`--var takes name=value; got "${item}".`, 'For example: --var code=A1B2 --var name=Alice');
    out[item.slice(0, i).trim()] = item.slice(i + 1);
  }
  return out;
}
