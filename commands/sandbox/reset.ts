import fs from 'node:fs';
import { sandboxDir } from '../../src/sandbox/inprocess.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareReset } from './index.js';

export const run: Verb<typeof declareReset> = async (ctx, opts) => {
  const dir = sandboxDir(ctx.configDir);
  if (!fs.existsSync(dir)) {
    if (ctx.io.json) ctx.io.printJson({ ...(opts.dryRun ? { dryRun: true } : {}), reset: false, alreadyEmpty: true });
    else ctx.io.info('The sandbox is already empty.');
    return;
  }
  if (opts.dryRun) {
    if (ctx.io.json) ctx.io.printJson({ dryRun: true, dir });
    else ctx.io.info(`Dry run: would forget all sandbox groups, imports, campaigns and messages (${dir}). Nothing was deleted.`);
    return;
  }
  if (!opts.yes) {
    ctx.requirePrompt('Resetting the sandbox', '--yes');
    if (!(await ctx.prompter.confirm('Forget all sandbox groups, imports, campaigns and messages?', false))) {
      ctx.io.info('Nothing changed.');
      return;
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  // --json promises one JSON document, even for a command whose news is a single line.
  if (ctx.io.json) ctx.io.printJson({ reset: true });
  else ctx.io.info('Sandbox reset.');
};
