import { checkUrl } from '../../src/core/url.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { isLocalHost, parseWebhookType, typeName } from '../../src/webhook/types.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareSet } from './index.js';

export const run: Verb<typeof declareSet> = async (ctx, opts, typeArg, url) => {
  const sms = !!opts.sms;
  const type = parseWebhookType(typeArg, sms);
  // http: stays allowed for webhook targets (the service may sit beside a plain-HTTP receiver).
  url = checkUrl(url, { name: 'The webhook URL', example: 'https://example.com/hooks/mail' });
  const u = new URL(url);
  if (isLocalHost(u.hostname)) {
    ctx.io.warn(`${forTerminal(u.hostname, 100)} is not reachable from the internet, so the service cannot deliver to it. For a local listener, register a tunnel's public URL instead (see \`${suggest(ctx, 'webhook', 'listen', '--help')}\`).`);
  }
  // Upsert by type (spec section 4): setting a type again replaces its URL.
  await (await ctx.notify()).setWebhook(type, url, sms);
  if (opts.dryRun) return printDryRun(ctx);
  const event = typeName(type, sms);
  if (ctx.io.json) ctx.io.printJson({ success: true, channel: sms ? 'sms' : 'email', type, event, url });
  else ctx.io.out(`${ctx.io.paint('green', '✓')} ${sms ? 'SMS' : 'Email'} ${event} events (type ${type}) now go to ${forTerminal(url, 500)}`);
};
