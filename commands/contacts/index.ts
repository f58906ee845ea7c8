import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';
import { collect } from '../../src/cli/collect.js';


export function register(program: Command, action: ActionFactory): void {
  const contacts = program.command('contacts').alias('contact').description('contacts in groups (import them with `mailctl import`)');
  contacts
    .command('remove')
    .alias('rm')
    .description('remove contacts from a group, by address or by filter (they stay in other groups)')
    .option('--group <name-or-code>', 'group to remove them from (required)')
    .option('--email <address>', 'address to remove (repeatable; commas allowed)', collect)
    .option('--emails-file <file>', 'file with one address per line (a CSV: first column); - reads standard input')
    .option('--where <filter>', 'e.g. "DOMAIN like example.com", "NAME = Ann"; columns NAME, MAIL_ADDRESS, DOMAIN, LISTSN or a custom field; operators = != like "not like" (repeatable)', collect)
    .option('-y, --yes', 'do not ask for confirmation (needed when there is no terminal)')
    .option('--dry-run', 'show the request without sending it (the group is not looked up)')
    .action(action(() => import('./remove.js')));
}
