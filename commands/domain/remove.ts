import { printDryRun } from '../../src/run/output/dry-run.js';
import { checkDomain } from './common.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareRemove } from './index.js';

export const run: Verb<typeof declareRemove> = async (ctx, opts, input) => {
  const domain = checkDomain(input);
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt(`Removing the sender domain ${domain}`, '--yes');
    if (!(await ctx.prompter.confirm(`Remove ${domain}? Email from @${domain} will be refused until it is added and verified again.`, false))) {
      ctx.io.info('Nothing removed.');
      return;
    }
  }
  await (await ctx.notify()).removeDomain(domain);
  if (opts.dryRun) return printDryRun(ctx);
  if (ctx.io.json) ctx.io.printJson({ domain, removed: true });
  else ctx.io.out(`${ctx.io.paint('green', '✓')} Removed ${domain}`);
};
