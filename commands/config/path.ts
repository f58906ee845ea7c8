import type { Context } from '../../src/run/context.js';

export async function run(ctx: Context): Promise<void> {
  const path = (await ctx.config()).path;
  // --json promises one JSON document; a bare path is not one.
  if (ctx.io.json) ctx.io.printJson({ path });
  else ctx.io.out(path);
}
