import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';

export function register(program: Command, action: ActionFactory): void {
  const contacts = program.command('contacts').alias('contact').description('contacts in groups (import them with `mailctl import`)')
    .addHelpText('after', `
Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group
  mailctl contacts remove --group Newsletter --email amy.wang0@example.com --yes
  mailctl contacts clean --group Newsletter --since 30d`);
  declareRemove(contacts).action(action(() => import('./remove.js')));
  declareClean(contacts).action(action(() => import('./clean.js')));
}

export function declareRemove(contacts: CommandUnknownOpts) {
  return contacts
    .command('remove')
    .alias('rm')
    .description('remove contacts from a group, by address or by filter (they stay in other groups)')
    .option('--group <name-or-code>', 'group to remove them from (required)')
    .option('--email <address>', 'address to remove (repeatable; commas allowed)', collect)
    .option('--emails-file <file>', 'file with one address per line (a CSV: first column); - reads standard input')
    .option('--where <filter>', 'e.g. "DOMAIN like example.com", "NAME = Ann"; columns NAME, MAIL_ADDRESS, DOMAIN, LISTSN or a custom field; operators = != like "not like" (repeatable)', collect)
    .option('-y, --yes', 'do not ask for confirmation (needed when there is no terminal)')
    .option('--dry-run', 'show the request without sending it (the group lookup is shown, not made)')
    .addHelpText('after', `
Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl contacts remove --group Newsletter --email amy.wang0@example.com --email ben.wang1@example.com --yes
  mailctl contacts remove --group Newsletter --where "DOMAIN like example.com" --where "NAME != Ann" --dry-run
  printf 'chen.wang2@example.com\\n' | mailctl contacts remove --group Newsletter --emails-file - --yes`);
}

export function declareClean(contacts: CommandUnknownOpts) {
  return contacts
    .command('clean')
    .description('remove addresses that bounced or complained (transactional events) from a campaign group: a plan first')
    .option('--group <name-or-code>', 'the campaign group to clean (required)')
    .option('--since <time>', 'look at events since then: a span back such as 30d, or a date (default 30d, at most a year)')
    .option('--until <time>', 'look at events up to then (default now)')
    .option('--include-temporary', 'also remove addresses with temporary (soft) bounces')
    .option('--history', 'take the bounces and complaints from the event store `webhook listen` fills (any age) instead of the service')
    .option('--store <where>', 'with --history: sqlite:PATH or postgres://… (default: events.db in the config folder)')
    .option('-y, --yes', 'apply the plan (without it, the plan is only shown)')
    .option('--dry-run', 'show the lookups and the removal a run would make, and make no request (without --yes a run only shows the plan)')
    .addHelpText('after', `
Reads the notification service's bounce and complaint events (one UTC day per lookup; a day
that returns a round count, which may be the lookup's row cap, is read again in smaller
ranges, and one still round is reported), keeps permanent bounces and complaints (temporary
bounces with --include-temporary), and removes those addresses from the group in batches of
100. The API cannot list a group's members, so the plan holds every address that bounced or
complained; the service ignores those not in the group, and mailctl reports the count it gives
back (updated_count). The group keeps everyone else; the addresses stay in other groups.
Exit 5 when some batches failed (running the same command again finishes them).
With --history the bounces and complaints come from the event store instead (every webhook
\`mailctl webhook listen\` received, any age: --since may reach back further than a year);
--json then says "source": "store".

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl contacts clean --group Newsletter --since 30d
  mailctl contacts clean --group Newsletter --since 30d --yes`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
