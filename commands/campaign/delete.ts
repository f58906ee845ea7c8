import type { Context } from '../../src/cli/context.js';
import { printDryRun } from '../../src/output/dry-run.js';
import { PartialError, ServiceError, SilentExit, UsageError } from '../../src/cli/errors.js';

interface Opts {
  yes?: boolean;
  dryRun?: boolean;
}

// Spec endpoint 11 and section 3 rule 2: sent, scheduled and paused campaigns are deleted;
// those preparing or sending come back in `sendingCampaign`, unknown codes in `badCampaigns`.
export async function run(ctx: Context, opts: Opts, sns: string[]): Promise<void> {
  const codes = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!codes.length) throw new UsageError('Name the campaigns to delete: mailctl campaign delete CODE...');
  if (opts.dryRun) return printDryRun(ctx, 'campaign', 'DELETE', '/v1/campaign/normal', { campaignSnList: codes });
  if (!opts.yes) {
    ctx.requirePrompt(`Deleting ${codes.length === 1 ? `campaign ${codes[0]}` : `${codes.length} campaigns`}`, '--yes');
    const ok = await ctx.prompter.confirm(`Delete ${codes.length === 1 ? `campaign ${codes[0]}` : `${codes.length} campaigns (${codes.join(', ')})`}? Their reports go too.`, false);
    if (!ok) {
      ctx.io.info('Nothing was deleted.');
      throw new SilentExit(2);
    }
  }
  const client = await ctx.campaign();
  const r = await client.deleteCampaigns(codes);
  if (ctx.io.json) ctx.io.printJson(r);
  else {
    for (const sn of r.success) ctx.io.out(`${sn}\tdeleted`);
    for (const sn of r.sendingCampaign) ctx.io.out(`${sn}\tnot deleted: preparing or sending (try again once it is sent)`);
    for (const sn of r.badCampaigns) ctx.io.out(`${sn}\tnot deleted: no such campaign`);
  }
  const failed = r.sendingCampaign.length + r.badCampaigns.length;
  if (!failed) return;
  const why = [
    r.sendingCampaign.length ? `${r.sendingCampaign.length} ${r.sendingCampaign.length === 1 ? 'is' : 'are'} preparing or sending` : '',
    r.badCampaigns.length ? `${r.badCampaigns.length} ${r.badCampaigns.length === 1 ? 'does' : 'do'} not exist` : '',
  ].filter(Boolean).join(' and ');
  if (r.success.length) throw new PartialError(`Deleted ${r.success.length} of ${codes.length} campaigns; ${why}.`);
  throw new ServiceError(`No campaign was deleted: ${why}.`);
}
