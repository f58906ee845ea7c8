import type { Context } from '../../src/run/context.js';
import { lookup, printDryRun } from '../../src/run/output/dry-run.js';
import { certainlyNotDone, PartialError, ServiceError, SilentExit, UsageError } from '../../src/core/errors.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import type { CampaignClient } from '../../src/api/campaign.js';
import type { DeleteCampaignsResult } from '../../src/api/campaign-types.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareDelete } from './index.js';

// Spec endpoint 11 and section 3 rule 2: sent, scheduled and paused campaigns are deleted;
// those preparing or sending come back in `sendingCampaign`, unknown codes in `badCampaigns`.
// Each code is looked up first (endpoint 13), as `pause` does: only campaigns that exist are
// sent to the DELETE, so when its answer is lost, one that is gone afterwards was deleted by it.
export const run: Verb<typeof declareDelete> = async (ctx, opts, sns) => {
  const named = [...new Set(sns.map((s) => s.trim()).filter(Boolean))];
  if (!named.length) throw new UsageError(`Name the campaigns to delete: ${suggest(ctx, 'campaign', 'delete', 'CODE...')}`);
  const ask = !opts.yes && !opts.dryRun;
  // Without a terminal to ask on, refused before any request.
  if (ask) ctx.requirePrompt(`Deleting ${named.length === 1 ? `campaign ${named[0]}` : `${named.length} campaigns`}`, '--yes');
  const client = await ctx.campaign();
  const missing: string[] = [];
  for (const sn of named) {
    // No such campaign is an empty list (src/api/campaign.ts); anything else stops here, before
    // anything is deleted.
    const found = await lookup(ctx, `whether ${sn} exists: only existing campaigns are sent to the delete; taken as existing here`, () => client.campaignStatus(sn), (): unknown[] => [{ sn }]);
    if (!found.length) missing.push(sn);
  }
  const codes = named.filter((sn) => !missing.includes(sn));
  if (codes.length && ask) {
    const ok = await ctx.prompter.confirm(`Delete ${codes.length === 1 ? `campaign ${codes[0]}` : `${codes.length} campaigns (${codes.join(', ')})`}? Their reports go too.`, false);
    if (!ok) {
      ctx.io.info('Nothing was deleted.');
      throw new SilentExit(2);
    }
  }
  let r: DeleteCampaignsResult & { unknown?: string[] } = { success: [], sendingCampaign: [], badCampaigns: [] };
  if (codes.length) {
    try {
      r = await client.deleteCampaigns(codes);
    } catch (e) {
      if (certainlyNotDone(e)) throw e;
      r = await settleLostDelete(ctx, client, codes, e);
    }
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  r.badCampaigns = [...missing, ...r.badCampaigns.filter((sn) => !missing.includes(sn))];
  if (ctx.io.json) ctx.io.printJson(r);
  else {
    for (const sn of r.success) ctx.io.out(`${forTsvCell(sn)}\tdeleted`);
    for (const sn of r.sendingCampaign) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: preparing or sending (try again once it is sent)`);
    for (const sn of r.badCampaigns) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: no such campaign`);
    for (const sn of r.unknown ?? []) ctx.io.out(`${forTsvCell(sn)}\tnot deleted: still there after the lost answer (run the command again)`);
  }
  const failed = r.sendingCampaign.length + r.badCampaigns.length + (r.unknown?.length ?? 0);
  if (!failed) return;
  const total = named.length;
  const why = [
    r.sendingCampaign.length ? `${r.sendingCampaign.length} ${r.sendingCampaign.length === 1 ? 'is' : 'are'} preparing or sending` : '',
    r.badCampaigns.length ? `${r.badCampaigns.length} ${r.badCampaigns.length === 1 ? 'does' : 'do'} not exist` : '',
    r.unknown?.length ? `${r.unknown.length} still ${r.unknown.length === 1 ? 'exists' : 'exist'} after the service's answer was lost` : '',
  ].filter(Boolean).join(' and ');
  if (r.success.length) throw new PartialError(`Deleted ${r.success.length} of ${total} campaigns; ${why}.`);
  // Every code missing: the one refusal a typo gives, with its stable code and where to look.
  const allMissing = r.badCampaigns.length === total;
  throw new ServiceError(`No campaign was deleted: ${why}.`, {
    hint: r.sendingCampaign.length ? 'A campaign that is preparing or sending can be deleted once it is sent.' : `Check the codes with \`${suggest(ctx, 'campaign', 'list', '--all')}\`.`,
    ...(allMissing ? { facts: { code: 'NOT_FOUND' } } : {}),
  });
};

/**
 * The DELETE's answer was lost. Each campaign (all existed just before) is looked up: one that
 * is gone was deleted by this request; one that is still there was not, and is reported with its
 * status rather than sent a second DELETE that could race the first.
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
  if (out.success.length) ctx.io.warn(`Gone now, so deleted: ${forTerminal(out.success.join(', '))}.`);
  return out;
}

const SENDING = new Set(['PREPARE_TO_SENT', 'SENDING', 'TESTING']);
