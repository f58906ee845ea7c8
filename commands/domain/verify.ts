import { ServiceError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/output/dry-run.js';
import { checkDomain } from './common.js';
import { describeErrorBody } from '../../src/api/error-body.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareVerify } from './index.js';

export const run: Verb<typeof declareVerify> = async (ctx, opts, input) => {
  const domain = checkDomain(input);
  let res: unknown;
  try {
    res = await (await ctx.notify()).verifyDomain(domain);
  } catch (e) {
    if (e instanceof ServiceError && e.status !== undefined && e.status < 500) {
      // The service's own reason reads better than the HTTP sentence wrapped around it.
      const said = describeErrorBody(e.body).detail;
      const reason = said ? forTerminal(said.replace(/\.+$/, '')) : `HTTP ${e.status}`;
      throw new ServiceError(`${domain} is not verified: ${reason}.`, {
        status: e.status,
        facts: e.facts,
        serviceMessage: said,
        hint: `If it was never added, run \`${suggest(ctx, 'domain', 'add', domain)}\` first; otherwise check that the records it printed are published (DNS can take a while to update), then try again.`,
      });
    }
    throw e;
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  // The response shape is not documented; a body saying success/verified false is a failure.
  const o = (res ?? {}) as Record<string, unknown>;
  if (o.success === false || o.verified === false) {
    throw new ServiceError(`${domain} is not verified yet.`, { body: res, hint: `Check the records from \`${suggest(ctx, 'domain', 'add', domain)}\` are published, then try again.` });
  }
  if (ctx.io.json) ctx.io.printJson({ domain, verified: true, response: res ?? null });
  else ctx.io.out(`${ctx.io.paint('green', '✓')} ${domain} is verified; email can be sent from addresses @${domain}.`);
};
