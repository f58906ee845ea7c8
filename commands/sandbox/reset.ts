import fs from 'node:fs';
import type { Context } from '../../src/cli/context.js';
import { sandboxDir } from '../../src/sandbox/inprocess.js';

export async function run(ctx: Context, opts: { yes?: boolean }): Promise<void> {
  const dir = sandboxDir(ctx.configDir);
  if (!fs.existsSync(dir)) {
    ctx.io.info('The sandbox is already empty.');
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
  ctx.io.info('Sandbox reset.');
}
