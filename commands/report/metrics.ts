import { ExitCode, ServiceError, SilentExit, UsageError } from '../../src/core/errors.js';
import { printList } from '../../src/run/output/format.js';
import { metricColumns, metricsJson, orderRows } from '../../src/report/metrics.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareMetrics } from './index.js';
import { metricChart } from '../../src/report/chart.js';

export const run: Verb<typeof declareMetrics> = async (ctx, _opts, sns) => {
  const codes = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!codes.length) throw new UsageError(`Name at least one campaign code: ${suggest(ctx, 'report', 'metrics', 'CODE...')}`, `Find codes with \`${suggest(ctx, 'report', 'list')}\`.`);
  const client = await ctx.campaign();
  const rows = orderRows(await client.metrics(codes), codes);
  const missing = codes.filter((sn) => !rows.some((r) => r.campaignSn === sn));
  const none = `No metrics for ${missing.join(', ')}: no such campaign, or it has not been sent yet.`;
  // None of the codes has metrics: an answer about nothing, not an empty table with exit 0 (as
  // campaign status says no such campaign, exit 1).
  if (!rows.length) throw new ServiceError(none, { hint: `\`${suggest(ctx, 'report', 'list')}\` lists the finished campaigns and their codes.`, facts: { code: 'NOT_FOUND' } });
  await printList(ctx.io, rows, metricColumns(rows), metricsJson(rows));
  // For a person at a terminal, the rates as bars under the table; piped output stays the table's data.
  if (ctx.io.output === 'table' && ctx.io.isTTY) {
    const columns = (ctx.io.stdout as { columns?: unknown }).columns;
    ctx.io.out(''); // the table ends at the first blank line
    for (const line of metricChart(rows, { width: typeof columns === 'number' && columns > 0 ? columns : 80, paint: (st, t) => ctx.io.paint(st, t) })) ctx.io.out(line);
  }
  // Some codes without metrics: the others are printed, and the run is partial (exit 5).
  if (missing.length) {
    ctx.io.warn(`${none} (\`${suggest(ctx, 'report', 'list')}\` lists finished ones.)`);
    throw new SilentExit(ExitCode.PARTIAL);
  }
};
