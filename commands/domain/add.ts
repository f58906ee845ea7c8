import { ServiceError } from '../../src/core/errors.js';
import { zoneLines } from '../../src/run/output/zone.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { checkDomain } from './common.js';
import { forTsvCell } from '../../src/core/sanitize.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareAdd } from './index.js';

export const run: Verb<typeof declareAdd> = async (ctx, opts, input) => {
  const domain = checkDomain(input);
  const records = await (await ctx.notify()).addDomain(domain);
  if (opts.dryRun) return printDryRun(ctx);
  if (ctx.io.json) {
    ctx.io.printJson({ domain, records });
    return;
  }
  if (!records.length) throw new ServiceError(`The service added ${domain} but returned no DNS records to publish.`, { hint: 'Contact the provider\'s support for the records.' });
  ctx.io.info(`Publish these DNS records for ${domain}, then run \`${suggest(ctx, 'domain', 'verify', domain)}\`:`);
  ctx.io.out(`; mailctl domain add ${domain}`);
  // The records are the service's words: whole (they are pasted), control characters shown.
  for (const l of zoneLines(records, domain)) ctx.io.out(forTsvCell(l));
};
