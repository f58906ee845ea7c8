import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export function register(program: Command, action: ActionFactory): void {
  declareRun(program).action(action(() => import('./run.js')));
}

export function declareRun(program: CommandUnknownOpts) {
  return program
    .command('doctor')
    .description('check the set-up: each setting and where it comes from, keys (one cheap call per service), config folder, clock, Node')
    .addHelpText('after', `
Exit: 0 all is well · 3 a key is missing or refused, or the config folder is not private · 4 a service cannot be reached · 1 a service answered in no shape mailctl knows.

Examples:
  mailctl doctor
  mailctl doctor --json
  mailctl --profile staging doctor`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
