import type { Context } from '../../src/cli/context.js';
import { profileInUse, settingOrThrow } from './common.js';

export async function run(ctx: Context, _opts: unknown, name: string): Promise<void> {
  const spec = settingOrThrow(name);
  const store = await ctx.config();
  const profile = await profileInUse(ctx);
  const current = { ...store.getProfile(profile) };
  delete current[spec.name];
  store.setProfile(profile, current);
  if (ctx.io.json) ctx.io.printJson({ profile, setting: spec.flag, removed: true });
  else ctx.io.info(`Removed ${spec.flag} from profile "${profile}".`);
}
