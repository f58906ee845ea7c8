import { ServiceError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { parseWebhookType, typeName } from '../../src/webhook/types.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareDelete } from './index.js';

export const run: Verb<typeof declareDelete> = async (ctx, opts, typeArg) => {
  const sms = !!opts.sms;
  const type = parseWebhookType(typeArg, sms);
  const what = `the ${sms ? 'SMS' : 'email'} ${typeName(type, sms)} webhook (type ${type})`;
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt(`Deleting ${what}`, '--yes');
    if (!(await ctx.prompter.confirm(`Delete ${what}? Events of this type will no longer be delivered.`, false))) {
      ctx.io.info('Nothing deleted.');
      return;
    }
  }
  try {
    await (await ctx.notify()).deleteWebhook(type, sms);
  } catch (e) {
    // Spec: deletion failure is 500 {success: false}, with no reason given.
    if (e instanceof ServiceError && e.status === 500) {
      throw new ServiceError(`The service could not delete ${what}.`, { status: 500, hint: `Check that it is registered: ${suggest(ctx, 'webhook', 'list', ...(sms ? ['--sms'] : []))}` });
    }
    throw e;
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  if (ctx.io.json) ctx.io.printJson({ success: true, channel: sms ? 'sms' : 'email', type, event: typeName(type, sms) });
  else ctx.io.out(`${ctx.io.paint('green', '✓')} Deleted ${what}`);
};
