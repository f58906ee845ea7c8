// The one sanitiser between text from outside (services, files, webhook payloads) and a
// person's terminal. Control characters could retitle the window (OSC), clear the screen, hide
// text (SGR 8) or reorder it (bidi overrides); they are shown visibly instead. How much is kept:
// - forTerminal: a sentence, a table cell, a record value — cut at `max` characters;
// - forTsvCell: a cell of tab-separated output for scripts, or a data line — whole, never cut,
//   and tabs and newlines escaped too so a value can never break a row (exact data: --json);
// - safeJson: --json and NDJSON — exact JSON; the characters a terminal would act on but JSON
//   leaves raw (DEL, C1, bidi and line separators) are written as \u escapes, so the document
//   parses back to exactly the string the service sent.

const DEFAULT_MAX = 300;

// C0 controls but tab, DEL, C1 controls, and the Unicode format characters that reorder, hide
// or break text on a terminal (bidi marks/embeddings/overrides/isolates, zero-width and
// invisible characters, line/paragraph separators, BOM).
const FORMAT = '\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff';
const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f${FORMAT}]`, 'g');
const UNSAFE_OR_TAB = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${FORMAT}]`, 'g');
/** What JSON.stringify leaves raw that a terminal would still act on. */
const JSON_RAW = new RegExp(`[\\u007f-\\u009f${FORMAT}]`, 'g');

function visible(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  if (ch === '\u001b') return '\\e';
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

const text = (s: unknown): string => (typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s));

/** `s` cut to `max` characters (never inside a surrogate pair), and how many were cut. */
function cut(s: string, max: number): [string, number] {
  if (s.length <= max) return [s, 0];
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return [s.slice(0, end), s.length - end];
}

/**
 * `s` made safe to print: control and reordering characters shown as escapes (`\e`, `\x07`,
 * `\u202e`), tabs kept, and anything longer than `max` characters cut with a note of how much.
 */
export function forTerminal(s: unknown, max = DEFAULT_MAX): string {
  // Cut first (on the raw text) so a 200 KB header costs nothing to escape.
  const [head, more] = cut(text(s), max);
  const safe = head.replace(UNSAFE, visible);
  return more ? `${safe}… (${more} more characters)` : safe;
}

/**
 * A cell: every control character shown as an escape, tabs and newlines included, so the
 * value stays inside its cell and row. Whole unless `max` is given (a table on a terminal).
 */
export function forTsvCell(s: unknown, max = Infinity): string {
  const [head, more] = cut(text(s), max);
  const safe = head.replace(UNSAFE_OR_TAB, visible);
  return more ? `${safe}… (${more} more characters)` : safe;
}

/** Whether `s` holds nothing a terminal would act on (tabs and newlines count as unsafe too). */
export function isPlainText(s: string): boolean {
  UNSAFE_OR_TAB.lastIndex = 0;
  return !UNSAFE_OR_TAB.test(s);
}

/** For multi-line text from outside that is meant to keep its lines (a webhook body shown in full). */
export function forTerminalLines(s: string, max = DEFAULT_MAX * 10): string {
  return s.split('\n').map((line) => forTerminal(line.replace(/\r$/, ''), max)).join('\n');
}

/** JSON.stringify, with what a terminal would act on written as \u escapes: still exact JSON. */
export function safeJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space) ?? 'null';
  // Outside strings JSON has only structure and ASCII whitespace, so these are all inside strings.
  return json.replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
