// --dry-run and -y/--yes are accepted before the noun (`mailctl --dry-run groups create X`) as
// well as after the verb, but they mean something only to the commands that declare them: every
// write declares --dry-run, every destructive command --yes. Commander gives a root option
// precedence wherever it appears, so the root holds the value and the action hands it to the
// command (src/cli/main.ts); a command that does not declare the flag refuses it (exit 2)
// rather than silently ignoring a dry run it cannot do. test/write-flags.test.ts keeps every
// write and destructive command declaring its flag.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

export const DECLARED_GLOBALS = [
  { key: 'dryRun', flag: '--dry-run', why: 'changes nothing' },
  { key: 'yes', flag: '--yes', why: 'asks for no confirmation' },
] as const;

/** True when the command being run declares this flag itself (`mailctl send …` runs `send email`, which does). */
export function declares(cmd: CommandUnknownOpts, flag: string): boolean {
  return cmd.options.some((o) => o.long === flag);
}

/** --yes options that only skip the question a terminal gets: see skipsTerminalQuestion. */
const onlyOnTerminal = new WeakSet<object>();

/**
 * Marks a command's --yes as skipping only the question a terminal gets before something that
 * cannot be taken back (campaign create, send to over 100): without a terminal nothing asks and
 * nothing needs it, so the command is not destructive in the sense above (refused without --yes
 * where nobody can answer).
 */
export function skipsTerminalQuestion<T extends object>(option: T): T {
  onlyOnTerminal.add(option);
  return option;
}

/** Destructive: the command declares a --yes it needs without a terminal (not one that only skips a terminal's question). */
export function isDestructive(cmd: CommandUnknownOpts): boolean {
  const yes = cmd.options.find((o) => o.long === '--yes');
  return !!yes && !onlyOnTerminal.has(yes);
}
