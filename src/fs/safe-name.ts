// The one way a name chosen by a server (an import code, a campaign code, a report type, a file
// name in a link) becomes part of a local path. A hostile answer such as `x/../../tmp/evil`
// must not reach outside the folder mailctl writes into.
import { CliError, ExitCode } from '../cli/errors.js';
import { forTerminal } from '../output/sanitize.js';

const MAX_LENGTH = 80;

/**
 * Reduces `raw` to letters, digits, `-`, `_` and single dots (no separators, no `..`, no
 * leading dot), at most 80 characters. Refuses (exit 1: the service answered something no real
 * answer contains) what reduces to nothing usable. `what` names the value ("import code").
 */
export function safeFileName(raw: unknown, what: string): string {
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  const reduced = text
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, MAX_LENGTH);
  if (!/[A-Za-z0-9]/.test(reduced)) {
    throw new CliError(`The service gave the ${what} "${forTerminal(text, 60)}", which cannot be made into a safe file name; nothing was written.`, ExitCode.FAILED, undefined, {
      code: 'BAD_RESPONSE',
      reached: 'yes',
      refused: false,
      retryable: false,
    });
  }
  return reduced;
}
