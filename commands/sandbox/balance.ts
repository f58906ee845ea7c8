// `mailctl sandbox balance [--set-email N] [--set-sms N]`: the sandbox's balance, shown or set. The real
// service's balance is topped up in its back office, which the API does not offer; the sandbox
// has its own route for it (PUT /_sandbox/balance, not part of the spec), so a forecast that does
// not fit (decisions row P8) can be tried without an account.
import { parseWhole } from '../../src/core/parse-whole.js';
import { printRecord } from '../../src/run/output/format.js';
import { ServiceError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareBalance } from './index.js';

export const run: Verb<typeof declareBalance> = async (ctx, opts) => {
  const body: { email?: number; sms?: number } = {};
  if (opts.setEmail !== undefined) body.email = parseWhole(opts.setEmail, '--set-email');
  if (opts.setSms !== undefined) body.sms = parseWhole(opts.setSms, '--set-sms');
  const client = await ctx.campaign();
  let b: { email: number | null; sms: number | null };
  if (opts.setEmail === undefined && opts.setSms === undefined) {
    // Showing the balance is a read, which a dry run does not make; there is nothing to set.
    if (opts.dryRun) return printDryRun(ctx);
    b = await client.balance();
  } else {
    try {
      b = await client.sandboxSetBalance(body);
    } catch (e) {
      if (e instanceof ServiceError && e.status === 404) {
        throw new ServiceError('This service has no sandbox balance route: the real balance is topped up in its back office.', { status: 404, hint: 'Use --sandbox, or point MAILCTL_CAMPAIGN_URL at `mailctl sandbox serve`.' });
      }
      throw e;
    }
    if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  }
  await printRecord(ctx.io, [['email', b.email ?? 'not given', 'count'], ['sms', b.sms ?? 'not given', 'count']], b);
};
