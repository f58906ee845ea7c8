import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export function register(program: Command, action: ActionFactory): void {
  const t = program.command('template').alias('templates').description('email templates')
    .addHelpText('after', `
Templates are made in the back office; a campaign uses one with --template ID.

Examples:
  mailctl template list
  mailctl template show tpl_welcome`);
  declareList(t).action(action(() => import('./list.js')));
  declareShow(t).action(action(() => import('./show.js')));
}

export function declareList(t: CommandUnknownOpts) {
  return t.command('list').alias('ls').description('list templates and the account capacity')
    .addHelpText('after', `
Examples:
  mailctl template list
  mailctl template list --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareShow(t: CommandUnknownOpts) {
  return t.command('show')
    .description('show one template; --out writes its html to a file')
    .argument('<id>', 'template id')
    .option('--out <file>', 'write the html to this file ("-" for stdout)')
    .option('--force', 'overwrite --out if it exists')
    .addHelpText('after', `
Examples:
  mailctl template show tpl_welcome
  mailctl template show tpl_monthly --out monthly.html
  mailctl template show tpl_monthly --out - > monthly-copy.html`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
