import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';

export async function run(ctx: Context, _opts: unknown, name: string): Promise<void> {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new UsageError(`"${name}" is not a valid profile name; use letters, digits, dot, dash and underscore.`);
  const store = await ctx.config();
  if (!store.getProfile(name)) store.setProfile(name, {});
  store.setCurrentProfile(name);
  if (ctx.io.json) ctx.io.printJson({ profile: name, default: true });
  else ctx.io.info(`Profile "${name}" is now the default.`);
}
