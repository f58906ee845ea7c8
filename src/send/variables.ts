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
 * invalid)"; the vendor's reference: names must not start with a digit and hold no mathematical
 * expressions (decisions row 26). Kept to ASCII letters, digits and underscore, not starting with
 * a digit — the narrowest reading, so a name that passes here passes on the service.
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
  /** Names the service refuses: decisions row 26, see checkVariableNames. */
  badNames: ValueFinding[];
  /** Over 100 characters: the service fails the recipient ("should under 100 characters"). */
  tooLong: ValueFinding[];
  /** Spec: "no mathematical expressions". */
  expression: ValueFinding[];
}

/**
 * What the send checks find in the variables. A value is never judged by its first character
 * (decisions row 26: the vendor's reference makes "must not start with a digit" a rule for names,
 * and sends `123456` as a value in its own examples).
 */
export function valueProblems(recipients: VariableHolder[]): ValueProblems {
  const p: ValueProblems = { badNames: [], tooLong: [], expression: [] };
  for (const r of recipients) {
    for (const [name, value] of Object.entries(r.variables)) {
      const f = { label: r.label, name, value };
      if (!VALID_NAME.test(name)) p.badNames.push(f);
      if ([...value].length > MAX_VALUE_LENGTH) p.tooLong.push(f);
      if (EXPRESSION.test(value)) p.expression.push(f);
    }
  }
  return p;
}

/** Why a variable name is refused, in a few words (the name is shown by the caller). */
function nameProblem(name: string): string {
  if (name === '') return 'empty';
  if (/^\d/.test(name)) return 'starts with a digit';
  if (/[+\-*/%^=<>!&|()×÷]/.test(name)) return 'holds an operator';
  return 'holds a character other than a letter, a digit or _';
}

/**
 * decisions row 26: a variable NAME that starts with a digit or holds an operator (or any other
 * character the service may refuse) stops `send`, `send sms` and `automation` alike before any
 * request — exit 2, nothing sent — naming each bad name once and what is wrong with it.
 */
export function checkVariableNames(recipients: VariableHolder[], where: string): ValueProblems {
  const problems = valueProblems(recipients);
  const bad = [...new Set(problems.badNames.map((f) => f.name))];
  // The value problems come back with it: one pass over every recipient's variables.
  if (!bad.length) return problems;
  throw new UsageError(
    `Variable names start with a letter or _ and hold only letters, digits and _ (the service refuses a name that starts with a digit or holds an operator); ${bad.length === 1 ? 'this one does not' : 'these do not'}: ${summarise(bad, (n) => `"${forTerminal(n, 40)}" (${nameProblem(n)})`)}. Nothing was sent.`,
    `Rename ${where}; a value may be anything, 123456 included.`,
  );
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
    const name = item.slice(0, i).trim();
    // Two values for one name: which was meant is not ours to guess (a flag given twice, issue 19 item 3).
    if (Object.hasOwn(out, name)) throw new UsageError(`--var ${name} is given twice ("${out[name]}" and "${item.slice(i + 1)}").`, `Give each variable once: --var ${name}=VALUE.`);
    out[name] = item.slice(i + 1);
  }
  return out;
}
