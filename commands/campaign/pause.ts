import type { Context } from '../../src/cli/context.js';
import { ServiceError, SilentExit } from '../../src/cli/errors.js';
import { describeStatus } from '../../src/campaign/statuses.js';
import { printDryRun } from '../../src/output/dry-run.js';

// Spec section 3 rule 1: "Pause applies to scheduled campaigns" (status PREPARE). The status is
// looked up first so a campaign that is sending or done gets a reason in words, not a bare code.
export async function run(ctx: Context, opts: { yes?: boolean; dryRun?: boolean }, sn: string): Promise<void> {
  if (opts.dryRun) return printDryRun(ctx, 'campaign', 'PATCH', `/v1/campaign/normal/${encodeURIComponent(sn)}`);
  const client = await ctx.campaign();
  const [c] = await client.campaignStatus(sn);
  if (!c) throw new ServiceError(`There is no campaign ${sn}.`, { hint: 'Check the code with `mailctl campaign status CODE`.' });
  if (c.status === 'STOP') {
    report(ctx, sn, 'already paused');
    return;
  }
  if (c.status !== 'PREPARE') {
    throw new ServiceError(
      `Campaign ${sn} cannot be paused: it is ${c.status} (${describeStatus(c.status)}). Only a scheduled campaign that is still waiting for its send time (PREPARE) can be paused.`,
      { hint: c.status === 'SENDING' || c.status === 'PREPARE_TO_SENT' || c.status === 'TESTING' ? 'Mail that is going out cannot be stopped through the API.' : undefined },
    );
  }
  // The API has no resume: a paused campaign does not go out unless it is rescheduled in the
  // back office, so this asks first like other destructive operations.
  if (!opts.yes) {
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
    if (e instanceof ServiceError && e.status === 400) {
      throw new ServiceError(`The service would not pause campaign ${sn} (code ${e.code ?? 'unknown'}); it has probably started sending.`, { hint: `Check with \`mailctl campaign status ${sn}\`.`, status: 400, code: e.code });
    }
    throw e;
  }
  report(ctx, sn, 'paused');
}

function report(ctx: Context, sn: string, what: string): void {
  if (ctx.io.json) ctx.io.printJson({ sn, status: 'STOP', result: what });
  else if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} Campaign ${sn} ${what}. A paused campaign does not go out; the API has no resume.`);
  else ctx.io.out(`${sn}\t${what}`);
}
