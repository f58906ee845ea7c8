import { errorJson, ServiceError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { zoneLines } from '../../src/run/output/zone.js';
import { checkDomain } from './common.js';
import { describeErrorBody } from '../../src/api/error-body.js';
import type { DnsRecord } from '../../src/api/notify-types.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import { suggest } from '../../src/core/suggest.js';
import { errorWords } from '../../src/cli/error-text.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareVerify } from './index.js';

// decisions row 28 (the vendor's reference): the verification answers the domain's DNS records,
// each with `valid`. The domain is verified only when the service says so of every record; any
// record not valid is "not verified yet" (exit 1), and the records still to publish are listed.
export const run: Verb<typeof declareVerify> = async (ctx, opts, input) => {
  const domain = checkDomain(input);
  let records: DnsRecord[];
  try {
    records = await (await ctx.notify()).verifyDomain(domain);
  } catch (e) {
    // A refusal (4xx): the service's reason. An answer in no known shape stays what it is.
    if (e instanceof ServiceError && e.facts.refused && e.status !== undefined && e.status < 500) {
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
  const pending = records.filter((r) => r.valid !== true);
  if (records.length && !pending.length) {
    if (ctx.io.json) ctx.io.printJson({ domain, verified: true, records });
    else ctx.io.out(`${ctx.io.paint('green', '✓')} ${domain} is verified; email can be sent from addresses @${domain}.`);
    return;
  }
  const err = new ServiceError(
    records.length
      ? `${domain} is not verified yet: the service found ${pending.length} of its ${records.length} DNS records not in place${ctx.io.json ? '' : ' (listed above)'}.`
      : `${domain} is not verified: the service answered the verification with no DNS records, so nothing says the domain is verified.`,
    {
      facts: { code: 'REFUSED', reached: 'yes', refused: true, retryable: false },
      hint: records.length
        ? `Publish ${pending.length === 1 ? 'it' : 'them'} as printed (DNS can take a while to update), then run \`${suggest(ctx, 'domain', 'verify', domain)}\` again.`
        : `Check the records from \`${suggest(ctx, 'domain', 'add', domain)}\` are published, then try again.`,
    },
  );
  if (ctx.io.json) {
    // One document: the records, which are still to publish, and the error (exit 1 all the same).
    ctx.io.printJson({ domain, verified: false, records, pending, error: errorJson(err, errorWords(err, ctx)) });
  } else if (pending.length) {
    ctx.io.out(`; still to publish for ${domain} (the service found these not in place)`);
    // The records are the service's words: whole (they are pasted), control characters shown.
    for (const l of zoneLines(pending, domain)) ctx.io.out(forTsvCell(l));
  }
  throw err;
};
