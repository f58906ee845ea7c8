import { dryRunTarget, profileInUse, reportDryRun, settingOrThrow } from './common.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareUnset } from './index.js';

export const run: Verb<typeof declareUnset> = async (ctx, opts, name) => {
  const spec = settingOrThrow(ctx, name);
  if (opts.dryRun) {
    const t = dryRunTarget(ctx);
    const was = t.store.storedProfile(t.profile)?.[spec.name];
    return reportDryRun(
      ctx,
      was === undefined ? `profile "${t.profile}" has no ${spec.flag}; unset would change nothing.` : `would remove ${spec.flag} (${JSON.stringify(was)}) from profile "${t.profile}" (${t.file}).`,
      { profile: t.profile, setting: spec.flag, previous: was ?? null },
    );
  }
  const store = await ctx.config();
  const profile = await profileInUse(ctx);
  const current = { ...store.storedProfile(profile) };
  delete current[spec.name];
  store.setProfile(profile, current);
  if (ctx.io.json) ctx.io.printJson({ profile, setting: spec.flag, removed: true });
  else ctx.io.info(`Removed ${spec.flag} from profile "${profile}".`);
};
