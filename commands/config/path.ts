import type { Context } from '../../src/cli/context.js';

export async function run(ctx: Context): Promise<void> {
  ctx.io.out((await ctx.config()).path);
}
