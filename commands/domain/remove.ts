import type { Context } from '../../src/cli/context.js';
import { printDryRun } from '../../src/output/dry-run.js';
import { checkDomain } from './common.js';

export async function run(ctx: Context, opts: { yes?: boolean; dryRun?: boolean }, input: string): Promise<void> {
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
}
