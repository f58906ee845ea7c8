import { Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import type { OptsOf } from '../../src/cli/declared.js';
import { inheritParentOptions } from '../../src/cli/parent-options.js';
import { rangeOptions } from '../../src/cli/range-options.js';
import { offer, type OfferContext } from '../../src/run/offer.js';

/** The statuses `--status` takes (commands/events/query.ts checks them; test/completion.test.ts keeps these equal). */
export const STATUS_VALUES = {
  email: ['accept', 'retry', 'delivery', 'open', 'click', 'bounce', 'complaint'],
  sms: ['accept', 'delivery', 'bounce'],
};
const statuses = (c: OfferContext) => (c.flags.has('--sms') ? STATUS_VALUES.sms : STATUS_VALUES.email);

/** The options `events tail` shares with `events` (commander hands them to `events`). */
const TAIL_SHARES: (keyof OptsOf<typeof declareTail>)[] = ['sms', 'id', 'recipient', 'countryCode', 'status', 'since', 'until', 'history', 'store'];
const STORE_HELP = 'with --history: sqlite:PATH or postgres://… (default: events.db in the config folder)';

export function register(program: Command, action: ActionFactory): void {
  const events = declareEvents(program).action(action(() => import('./lookup.js')));
  const exportRun = action(() => import('./export.js'));
  declareExport(events).action(async (opts, cmd) => {
    await inheritParentOptions(cmd, ['since', 'until', 'sms', 'store'], 'mailctl events export --since TIME [--until TIME] --format csv|jsonl [--sms] [--out FILE] [--store WHERE]');
    return exportRun(opts, cmd);
  });
  const pruneRun = action(() => import('./prune.js'));
  declarePrune(events).action(async (opts, cmd) => {
    await inheritParentOptions(cmd, ['store'], 'mailctl events prune --older-than DURATION [--store WHERE] [--dry-run | --yes]');
    return pruneRun(opts, cmd);
  });
  const tail = action(() => import('./tail.js'));
  declareTail(events).action(async (opts, cmd) => {
    await inheritParentOptions(cmd, TAIL_SHARES, 'mailctl events tail [--sms] [--id ID | --recipient ADDR] [--status LIST] [--since TIME] [--until TIME | --for DUR] [--interval DUR]');
    return tail(opts, cmd);
  });
}

export function declareEvents(program: CommandUnknownOpts) {
  return rangeOptions(program
    .command('events')
    .description('look up delivery events of transactional email (or SMS with --sms)')
    .option('--sms', 'SMS events instead of email')
    .option('--id <id>', 'a message id (from `mailctl send`)')
    .option('--recipient <address>', 'an email address, or with --sms a national number')
    .option('--country-code <code>', 'with --sms --recipient: the calling code (e.g. 886)'), {
    since: 'start: 2024-05-01, 2024-05-01T08:00Z, or a span back such as 7d (UTC)',
    until: 'end: a date (to its last second), a time, or a span back such as 1h (UTC; default now)',
  })
    .addOption(offer(new Option('--status <list>', 'only these statuses, comma-separated: accept,retry,delivery,open,click,bounce,complaint (SMS: accept,delivery,bounce)'), statuses, { list: true }))
    .option('--csv', 'CSV with a header row, for spreadsheets')
    .option('--history', 'answer from the event store `webhook listen` fills: any age, no row cap')
    .option('--store <where>', STORE_HELP)
    .addHelpText('after', `
--history answers from the event store instead of the service (docs/events-store.md): every
event \`mailctl webhook listen\` received, however old, with the same filters (--since/--until
bound the event's own time); --json says "source": "store".
SMS lookups cover the last 30 days only and return at most the first 50 rows; mailctl says so
when a lookup reaches either limit (an earlier --since starts at the 30-day limit). To keep complete history, receive webhooks
(\`mailctl webhook listen\`) and store them.

Examples:
  mailctl send --to bounce@example.com --subject "Hi" --html "<p>Hi</p>"
  mailctl events --recipient bounce@example.com --status bounce,complaint
  mailctl webhook listen --port 0       # until Ctrl-C (makes the event store)
  mailctl events --history --recipient bounce@example.com --since 2024-09-01 --until 2024-09-30
  mailctl events --since 7d --csv > events.csv
  mailctl events --sms --recipient 0912345678 --country-code 886 --since 7d`);
}

export function declareTail(events: CommandUnknownOpts) {
  // Commander hands the range flags to `events` (its options win); inheritParentOptions passes them on.
  return rangeOptions(events
    .command('tail')
    .description('follow new events as they arrive (polling the lookup), until Ctrl-C or --for')
    .option('--sms', 'SMS events instead of email (needs --id, or --recipient with --country-code)')
    .option('--id <id>', 'only this message id')
    .option('--recipient <address>', 'only this email address, or with --sms this national number')
    .option('--country-code <code>', 'with --sms --recipient: the calling code (e.g. 886)')
    .addOption(offer(new Option('--status <list>', 'comma-separated statuses to show (as for `mailctl events`)'), statuses, { list: true })), {
    since: 'also show events since then: a span back such as 10m, or a time (an earlier one warns and starts at the 30-day limit; default: only new ones)',
    until: 'stop at this time (or use --for; default: until Ctrl-C)',
  })
    .option('--interval <duration>', 'time between lookups (default 5s, at least 2s)')
    .option('--for <duration>', 'stop after this long (default: until Ctrl-C)')
    .option('--history', 'follow the event store `webhook listen` fills instead of the service\'s lookup')
    .option('--store <where>', STORE_HELP)
    .addHelpText('after', `
--history follows the event store: each event as a listener stores it (--since: received since
then), read every --interval (at least 1s with --history), with no row cap.
On a terminal each event is one line (its local time, the status coloured unless NO_COLOR);
piped each is one JSON object per line (NDJSON), a stream \`mailctl events tail | jq\` reads as
it comes. --json (or --query) prints ONE document instead,
{channel, since, until, stopped, count, events: [...]}, when the tail ends: at --for/--until, or on
Ctrl-C (with neither, it holds the events until Ctrl-C; give --for in scripts). Nothing is shown
twice. Ctrl-C ends it with exit 0.
A lookup returns at most 50 rows: when one comes back full, the tail warns once, reads on from
its newest row instead of stalling on the same 50, and looks back only 10 s from then on.

Examples:
  mailctl events tail --status bounce,complaint            # until Ctrl-C
  mailctl events tail --since 10m --for 1m > events.ndjson
  mailctl events tail --since 1h --for 30s --json          # one document at the end
  mailctl events tail --sms --recipient 0912345678 --country-code 886 --for 30s
  mailctl webhook listen --port 0       # until Ctrl-C (makes the event store)
  mailctl events tail --history --status bounce,complaint --for 1m`);
}

export function declareExport(events: CommandUnknownOpts) {
  return events
    .command('export')
    .description('write the stored events of a time range (the event store) as CSV or JSONL')
    .option('--since <time>', 'start (required): a date, a time, or a span back such as 30d (UTC)')
    .option('--until <time>', 'end: a date (to its last second), a time, or a span back (default now)')
    .addOption(new Option('--format <format>', 'csv (one row per event, for spreadsheets) or jsonl (the --out lines of webhook listen, for webhook replay)').choices(['csv', 'jsonl']))
    .option('--sms', 'SMS events instead of email')
    .option('--out <file>', 'write here (created 0600, in place only when complete) instead of stdout')
    .option('--force', 'with --out: replace an existing file')
    .option('--store <where>', 'sqlite:PATH or postgres://… (default: events.db in the config folder)')
    .addHelpText('after', `
Reads the event store \`mailctl webhook listen\` fills (docs/events-store.md), oldest first, by
each event's own time. CSV columns: channel, message_id, event, recipient, subject, timestamp
(ISO), received_at (ISO), payload (JSON); a cell that starts like a formula is prefixed with '.
JSONL lines are those of \`webhook listen --out\`, so \`webhook replay FILE\` sends them again.

Examples:
  mailctl webhook listen --port 0       # until Ctrl-C (makes the event store)
  mailctl events export --since 30d --format csv --out events.csv
  mailctl events export --since 2024-09-01 --until 2024-09-30 --format jsonl > september.jsonl`);
}

export function declarePrune(events: CommandUnknownOpts) {
  return events
    .command('prune')
    .description('delete stored events older than a span from the event store')
    .option('--older-than <duration>', 'required: events whose own time is further back than this, e.g. 400d')
    .option('--store <where>', 'sqlite:PATH or postgres://… (default: events.db in the config folder)')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'count what would be deleted; delete nothing')
    .addHelpText('after', `
Deletes from the event store (docs/events-store.md) every event whose own time (its receipt,
when it has none) is older than --older-than. \`webhook listen --keep 400d\` does the same at
start and daily. The deleted events cannot be brought back.

Examples:
  mailctl webhook listen --port 0       # until Ctrl-C (makes the event store)
  mailctl events prune --older-than 400d --dry-run
  mailctl events prune --older-than 400d --yes`);
}
