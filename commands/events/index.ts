import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  program
    .command('events')
    .description('look up delivery events of transactional email (or SMS with --sms)')
    .option('--sms', 'SMS events instead of email')
    .option('--id <id>', 'a message id (from `mailctl send`)')
    .option('--recipient <address>', 'an email address, or with --sms a national number')
    .option('--country-code <code>', 'with --sms --recipient: the calling code (e.g. 886)')
    .option('--from <time>', 'start: 2024-05-01, 2024-05-01T08:00Z, or a span back such as 7d (UTC)')
    .option('--to <time>', 'end: a date (to its last second), a time, or a span back such as 1h (UTC; default now)')
    .option('--status <list>', 'comma-separated: accept,retry,delivery,open,click,bounce,complaint (SMS: accept,delivery,bounce)')
    .option('--csv', 'CSV with a header row, for spreadsheets')
    .addHelpText('after', `
SMS lookups cover the last 30 days only and return at most the first 50 rows; mailctl says so
when a lookup reaches either limit. To keep complete history, receive webhooks
(\`mailctl webhook listen\`) and store them.

Examples:
  mailctl events --recipient ann@example.com --status bounce,complaint
  mailctl events --from 7d --csv > events.csv
  mailctl events --sms --recipient 0912345678 --country-code 886`)
    .action(action(() => import('./lookup.js')));
}
