import { UsageError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/output/dry-run.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareCreate } from './index.js';

export const run: Verb<typeof declareCreate> = async (ctx, opts, name) => {
  const trimmed = name.trim();
  if (!trimmed) throw new UsageError('The group name is empty.', `Give a name, for example: ${suggest(ctx, 'groups', 'create', 'Newsletter')}`);
  const client = await ctx.campaign();
  const created = await client.createGroup(trimmed);
  if (opts.dryRun) return printDryRun(ctx);
  const { sn } = created;
  if (ctx.io.json) ctx.io.printJson({ sn, name: trimmed });
  else if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} Created group "${forTerminal(trimmed, 100)}" with code ${forTerminal(sn, 60)}`);
  else ctx.io.out(forTsvCell(sn));
};
