import { UsageError } from '../../src/core/errors.js';
import type { Group } from '../../src/api/campaign-types.js';
import { printList, type Column } from '../../src/run/output/format.js';
import { parseWhole } from '../../src/core/parse-whole.js';
import { completionScope, listAllGroups } from '../../src/groups/find.js';
import { mergeGroupCache } from '../../src/config/completion-cache.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareList } from './index.js';

export const GROUP_COLUMNS: Column<Group>[] = [
  { header: 'CODE', value: (g) => g.sn },
  { header: 'NAME', value: (g) => g.name },
  { header: 'STATUS', value: (g) => g.status },
  { header: 'SUBSCRIBED', value: (g) => g.subscribedCnt, kind: 'count' },
  { header: 'EXCLUDED', value: (g) => g.excludeCnt, kind: 'count' },
  // The service's rates are fractions (0.231): a table shows 23.1%, TSV and CSV the fraction.
  { header: 'OPEN RATE', value: (g) => g.openedRate, kind: 'rate' },
  { header: 'CLICK RATE', value: (g) => g.clickedRate, kind: 'rate' },
  { header: 'UPDATED', value: (g) => g.updateDate ?? g.createDate, kind: 'date' },
];

export const run: Verb<typeof declareList> = async (ctx, opts) => {
  const page = opts.page === undefined ? undefined : parseWhole(opts.page, '--page', 0);
  const size = opts.size === undefined ? undefined : parseWhole(opts.size, '--size', 1);
  if (opts.all && page !== undefined) throw new UsageError('--all and --page cannot be used together.', 'Use --all to walk every page, or --page N for one page.');
  const client = await ctx.campaign();
  let groups: Group[];
  if (opts.all) groups = await listAllGroups(ctx, size ?? 100, { untilEmpty: true }); // decisions row P13
  else {
    groups = await client.listGroups(page, size);
    // One page: refresh the completion cache with what it showed (--all rewrites it whole).
    mergeGroupCache(ctx.configDir, await completionScope(ctx), groups);
  }
  const empty = page ? `No groups on page ${page}; the first page is \`${suggest(ctx, 'groups', 'list')}\`.` : `No groups yet; make one with \`${suggest(ctx, 'groups', 'create', 'NAME')}\`, or import contacts with --create-group.`;
  await printList(ctx.io, groups, GROUP_COLUMNS, groups, { empty });
};
