import { SilentExit } from '../../src/cli/errors.js';
import { profileInUse, settingOrThrow } from './common.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareGet } from './index.js';

export const run: Verb<typeof declareGet> = async (ctx, _opts, name) => {
  const spec = settingOrThrow(ctx, name);
  const store = await ctx.config();
  const value = store.getProfile(await profileInUse(ctx))?.[spec.name];
  if (ctx.io.json) {
    ctx.io.printJson({ [spec.flag]: value ?? null });
    return;
  }
  if (value === undefined) throw new SilentExit(1); // like `git config`: unset prints nothing, exit 1
  ctx.io.out(typeof value === 'object' ? Object.entries(value).map(([k, v]) => `${k}:${v}`).join(',') : String(value));
};
