import type { CampaignCode } from '../../src/api/campaign-types.js';
import { printList, type Column } from '../../src/run/output/format.js';
import { reportRange } from '../../src/report/dates.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareList } from './index.js';

const COLUMNS: Column<CampaignCode>[] = [
  { header: 'CODE', value: (c) => c.sn },
  { header: 'NAME', value: (c) => c.name },
  { header: 'SENT FROM', value: (c) => c.sentBeginDate, kind: 'date' },
  { header: 'SENT UNTIL', value: (c) => c.sentEndDate, kind: 'date' },
];

export const run: Verb<typeof declareList> = async (ctx, opts) => {
  const { startDate, endDate } = reportRange(opts, ctx.clock.now());
  const client = await ctx.campaign();
  const rows = await client.listFinishedCampaigns(startDate, endDate);
  if (!startDate && ctx.io.isTTY && !ctx.io.json && rows.length) ctx.io.info('The 10 most recent finished campaigns (give --since, and --until, for a date range):');
  const empty = startDate ? `No campaigns finished between ${startDate} and ${endDate}.` : 'No campaign has finished yet.';
  await printList(ctx.io, rows, COLUMNS, rows, { empty });
};
