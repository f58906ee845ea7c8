import type { Context } from '../../src/cli/context.js';
import { certainlyNotDone, ServiceError, SilentExit } from '../../src/core/errors.js';
import type { CampaignClient } from '../../src/api/campaign.js';
import type { Campaign } from '../../src/api/campaign-types.js';
import { describeStatus } from '../../src/campaign/statuses.js';
import { suggest, suggester } from '../../src/cli/suggest.js';
import { lookup, printDryRun } from '../../src/output/dry-run.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declarePause } from './index.js';

// Spec section 3 rule 1: "Pause applies to scheduled campaigns" (status PREPARE). The status is
// looked up first so a campaign that is sending or done gets a reason in words, not a bare code.
// A dry run shows that lookup and goes on as if the campaign were scheduled.
export const run: Verb<typeof declarePause> = async (ctx, opts, sn) => {
  const client = await ctx.campaign();
  const [c] = await lookup(ctx, `the status of ${sn}: only a scheduled campaign (PREPARE) can be paused; taken as scheduled here`, () => client.campaignStatus(sn), (): Campaign[] => [{ sn, name: '', status: 'PREPARE' }]);
  if (!c) throw new ServiceError(`There is no campaign ${sn}.`, { hint: `Check the code with \`${suggest(ctx, 'campaign', 'list', '--status', 'PREPARE')}\` (the scheduled campaigns).`, facts: { code: 'NOT_FOUND' } });
  if (c.status === 'STOP') {
    report(ctx, sn, 'already paused');
    return;
  }
  if (c.status !== 'PREPARE') {
    throw new ServiceError(
      `Campaign ${sn} cannot be paused: it is ${c.status} (${describeStatus(c.status, suggester(ctx))}). Only a scheduled campaign that is still waiting for its send time (PREPARE) can be paused.`,
      { hint: c.status === 'SENDING' || c.status === 'PREPARE_TO_SENT' || c.status === 'TESTING' ? 'Mail that is going out cannot be stopped through the API.' : undefined },
    );
  }
  // The API has no resume: a paused campaign does not go out unless it is rescheduled in the
  // back office, so this asks first like other destructive operations.
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt(`Pausing campaign ${sn}`, '--yes');
    if (!(await ctx.prompter.confirm(`Pause campaign ${sn}? It will not be sent, and the API cannot resume it.`, false))) {
      ctx.io.info('Nothing was paused.');
      throw new SilentExit(2);
    }
  }
  try {
    await client.pauseCampaign(sn);
  } catch (e) {
    // The status can change between the lookup and the pause (its send time came).
    if (e instanceof ServiceError && e.facts.refused) {
      throw new ServiceError(`The service would not pause campaign ${sn} (code ${e.code ?? 'unknown'}); it has probably started sending.`, { hint: `Check with \`${suggest(ctx, 'campaign', 'status', sn)}\`.`, status: e.status, code: e.code });
    }
    if (certainlyNotDone(e)) throw e;
    // The answer was lost: the pause may or may not have happened. Ask the service.
    return settleLostPause(ctx, client, sn, e);
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  report(ctx, sn, 'paused');
};

async function settleLostPause(ctx: Context, client: CampaignClient, sn: string, lost: unknown): Promise<void> {
  ctx.io.warn(`The answer to the pause of ${sn} was lost; looking up the campaign's status to see what happened.`);
  let status: string | undefined;
  try {
    status = (await client.campaignStatus(sn))[0]?.status;
  } catch {
    throw lost; // cannot tell: the original failure says the outcome is unknown
  }
  if (status === 'STOP') return report(ctx, sn, 'paused');
  if (status === 'PREPARE') {
    // Still scheduled: the pause certainly did not take effect, so asking again is safe.
    await client.pauseCampaign(sn);
    return report(ctx, sn, 'paused');
  }
  throw new ServiceError(`The answer to the pause of ${sn} was lost, and the campaign is now ${status ?? 'gone'}${status ? ` (${describeStatus(status, suggester(ctx))})` : ''}: it was not paused.`, {
    hint: `Check with \`${suggest(ctx, 'campaign', 'status', sn)}\`.`,
  });
}

function report(ctx: Context, sn: string, what: string): void {
  if (ctx.io.json) ctx.io.printJson({ sn, status: 'STOP', result: what });
  else if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} Campaign ${sn} ${what}. A paused campaign does not go out; the API has no resume.`);
  else ctx.io.out(`${sn}\t${what}`);
}
