// `mailctl sandbox balance [--email N] [--sms N]`: the sandbox's balance, shown or set. The real
// service's balance is topped up in its back office, which the API does not offer; the sandbox
// has its own route for it (PUT /_sandbox/balance, not part of the spec), so a forecast that does
// not fit (decisions row P8) can be tried without an account.
import type { Context } from '../../src/cli/context.js';
import { parseWhole } from '../../src/cli/parse.js';
import { printRecord } from '../../src/output/format.js';
import { ServiceError } from '../../src/cli/errors.js';
import { printDryRun } from '../../src/output/dry-run.js';

interface Opts {
  email?: string;
  sms?: string;
  dryRun?: boolean;
}

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const body: { email?: number; sms?: number } = {};
  if (opts.email !== undefined) body.email = parseWhole(opts.email, '--email');
  if (opts.sms !== undefined) body.sms = parseWhole(opts.sms, '--sms');
  if (opts.dryRun && (opts.email !== undefined || opts.sms !== undefined)) return printDryRun(ctx, 'campaign', 'PUT', '/_sandbox/balance', body);
  const client = await ctx.campaign();
  let b: { email: number; sms: number };
  if (opts.email === undefined && opts.sms === undefined) b = await client.balance();
  else {
    try {
      b = await client.http.call('PUT', '/_sandbox/balance', { json: body, idempotent: true });
    } catch (e) {
      if (e instanceof ServiceError && e.status === 404) {
        throw new ServiceError('This service has no sandbox balance route: the real balance is topped up in its back office.', { status: 404, hint: 'Use --sandbox, or point MAILCTL_CAMPAIGN_URL at `mailctl sandbox serve`.' });
      }
      throw e;
    }
  }
  await printRecord(ctx.io, [['email', b.email, { count: true }], ['sms', b.sms, { count: true }]], b);
}
