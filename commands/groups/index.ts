import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export function register(program: Command, action: ActionFactory): void {
  const groups = program.command('groups').alias('group').description('contact groups (lists)')
    .addHelpText('after', `
Contacts get into a group with \`mailctl import\`; campaigns are sent to groups by name or code.

Examples:
  mailctl groups create Newsletter
  mailctl groups list
  mailctl import examples/contacts.csv --group Newsletter`);
  declareList(groups).action(action(() => import('./list.js')));
  declareCreate(groups).action(action(() => import('./create.js')));
}

export function declareList(groups: CommandUnknownOpts) {
  return groups
    .command('list')
    .alias('ls')
    .description('list contact groups')
    .option('--page <n>', 'page to show, starting at 0')
    .option('--size <n>', 'groups per page')
    .option('--all', 'walk every page (paced to the rate limit)')
    .addHelpText('after', `
Listing groups also refreshes the local names that shell completion offers for --group.

Examples:
  mailctl groups list
  mailctl groups list --all --json
  mailctl groups list --page 1 --size 20`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareCreate(groups: CommandUnknownOpts) {
  return groups
    .command('create')
    .description('create a contact group and print its code')
    .argument('<name>', 'group name')
    .option('--allow-duplicate', 'create it even when a group of that name exists')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
A name a group already has (ignoring case and surrounding spaces) is refused (exit 2), naming that
group's code: the service would make a second one, and every later --group NAME would be refused
as ambiguous. --allow-duplicate creates it anyway.

Examples:
  mailctl groups create "VIP customers"
  mailctl groups create Newsletter --dry-run`);
}
