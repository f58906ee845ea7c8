import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { profileInUse, settingOrThrow } from './common.js';

export async function run(ctx: Context, _opts: unknown, name: string, value: string): Promise<void> {
  const spec = settingOrThrow(name);
  let parsed;
  try {
    parsed = spec.parse(value);
  } catch (e) {
    throw new UsageError(`Cannot set ${spec.flag}: ${(e as Error).message}`);
  }
  const store = await ctx.config();
  const profile = await profileInUse(ctx);
  store.setProfile(profile, { ...store.getProfile(profile), [spec.name]: parsed });
  if (ctx.io.json) ctx.io.printJson({ profile, setting: spec.flag, value: parsed });
  else ctx.io.info(`Set ${spec.flag} in profile "${profile}".`);
}
