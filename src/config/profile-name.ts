// The one check for a profile name, wherever it comes from (--profile, MAILCTL_PROFILE, the
// config file's current profile, `config use`, `config delete-profile`). A name is a key of the
// config file's `profiles` object and part of the completion cache's file name, so it is kept to
// plain characters, and never a name JavaScript objects already carry (`__proto__` once made
// `set-key` print "Saved" while nothing was stored).

import { forTerminal } from '../core/sanitize.js';

export const PROFILE_NAME_MAX = 64;

// Letters, digits, ".", "-" and "_"; not starting with "." or "-" (a dot was accepted by
// `config use` before, so existing names keep working).
const SHAPE = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Why `name` cannot be a profile name, as the end of a sentence that starts with the name; or undefined. */
export function profileNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > PROFILE_NAME_MAX) return `is longer than ${PROFILE_NAME_MAX} characters`;
  if (!SHAPE.test(name)) return 'may hold only letters, digits, ".", "-" and "_", starting with a letter, digit or "_"';
  if (RESERVED.has(name)) return 'is a name JavaScript reserves for every object';
  return undefined;
}

/** `where` names the source, e.g. "--profile" or "MAILCTL_PROFILE". One sentence on failure. */
export function profileNameMessage(where: string, name: string, problem: string): string {
  // The name may come from a hand-edited file or the environment: shown, never obeyed.
  return `${where} "${forTerminal(name, 80)}" ${problem}; choose a profile name such as work or client-2.`;
}
