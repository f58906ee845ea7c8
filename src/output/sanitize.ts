// The one sanitiser between text from outside (services, files, webhook payloads) and a
// person's terminal. Control characters could retitle the window (OSC), clear the screen, hide
// text or reorder it (bidi overrides); they are shown visibly instead. Very long text is cut.
// `--json` output never goes through here: JSON escaping keeps it exact.

const DEFAULT_MAX = 300;

// C0 controls but tab, DEL, C1 controls, and the Unicode bidi/format characters that reorder
// or hide text on a terminal.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

function visible(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\u001b') return '\\e';
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/**
 * `s` made safe to print: control and reordering characters shown as escapes (`\e`, `\x07`,
 * `\u202e`), tabs kept, and anything longer than `max` characters cut with a note of how much.
 */
export function forTerminal(s: unknown, max = DEFAULT_MAX): string {
  let text = typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s);
  let cut = 0;
  // Cut first (on the raw text) so a 200 KB header costs nothing to escape.
  if (text.length > max) {
    cut = text.length - max;
    text = text.slice(0, max);
  }
  const safe = text.replace(UNSAFE, visible);
  return cut ? `${safe}… (${cut} more characters)` : safe;
}

/** For multi-line text from outside that is meant to keep its lines (a webhook body shown in full). */
export function forTerminalLines(s: string, max = DEFAULT_MAX * 10): string {
  return s.split('\n').map((line) => forTerminal(line.replace(/\r$/, ''), max)).join('\n');
}
