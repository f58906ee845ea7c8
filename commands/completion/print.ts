import type { Context } from '../../src/cli/context.js';
import { SCRIPTS, type Shell } from '../../src/cli/completion-scripts.js';

export async function run(ctx: Context, _opts: unknown, shell: Shell): Promise<void> {
  if (ctx.io.json) ctx.io.printJson({ shell, script: SCRIPTS[shell] });
  else ctx.io.out(SCRIPTS[shell].trimEnd());
}
