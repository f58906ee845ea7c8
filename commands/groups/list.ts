import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import type { Group } from '../../src/api/campaign-types.js';
import { printList, type Column } from '../../src/output/format.js';
import { parseWhole } from '../../src/cli/parse.js';

interface Opts {
  page?: string;
  size?: string;
  all?: boolean;
}

export const GROUP_COLUMNS: Column<Group>[] = [
  { header: 'CODE', value: (g) => g.sn },
  { header: 'NAME', value: (g) => g.name },
  { header: 'STATUS', value: (g) => g.status },
  { header: 'SUBSCRIBED', value: (g) => g.subscribedCnt },
  { header: 'EXCLUDED', value: (g) => g.excludeCnt },
  { header: 'OPEN RATE', value: (g) => rate(g.openedRate) },
  { header: 'CLICK RATE', value: (g) => rate(g.clickedRate) },
  { header: 'UPDATED', value: (g) => g.updateDate ?? g.createDate, date: true },
];

function rate(r: number | undefined): string {
  return r === undefined || r === null ? '' : `${(r * 100).toFixed(1)}%`;
}

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const page = opts.page === undefined ? undefined : parseWhole(opts.page, '--page', 0);
  const size = opts.size === undefined ? undefined : parseWhole(opts.size, '--size', 1);
  if (opts.all && page !== undefined) throw new UsageError('--all and --page cannot be used together.', 'Use --all to walk every page, or --page N for one page.');
  const client = await ctx.campaign();
  let groups: Group[];
  if (opts.all) groups = await listAllGroups(ctx, size ?? 100);
  else groups = await client.listGroups(page, size);
  await printList(ctx.io, groups, GROUP_COLUMNS);
}

/** Every page in turn until a short page; the client's limiter paces the calls to 2/s. */
export async function listAllGroups(ctx: Context, size = 100): Promise<Group[]> {
  const client = await ctx.campaign();
  const out: Group[] = [];
  const seen = new Set<string>();
  const spin = await ctx.io.spinner('Fetching groups…');
  try {
    for (let page = 0; ; page++) {
      const batch = await client.listGroups(page, size);
      // A server that ignores paging returns the same rows again: stop instead of looping.
      const fresh = batch.filter((g) => !seen.has(g.sn));
      fresh.forEach((g) => seen.add(g.sn));
      out.push(...fresh);
      spin.text(`Fetching groups… ${out.length}`);
      if (batch.length < size || fresh.length === 0) break;
    }
  } finally {
    spin.stop();
  }
  return out;
}
