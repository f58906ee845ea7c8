// A flag that takes one value, given twice, is refused (exit 2) before anything is read or sent:
// commander keeps the last value without a word, so `send --subject a --subject b` sent "b" and
// `send --to a --to b` sent to b only while reporting "1 of 1 accepted". One mechanism for every
// command, the root's global options included, hooked where main.ts makes every command throw
// instead of exiting: it counts commander's own `option:NAME` events, which fire for every
// spelling (`--subject a`, `--subject=a`, `-x a`, `-xa`) in the order typed.
//
// Not counted:
// - flags declared repeatable: a variadic option, or one that collects its values (`collect`,
//   src/core/collect.ts: --to where several recipients make sense, --var, --set, --route, …);
// - flags without a value (--json, --dry-run, -q, --no-input): giving one twice means the same
//   as once, so it is harmless and accepted.
// Loaded at every start-up: commander types and the collector only.
import type { Command, Option } from 'commander';
import { collect } from '../core/collect.js';

/** Whether a flag may be given more than once: it is variadic or collects its values. */
export function isRepeatable(o: Option): boolean {
  return o.variadic || o.parseArg === (collect as Option['parseArg']);
}

/** Whether a second use of the flag is refused: it takes a value (required or optional) and is not repeatable. */
export function takesOneValue(o: Option): boolean {
  return (o.required || o.optional) && !isRepeatable(o);
}

/** The flag as users type it: its long form, else its short one. */
function flagOf(o: Option): string {
  return o.long ?? o.short ?? o.flags;
}

/** Makes `cmd` refuse a second use of each of its single-value options, through commander's own error path (exit 2). */
export function refuseRepeats(cmd: Command): void {
  for (const o of cmd.options) {
    if (!takesOneValue(o)) continue;
    let seen = 0;
    cmd.on(`option:${o.name()}`, () => {
      if (++seen < 2) return;
      cmd.error(`error: ${flagOf(o)} was given more than once; it takes one value, and mailctl will not guess which one you meant. Give it once.`, { exitCode: 2, code: 'mailctl.repeatedOption' });
    });
  }
}
