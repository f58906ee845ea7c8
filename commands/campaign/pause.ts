import type { Context } from '../../src/run/context.js';
import { certainlyNotDone, ServiceError, SilentExit } from '../../src/core/errors.js';
import type { CampaignClient } from '../../src/api/campaign.js';
import type { Campaign } from '../../src/api/campaign-types.js';
import { describeStatus } from '../../src/campaign/statuses.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { suggest, suggester } from '../../src/core/suggest.js';
import { lookup, printDryRun } from '../../src/run/output/dry-run.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declarePause } from './index.js';

// Spec section 3 rule 1 says "Pause applies to scheduled campaigns"; the vendor's troubleshooting
// page says it works on a SENDING campaign too. decisions row 32: mailctl does not refuse by
// status; it sends the pause and reports what the service answers. The status is looked up
// first only to tell "no such campaign" and "already paused" (nothing to send), and to say in the
// refusal what the campaign was. A dry run shows that lookup and goes on as if it could be paused.
export const run: Verb<typeof declarePause> = async (ctx, opts, sn) => {
  const client = await ctx.campaign();
  const [c] = await lookup(ctx, `the status of ${sn}: a code with no campaign, or one already paused, sends no pause; taken as scheduled here`, () => client.campaignStatus(sn), (): Campaign[] => [{ sn, name: '', status: 'PREPARE' }]);
  if (!c) throw new ServiceError(`There is no campaign ${sn}.`, { hint: `Check the code with \`${suggest(ctx, 'campaign', 'list', '--status', 'PREPARE')}\` (the scheduled campaigns).`, facts: { code: 'NOT_FOUND' } });
  if (c.status === 'STOP') {
    report(ctx, sn, 'already paused');
    return;
  }
  // The API has no resume: a paused campaign does not go out unless it is rescheduled in the
  // back office, so this asks first like other destructive operations.
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt(`Pausing campaign ${sn}`, '--yes');
    if (!(await ctx.prompter.confirm(`Pause campaign ${sn} (now ${forTerminal(c.status, 40)})? It will not be sent, and the API cannot resume it.`, false))) {
      ctx.io.info('Nothing was paused.');
      throw new SilentExit(2);
    }
  }
  try {
    await client.pauseCampaign(sn);
  } catch (e) {
    // The service's answer, reported as it gave it, with what the campaign was just before.
    if (e instanceof ServiceError && e.facts.refused) throw refusal(ctx, sn, c.status, e);
    if (certainlyNotDone(e)) throw e;
    // The answer was lost: the pause may or may not have happened. Ask the service.
    return settleLostPause(ctx, client, sn, c.status, e);
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  report(ctx, sn, 'paused');
};

function refusal(ctx: Context, sn: string, was: string, e: ServiceError): ServiceError {
  const said = [e.code && `code ${forTerminal(e.code, 40)}`, e.serviceMessage?.trim() && forTerminal(e.serviceMessage.trim(), 200)].filter(Boolean).join(': ');
  return new ServiceError(`The service refused to pause campaign ${sn} (HTTP ${e.status}${said ? `, ${said}` : ''}); it was ${forTerminal(was, 40)} (${describeStatus(was, suggester(ctx))}) when looked up just before.`, {
    status: e.status, code: e.code, body: e.body, serviceMessage: e.serviceMessage, facts: e.facts,
    hint: `Check it with \`${suggest(ctx, 'campaign', 'status', sn)}\`.`,
  });
}

async function settleLostPause(ctx: Context, client: CampaignClient, sn: string, was: string, lost: unknown): Promise<void> {
  ctx.io.warn(`The answer to the pause of ${sn} was lost; looking up the campaign's status to see what happened.`);
  let status: string | undefined;
  try {
    status = (await client.campaignStatus(sn))[0]?.status;
  } catch {
    throw lost; // cannot tell: the original failure says the outcome is unknown
  }
  if (status === 'STOP') return report(ctx, sn, 'paused');
  if (status === was) {
    // Unchanged: the pause (whose one effect is STOP) certainly did not take effect, so asking again is safe.
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
