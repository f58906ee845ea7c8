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
    .description('show one template; --out writes its html to a file, --web opens it as a recipient sees it')
    .argument('<id>', 'template id')
    .option('--out <file>', 'write the html to this file ("-" for stdout)')
    .option('--force', 'overwrite --out if it exists')
    .option('--web', 'write a preview page (the html in a sandboxed frame, with the preflight findings) and open it in the default browser')
    .addHelpText('after', `
--web writes the page to a new file in the config folder's previews/ and prints its path; where
there is no browser to open (no graphical session, no xdg-open) it says so and still exits 0.
\`mailctl campaign preview --template ID\` shows a template inside a campaign, fields filled from a contact.

Examples:
  mailctl template show tpl_welcome
  mailctl template show tpl_monthly --out monthly.html
  mailctl template show tpl_monthly --out - > monthly-copy.html
  mailctl template show tpl_welcome --web`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
