// The one way a name chosen by a server (an import code, a campaign code, a report type, a file
// name in a link) becomes part of a local path. A hostile answer such as `x/../../tmp/evil`
// must not reach outside the folder mailctl writes into.
import { createHash } from 'node:crypto';
import { CliError, ExitCode } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

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

/**
 * safeFileName for a name that must stay apart from every other: two server names that reduce
 * alike (`a/b`, `a_b`) would share one path and mix their data. A name that is already safe is
 * kept as it is (paths made before stay valid); one that had to change gets `_` and 8 hex of the
 * sha256 of the raw value, so it is the same on every run and differs from the other's. (A server
 * that sends a code looking exactly like another's suffixed name can still make two meet; it
 * would only be mixing its own data.)
 *
 * Not handled: names differing only in case (`CP1`, `cp1`) are one folder on a case-insensitive
 * file system (macOS, Windows). Suffixing every name with a capital letter would move every
 * existing folder (codes such as CP123), so it is not done.
 */
export function uniqueSafeName(raw: unknown, what: string): string {
  const safe = safeFileName(raw, what);
  const text = String(raw);
  if (safe === text) return safe;
  return `${safe}_${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8)}`;
}
