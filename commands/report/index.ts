import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  const report = program.command('report').alias('reports').description('campaign reports: finished campaigns, metrics, detail files');
  report
    .command('list')
    .alias('ls')
    .description('list finished campaigns: the 10 most recent, or all in a date range')
    .option('--from <date>', 'start of the range: YYYY-MM-DD (UTC day) or an ISO date-time; needs --to')
    .option('--to <date>', 'end of the range (that whole day when a date); needs --from')
    .action(action(() => import('./list.js')));
  report
    .command('metrics')
    .description('delivery, open, click, bounce numbers and rates (A/B campaigns: total, test A, test B, winner)')
    .argument('<codes...>', 'campaign codes')
    .option('--csv', 'print CSV for spreadsheets (rates as fractions)')
    .addHelpText('after', '\nRates: delivered/recipients; opened, clicked, unsubscribed, complained per delivered; bounced/recipients.')
    .action(action(() => import('./metrics.js')));
  report
    .command('export')
    .description('generate the detail CSV files (delivery, open, click, bounce, unsubscribe, complain)')
    .argument('<code>', 'campaign code')
    .option('--wait', 'wait until the files are ready and print their links')
    .option('--out <dir>', 'wait, then download the files into this directory')
    .option('--force', 'with --out: overwrite files already there')
    .option('--webhook-url <url>', 'the service POSTs the links here when the files are ready')
    .option('--timeout <duration>', 'give up waiting after this long (default 10m)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
The service takes 1 export per 10 seconds (mailctl paces itself) and ignores a repeat for the same
campaign within an hour; files are regenerated only when there is new data. Downloads go to the
file host without your API key.`)
    .action(action(() => import('./export.js')));
  report
    .command('links')
    .description('show the links of the exported detail files')
    .argument('<code>', 'campaign code')
    .option('--out <dir>', 'download the files into this directory')
    .option('--force', 'with --out: overwrite files already there')
    .action(action(() => import('./links.js')));
  report
    .command('sync')
    .description('keep a directory complete with the detail files of every finished campaign (for cron)')
    .requiredOption('--out <dir>', 'the directory to keep (created if missing): DIR/<finished-date>_<code>/<type>.csv, manifest.csv')
    .option('--since <duration>', 'campaigns finished in this last span, e.g. 30d or 12h (default: 30d on the first run, then since the last run less 2 days)')
    .option('--from <date>', 'start of an explicit range (YYYY-MM-DD or ISO date-time); needs --to')
    .option('--to <date>', 'end of an explicit range (that whole day when a date); needs --from')
    .option('--refresh-days <n>', 're-export campaigns finished in the last N days (at most once an hour each) to pick up late opens and clicks')
    .option('--wait-lock [duration]', 'if another sync holds DIR, wait for it (default 10m) instead of exiting with LOCKED')
    .option('--timeout <duration>', 'give up on a campaign whose files are not ready after this long (default 10m)')
    .addHelpText('after', `
Exit: 0 all complete · 5 some campaigns failed (listed), others synced · 4 nothing synced because of
limits, network or time-outs · 1 nothing synced (the service refused) · 6 DIR locked by another run
(--json error code LOCKED) · 2 bad flags. Without a terminal: one summary line on stderr (-v also
lists the files downloaded, on stdout). Exports are paced to 1 per 10 s and never repeated for a
campaign within an hour; complete files (checked by sha256) are never downloaded again.`)
    .action(action(() => import('./sync.js')));
}
