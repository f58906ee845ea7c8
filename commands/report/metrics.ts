import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { printList } from '../../src/output/format.js';
import { METRIC_COLUMNS, metricsCsv, orderRows, ratesOf } from '../../src/report/metrics.js';
import { suggest } from '../../src/cli/suggest.js';

export async function run(ctx: Context, opts: { csv?: boolean }, sns: string[]): Promise<void> {
  if (opts.csv && ctx.io.json) throw new UsageError('Choose one output: --csv or --json.');
  const codes = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!codes.length) throw new UsageError(`Name at least one campaign code: ${suggest(ctx, 'report', 'metrics', 'CODE...')}`, `Find codes with \`${suggest(ctx, 'report', 'list')}\`.`);
  const client = await ctx.campaign();
  const rows = orderRows(await client.metrics(codes), codes);
  if (opts.csv) {
    ctx.io.stdout.write(metricsCsv(rows));
    return;
  }
  await printList(ctx.io, rows, METRIC_COLUMNS, rows.map((m) => ({ ...m, rates: ratesOf(m) })));
  const missing = codes.filter((sn) => !rows.some((r) => r.campaignSn === sn));
  if (missing.length) ctx.io.warn(`No metrics for ${missing.join(', ')}.`);
}
