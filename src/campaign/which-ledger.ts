// Which campaign ledger (src/campaign/ledger.ts) a run reads and writes: one per account, i.e.
// per profile and campaign-service URL (the same URL however it is spelled: normalUrl), and one
// for the sandbox, whose state every profile of a config folder shares.
import type { Context } from '../run/context.js';
import { normalUrl } from '../config/base-url.js';
import { ledgerPath } from './ledger.js';

export async function campaignLedger(ctx: Context): Promise<string> {
  const s = await ctx.settings();
  return ledgerPath(ctx.configDir, s.sandbox ? 'sandbox' : `profile ${s.profileName} at ${normalUrl(s.campaignUrl)}`);
}
