import { UsageError } from '../../src/core/errors.js';
import { printList } from '../../src/output/format.js';
import { METRIC_COLUMNS, METRIC_CSV, orderRows, ratesOf } from '../../src/report/metrics.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareMetrics } from './index.js';

export const run: Verb<typeof declareMetrics> = async (ctx, _opts, sns) => {
  const codes = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!codes.length) throw new UsageError(`Name at least one campaign code: ${suggest(ctx, 'report', 'metrics', 'CODE...')}`, `Find codes with \`${suggest(ctx, 'report', 'list')}\`.`);
  const client = await ctx.campaign();
  const rows = orderRows(await client.metrics(codes), codes);
  await printList(ctx.io, rows, METRIC_COLUMNS, rows.map((m) => ({ ...m, rates: ratesOf(m) })), { csv: METRIC_CSV });
  const missing = codes.filter((sn) => !rows.some((r) => r.campaignSn === sn));
  if (missing.length) ctx.io.warn(`No metrics for ${missing.join(', ')}.`);
};
