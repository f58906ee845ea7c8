import { Argument, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/main.js';

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

For zsh, the folder must be on fpath: add \`fpath=(~/.zfunc $fpath)\` before \`compinit\` in ~/.zshrc.
Open a new shell afterwards.

Examples:
  mailctl completion bash > ~/.local/share/bash-completion/completions/mailctl
  mailctl completion zsh > ~/.zfunc/_mailctl
  mailctl completion fish > ~/.config/fish/completions/mailctl.fish`);
}
