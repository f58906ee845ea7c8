import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export function register(program: Command, action: ActionFactory): void {
  declareShow(program).action(action(() => import('./show.js')));
}

export function declareShow(program: CommandUnknownOpts) {
  return program
    .command('balance')
    .description('show the remaining email and SMS balance')
    .addHelpText('after', `
Examples:
  mailctl balance
  mailctl balance --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
