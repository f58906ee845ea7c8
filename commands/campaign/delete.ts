import type { Context } from '../../src/cli/context.js';
import { printDryRun } from '../../src/output/dry-run.js';
import { certainlyNotDone, PartialError, ServiceError, SilentExit, UsageError } from '../../src/cli/errors.js';
import { forTerminal, forTsvCell } from '../../src/output/sanitize.js';
import type { CampaignClient } from '../../src/api/campaign.js';
import type { DeleteCampaignsResult } from '../../src/api/campaign-types.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareDelete } from './index.js';

// Spec endpoint 11 and section 3 rule 2: sent, scheduled and paused campaigns are deleted;
// those preparing or sending come back in `sendingCampaign`, unknown codes in `badCampaigns`.
export const run: Verb<typeof declareDelete> = async (ctx, opts, sns) => {
  const codes = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!codes.length) throw new UsageError(`Name the campaigns to delete: ${suggest(ctx, 'campaign', 'delete', 'CODE...')}`);
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt(`Deleting ${codes.length === 1 ? `campaign ${codes[0]}` : `${codes.length} campaigns`}`, '--yes');
    const ok = await ctx.prompter.confirm(`Delete ${codes.length === 1 ? `campaign ${codes[0]}` : `${codes.length} campaigns (${codes.join(', ')})`}? Their reports go too.`, false);
    if (!ok) {
      ctx.io.info('Nothing was deleted.');
      throw new SilentExit(2);
    }
  }
  const client = await ctx.campaign();
  let r: DeleteCampaignsResult & { unknown?: string[] };
  try {
    r = await client.deleteCampaigns(codes);
  } catch (e) {
    if (certainlyNotDone(e)) throw e;
    r = await settleLostDelete(ctx, client, codes, e);
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  if (ctx.io.json) ctx.io.printJson(r);
  else {
    for (const sn of r.success) ctx.io.out(`${forTsvCell(sn)}\tdeleted`);
    for (const sn of r.sendingCampaign) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: preparing or sending (try again once it is sent)`);
    for (const sn of r.badCampaigns) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: no such campaign`);
    for (const sn of r.unknown ?? []) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: still there after the lost answer (run the command again)`);
  }
  const failed = r.sendingCampaign.length + r.badCampaigns.length + (r.unknown?.length ?? 0);
  if (!failed) return;
  const why = [
    r.sendingCampaign.length ? `${r.sendingCampaign.length} ${r.sendingCampaign.length === 1 ? 'is' : 'are'} preparing or sending` : '',
    r.badCampaigns.length ? `${r.badCampaigns.length} ${r.badCampaigns.length === 1 ? 'does' : 'do'} not exist` : '',
    r.unknown?.length ? `${r.unknown.length} still ${r.unknown.length === 1 ? 'exists' : 'exist'} after the service's answer was lost` : '',
  ].filter(Boolean).join(' and ');
  if (r.success.length) throw new PartialError(`Deleted ${r.success.length} of ${codes.length} campaigns; ${why}.`);
  throw new ServiceError(`No campaign was deleted: ${why}.`);
};

/**
 * The DELETE's answer was lost. Each campaign is looked up: one that is gone was deleted (by
 * this request — or never existed, which a lost answer cannot tell apart); one that is still
 * there was not, and is reported with its status rather than sent a second DELETE that could
 * race the first.
 */
async function settleLostDelete(ctx: Context, client: CampaignClient, codes: string[], lost: unknown): Promise<DeleteCampaignsResult & { unknown: string[] }> {
  ctx.io.warn('The answer to the delete was lost; looking each campaign up to see what happened.');
  const out = { success: [] as string[], sendingCampaign: [] as string[], badCampaigns: [] as string[], unknown: [] as string[] };
  for (const sn of codes) {
    let status: string | undefined;
    try {
      status = (await client.campaignStatus(sn))[0]?.status;
    } catch {
      throw lost;
    }
    if (!status) out.success.push(sn);
    else if (SENDING.has(status)) out.sendingCampaign.push(sn);
    else out.unknown.push(sn);
  }
  if (out.success.length) ctx.io.warn(`Gone now, so deleted: ${forTerminal(out.success.join(', '))} (a code that never existed would look the same).`);
  return out;
}

const SENDING = new Set(['PREPARE_TO_SENT', 'SENDING', 'TESTING']);
