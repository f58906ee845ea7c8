import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export function register(program: Command, action: ActionFactory): void {
  const sms = program.command('sms').description('SMS account settings (to send SMS: mailctl send sms)')
    .addHelpText('after', `
Examples:
  mailctl sms numbers
  mailctl send sms --to 0912345678 --country-code 886 --text "【Acme】Your code is {{code}}" --var code=A1B2`);
  declareNumbers(sms).action(action(() => import('./numbers.js')));
}

export function declareNumbers(sms: CommandUnknownOpts) {
  return sms.command('numbers').description('list the exclusive sending numbers of the account')
    .addHelpText('after', `
Examples:
  mailctl sms numbers
  mailctl sms numbers --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
