import { Argument, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { INSTALL, ZSH_FPATH } from '../../src/cli/completion-scripts.js';

export function register(program: Command, action: ActionFactory): void {
  declarePrint(program).action(action(() => import('./print.js')));
}

export function declarePrint(program: CommandUnknownOpts) {
  return program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', `
Nouns, verbs, flags and their values complete; group names and codes come from a local cache
that every command listing groups refreshes (kept an hour), so a Tab never waits for the network.

For zsh, the folder must be on fpath: add ${ZSH_FPATH}.
Open a new shell afterwards.

Examples:
  ${INSTALL.bash}
  ${INSTALL.zsh}
  ${INSTALL.fish}`);
}
