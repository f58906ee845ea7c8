import { UsageError } from '../../src/core/errors.js';
import { dryRunTarget, profileInUse, reportDryRun, settingOrThrow } from './common.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareSet } from './index.js';

export const run: Verb<typeof declareSet> = async (ctx, opts, name, value) => {
  const spec = settingOrThrow(ctx, name);
  let parsed;
  try {
    parsed = spec.parse(value);
  } catch (e) {
    throw new UsageError(`Cannot set ${spec.flag}: ${(e as Error).message}`);
  }
  if (opts.dryRun) {
    const t = dryRunTarget(ctx);
    const was = t.store.storedProfile(t.profile)?.[spec.name];
    return reportDryRun(ctx, `would set ${spec.flag} to ${JSON.stringify(parsed)} in profile "${t.profile}" (${t.file})${was === undefined ? '' : `, replacing ${JSON.stringify(was)}`}.`, { profile: t.profile, setting: spec.flag, value: parsed, previous: was ?? null });
  }
  const store = await ctx.config();
  const profile = await profileInUse(ctx);
  store.setProfile(profile, { ...store.storedProfile(profile), [spec.name]: parsed });
  if (ctx.io.json) ctx.io.printJson({ profile, setting: spec.flag, value: parsed });
  else ctx.io.info(`Set ${spec.flag} in profile "${profile}".`);
};
