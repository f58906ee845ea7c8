import { UsageError } from '../../src/core/errors.js';
import { lookup, printDryRun } from '../../src/run/output/dry-run.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import { suggest } from '../../src/core/suggest.js';
import { groupsNamed, listAllGroups } from '../../src/groups/find.js';
import { plural } from '../../src/core/human.js';
import type { Context } from '../../src/run/context.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareCreate } from './index.js';

export const run: Verb<typeof declareCreate> = async (ctx, opts, name) => {
  const trimmed = name.trim();
  if (!trimmed) throw new UsageError('The group name is empty.', `Give a name, for example: ${suggest(ctx, 'groups', 'create', 'Newsletter')}`);
  if (!opts.allowDuplicate) await refuseTakenName(ctx, trimmed);
  const client = await ctx.campaign();
  const created = await client.createGroup(trimmed);
  if (opts.dryRun) return printDryRun(ctx);
  const { sn } = created;
  if (ctx.io.json) ctx.io.printJson({ sn, name: trimmed });
  else if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} Created group "${forTerminal(trimmed, 100)}" with code ${forTerminal(sn, 60)}`);
  else ctx.io.out(forTsvCell(sn));
};

/**
 * The service lets two groups share a name, and from then on every --group naming it is refused
 * as ambiguous. So a name that --group would already find (src/groups/find.ts groupsNamed) is refused
 * (exit 2, nothing created), naming the group that has it; --allow-duplicate creates it anyway.
 * The walk is complete (decisions row P13): a group on a later page counts too.
 */
async function refuseTakenName(ctx: Context, name: string): Promise<void> {
  const why = `the groups, to check that no group is named "${forTerminal(name, 100)}" already; taken as none here`;
  const all = await lookup(ctx, why, () => listAllGroups(ctx, 100, { untilEmpty: true }), () => []);
  const same = groupsNamed(all, name);
  if (!same.length) return;
  const members = (n: unknown) => (typeof n === 'number' ? `, ${plural(n, 'valid member')}` : '');
  const which = same.map((g) => `${forTerminal(g.sn, 60)} ("${forTerminal(g.name, 100)}"${members(g.subscribedCnt)})`).join(', ');
  throw new UsageError(
    `${same.length === 1 ? 'A group' : `${same.length} groups`} named "${forTerminal(name, 100)}" already ${same.length === 1 ? 'exists' : 'exist'}: ${which}. Nothing was created.`,
    `Use it with --group ${forTerminal(same[0].sn, 60)}, or create a second group of that name with \`${suggest(ctx, 'groups', 'create', name, '--allow-duplicate')}\` (then commands need its code: the name finds both).`,
  );
}
