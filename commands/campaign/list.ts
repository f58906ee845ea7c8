// mailctl campaign list — the campaigns this profile created (the ledger kept by `campaign
// create`, src/campaign/ledger.ts), newest first, each with its status now (endpoint 13, paced by
// the shared rate budget under the client); --all adds the service's finished campaigns
// (endpoint 14) that the ledger lacks.
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { parseTimeRange } from '../../src/core/date.js';
import { parseWhole } from '../../src/core/parse-whole.js';
import { suggest } from '../../src/core/suggest.js';
import { campaignLedger } from '../../src/campaign/which-ledger.js';
import { groupCacheScope, mergeCampaignCache } from '../../src/config/completion-cache.js';
import { readLedger } from '../../src/campaign/ledger.js';
import { audienceLabel, candidates, kindLabel, listCampaigns, type ListedCampaign, type Live } from '../../src/campaign/listing.js';
import { LIST_STATUSES, NOT_FOUND, sameStatus } from '../../src/campaign/list-statuses.js';
import { FAILED_STATUSES } from '../../src/campaign/statuses.js';
import { reportRange } from '../../src/report/dates.js';
import { printList, type Column } from '../../src/run/output/format.js';
import { plural } from '../../src/core/human.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareList } from './index.js';

export const DEFAULT_LIMIT = 30;

const COLUMNS: Column<ListedCampaign>[] = [
  { header: 'CODE', value: (r) => r.code },
  { header: 'NAME', value: (r) => r.name },
  { header: 'STATUS', value: (r) => r.status, paint: (r) => (FAILED_STATUSES.has(r.status) || r.status === NOT_FOUND ? 'red' : r.status === 'COMPLETE' ? 'green' : undefined) },
  { header: 'KIND', value: kindLabel },
  { header: 'TO', value: audienceLabel },
  { header: 'SCHEDULED', value: (r) => r.scheduledDate ?? '', kind: 'date' },
  { header: 'SENT', value: (r) => r.sentBeginDate ?? '', kind: 'date' },
  { header: 'CREATED', value: (r) => r.createdAt ?? '', kind: 'date' },
];

export const run: Verb<typeof declareList> = async (ctx, opts) => {
  const now = ctx.clock.now();
  // Everything the flags say is checked before the first request.
  const range = parseTimeRange({ since: opts.since, until: opts.until }, now);
  const statuses = opts.status === undefined ? undefined : parseStatuses(ctx, opts.status);
  const limit = opts.limit === undefined ? DEFAULT_LIMIT : parseWhole(opts.limit, '--limit', 1);
  const finishedRange = opts.all ? reportRange({ since: opts.since, until: opts.until }, now) : undefined;

  const file = await campaignLedger(ctx);
  const { entries, problems } = readLedger(file);
  if (problems.length) ctx.io.warn(`${plural(problems.length, 'line')} of the campaign list ${file} ${problems.length === 1 ? 'is' : 'are'} not a campaign record and ${problems.length === 1 ? 'is' : 'are'} left out: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}.`);

  const client = await ctx.campaign();
  const finished = finishedRange ? await client.listFinishedCampaigns(finishedRange.startDate, finishedRange.endDate) : [];
  const list = candidates(entries, finished, range);
  const lookups = list.filter((c) => 'entry' in c).length;
  const spin = await ctx.io.spinner(`Looking up campaign statuses… 0 of up to ${Math.min(lookups, limit)}`);
  let rows: ListedCampaign[];
  try {
    // No such campaign (deleted) is an answer; any failure stops the listing: a row is never
    // shown with a status nobody read.
    const live = async (code: string): Promise<Live> => {
      const [c] = await client.campaignStatus(code);
      return c ? { status: c.status, scheduledDate: c.scheduledDate, sentBeginDate: c.sentBeginDate, sentEndDate: c.sentEndDate } : { status: NOT_FOUND };
    };
    rows = await listCampaigns(list, { statuses, limit }, live, (n) => spin.text(`Looking up campaign statuses… ${n} of up to ${Math.min(lookups, limit)}`));
  } finally {
    spin.stop();
  }

  if (rows.length) {
    // Completion offers these codes (campaign status, pause, delete, report …).
    mergeCampaignCache(ctx.configDir, groupCacheScope(await ctx.settings()), rows.map((r) => ({ sn: r.code, name: r.name })));
  }
  const more = list.length > rows.length && rows.length === limit;
  await printList(ctx.io, rows, COLUMNS, rows, { empty: emptySentence(ctx, entries.length, !!opts.all, statuses !== undefined || range.since !== undefined || range.until !== undefined) });
  // Said on stderr in every output (a script reading 30 rows must know the list was cut): the data on stdout is unchanged.
  if (more) ctx.io.warn(`Showing the ${limit} newest; there may be more (--limit N shows more).`);
};

/** --status PREPARE,stop → the names, upper case; an unknown one is refused with the list. */
function parseStatuses(ctx: Context, text: string): Set<string> {
  const given = text.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  if (!given.length) throw new UsageError('--status is empty.', `Give one or more of: ${LIST_STATUSES.join(', ')}.`);
  const unknown = given.filter((s) => !LIST_STATUSES.includes(s));
  if (unknown.length) {
    throw new UsageError(
      `--status: ${unknown.map((s) => `"${s}"`).join(', ')} ${unknown.length === 1 ? 'is not a campaign status' : 'are not campaign statuses'}.`,
      `Give one or more of ${LIST_STATUSES.join(', ')}, comma-separated (see \`${suggest(ctx, 'campaign', 'list', '--help')}\`).`,
    );
  }
  return new Set(given.map(sameStatus));
}

function emptySentence(ctx: Context, recorded: number, all: boolean, filtered: boolean): string {
  if (filtered) return 'No campaign matches these filters.';
  if (recorded || all) return 'No campaigns to list.';
  return `No campaign has been created with this profile yet: \`${suggest(ctx, 'campaign', 'create')}\` adds each campaign it makes here. Finished campaigns made elsewhere: \`${suggest(ctx, 'campaign', 'list', '--all')}\`.`;
}
