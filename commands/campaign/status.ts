import type { Context } from '../../src/run/context.js';
import { suggest, suggester, suggestWithNote } from '../../src/core/suggest.js';
import { ServiceError, UsageError } from '../../src/core/errors.js';
import type { Campaign } from '../../src/api/campaign-types.js';
import { pollUntil } from '../../src/run/poll.js';
import { parseDuration } from '../../src/core/duration.js';
import { describeStatus, FAILED_STATUSES, isSettled } from '../../src/campaign/statuses.js';
import { printRecord, type Field } from '../../src/run/output/format.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareStatus } from './index.js';

export const run: Verb<typeof declareStatus> = async (ctx, opts, sn) => {
  const timeoutMs = opts.timeout === undefined ? undefined : parseDuration(opts.timeout, '--timeout', { positive: true });
  if (opts.timeout !== undefined && !opts.wait) throw new UsageError('--timeout only applies with --wait.');
  if (timeoutMs !== undefined) ctx.limitRequestsTo(timeoutMs);
  const client = await ctx.campaign();
  const lookup = async (): Promise<Campaign> => {
    const [c] = await client.campaignStatus(sn);
    // Spec 000 endpoint 13 answers a list of campaigns: an empty one means no campaign has this code.
    if (!c) throw new ServiceError(`There is no campaign ${sn}.`, { hint: `Check the code with \`${suggest(ctx, 'campaign', 'list', '--all')}\` (the campaigns created here, and finished ones).`, facts: { code: 'NOT_FOUND' } });
    return c;
  };
  let c = await lookup();
  if (opts.wait && !isSettled(c, ctx.clock.now())) {
    c = await pollUntil(ctx, lookup, (v) => isSettled(v, ctx.clock.now()), {
      label: `Waiting for campaign ${sn}…`,
      describe: (v) => v.status,
      timeoutMs,
      timeoutMessage: (v) => `Campaign ${sn} is still ${v.status} (${describeStatus(v.status, suggester(ctx))}) after ${opts.timeout}.`,
      resumeHint: `Keep waiting with: ${suggestWithNote(ctx, 'campaign', 'status', sn, '--wait')}`,
      interruptedMessage: `Stopped waiting for campaign ${sn}; it goes on at the service.`,
    });
  }
  await show(ctx, c);
  if (opts.wait && FAILED_STATUSES.has(c.status)) throw new ServiceError(`Campaign ${sn} ended ${c.status}: ${describeStatus(c.status, suggester(ctx))}.`);
};

async function show(ctx: Context, c: Campaign): Promise<void> {
  await printRecord(ctx.io, ([
    ['code', c.sn],
    ['name', c.name],
    ['status', c.status],
    ['meaning', describeStatus(c.status, suggester(ctx))],
    ['type', c.type === 'A_B_TEST' ? `A/B test (${c.proportion ?? '?'}% test share)` : c.type],
    ['send time', c.sendTimeType],
    // Local and relative on a terminal ("2026-12-01 09:00 +08:00 (in 2 days)"), UTC ISO piped.
    ['scheduled', c.scheduledDate, 'date'],
    ['sent from', c.sentBeginDate, 'date'],
    ['sent until', c.sentEndDate, 'date'],
    ['updated', c.updateDate, 'date'],
  ] satisfies Field[]).filter(([, v]) => v !== undefined && v !== ''), { ...c, meaning: describeStatus(c.status, suggester(ctx)) });
}
