import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { outDirOptions } from '../../src/report/out-dir-options.js';
import { rangeOptions } from '../../src/cli/range-options.js';
import type { ActionFactory } from '../../src/cli/declared.js';
import { campaignCodeArgument } from '../../src/run/offer.js';

// The report commands write into a folder: --out-dir DIR (outDirOptions); a time range is
// --since/--until (rangeOptions). docs/flags.md has the shared names.

export function register(program: Command, action: ActionFactory): void {
  const report = program.command('report').alias('reports').description('campaign reports: finished campaigns, metrics, detail files')
    .addHelpText('after', `
Reports are about campaigns that have been sent; CP123 stands for a campaign code.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --file examples/campaign.json
  mailctl campaign status CP123 --wait
  mailctl report list
  mailctl report metrics CP123
  mailctl report export CP123 --out-dir reports`);
  declareList(report).action(action(() => import('./list.js')));
  declareMetrics(report).action(action(() => import('./metrics.js')));
  declareExport(report).action(action(() => import('./export.js')));
  declareLinks(report).action(action(() => import('./links.js')));
  declareSync(report).action(action(() => import('./sync.js')));
}

export function declareList(report: CommandUnknownOpts) {
  return rangeOptions(report
    .command('list')
    .alias('ls')
    .description('list finished campaigns: the 10 most recent, or all in a date range'), {
    since: 'start of the range: YYYY-MM-DD (UTC day), an ISO date-time, or a span back such as 30d',
    until: 'end of the range (that whole day when a date; default now); needs --since',
  })
    .addHelpText('after', `
Examples:
  mailctl report list
  mailctl report list --since 30d --json
  mailctl report list --since 2026-11-01 --until 2026-11-30`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareMetrics(report: CommandUnknownOpts) {
  return report
    .command('metrics')
    .description('delivery, open, click, bounce numbers and rates (A/B campaigns: total, A, B and the winner, named A or B)')
    .addArgument(campaignCodeArgument('<codes...>', 'campaign codes'))
    .option('--csv', 'print CSV with a header row, for spreadsheets: every field, rates as fractions')
    .addHelpText('after', `
Rates: delivered/recipients; opened, clicked, unsubscribed, complained per delivered; bounced/recipients.
On a terminal the table is followed by the delivered, opened, clicked and bounced rates as bars,
an A/B test's versions side by side with the winner named and why (piped, --json and --csv: data only).

Exit codes: 0 metrics for every code · 5 some codes have none (named on stderr; no such campaign,
or not sent yet) · 1 none of them has any.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --file examples/campaign.json
  mailctl campaign status CP123 --wait
  mailctl report metrics CP123
  mailctl report metrics CP123 --csv > metrics.csv`);
}

export function declareExport(report: CommandUnknownOpts) {
  return outDirOptions(report
    .command('export')
    .description('generate the detail CSV files (delivery, open, click, bounce, unsubscribe, complain)')
    .addArgument(campaignCodeArgument('<code>', 'campaign code'))
    .option('--wait', 'wait until the files are ready and print their links'), 'wait, then download the files into this directory')
    .option('--force', 'with --out-dir: overwrite files already there')
    .option('--webhook-url <url>', 'the service POSTs the links here when the files are ready')
    .option('--timeout <duration>', 'give up waiting, or a download that has not finished, after this long (default 10m)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
The service takes 1 export per 10 seconds (mailctl paces itself) and ignores a repeat for the same
campaign within an hour; files are regenerated only when there is new data. Downloads go to the
file host without your API key.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --file examples/campaign.json
  mailctl campaign status CP123 --wait
  mailctl report export CP123 --wait
  mailctl report export CP123 --out-dir reports --force
  mailctl report export CP123 --dry-run`);
}

export function declareLinks(report: CommandUnknownOpts) {
  return outDirOptions(report
    .command('links')
    .description('show the links of the exported detail files')
    .addArgument(campaignCodeArgument('<code>', 'campaign code')), 'download the files into this directory')
    .option('--force', 'with --out-dir: overwrite files already there')
    .option('--timeout <duration>', 'with --out-dir: give up a file whose download has not finished after this long (default 10m)')
    .option('--dry-run', 'show the lookup and, with --out-dir, the files a run would save; read, download and write nothing')
    .addHelpText('after', `
The links exist once \`mailctl report export\` has made the files.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --file examples/campaign.json
  mailctl campaign status CP123 --wait
  mailctl report export CP123 --wait
  mailctl report links CP123
  mailctl report links CP123 --out-dir reports --dry-run
  mailctl report links CP123 --out-dir reports --force`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareSync(report: CommandUnknownOpts) {
  return rangeOptions(outDirOptions(report
    .command('sync')
    .description('keep a directory complete with the detail files of every finished campaign (for cron)')
    .argument('[dir]', 'the directory to keep, as --out-dir gives it (one or the other)'),
  'the directory to keep (created if missing; or give it as DIR): DIR/<finished-date>_<code>/<type>.csv, manifest.csv'), {
    since: 'campaigns finished since then: a span such as 30d or 12h, or a date (default: 30d on the first run, then since the last run less 2 days)',
    until: 'with --since: the end of a back-fill range (that whole day when a date); it does not move where the next run starts',
  })
    .option('--refresh-days <n>', 're-export campaigns finished in the last N days (at most once an hour each) to pick up late opens and clicks')
    .option('--wait-lock [duration]', 'if another sync holds DIR, wait for it (default 10m) instead of exiting with LOCKED')
    .option('--timeout <duration>', 'give up on a campaign whose files are not ready, or a file whose download has not finished, after this long (default 10m)')
    .option('--dry-run', 'show the listing and exports a run would make, and what DIR already holds; no request, nothing written')
    .addHelpText('after', `
Each run also reads the metrics of the campaigns finished in the last 30 days and rewrites
DIR/index.html: every campaign with its rates, their changes over time as a chart, A/B results
and links to its files; one page with no script that opens offline (docs/preview-and-dashboard.md).

Exit: 0 all complete · 5 some campaigns failed (listed), others synced, or the metrics could not be read · 4 nothing synced because of
limits, network or time-outs · 1 nothing synced (the service refused) · 6 DIR locked by another run
(--json error code LOCKED) · 2 bad flags. Without a terminal: one summary line on stderr (-v also
lists the files downloaded, on stdout). Exports are paced to 1 per 10 s and never repeated for a
campaign within an hour; complete files (checked by sha256) are never downloaded again.
A crontab line is the whole integration:
  17 * * * * mailctl report sync --out-dir /srv/reports >>/var/log/mailctl-sync.log 2>&1

Examples:
  mailctl report sync --out-dir reports
  mailctl report sync --out-dir reports --since 7d --dry-run
  mailctl report sync --out-dir reports --refresh-days 3`);
}
