import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { findSetting, SETTINGS } from '../../src/config/keys.js';
import { profileNameFor } from '../../src/config/settings.js';

export async function profileInUse(ctx: Context): Promise<string> {
  return profileNameFor(ctx.globals.profile, ctx.env, await ctx.config());
}

export function settingOrThrow(name: string) {
  if (/key/i.test(name) && !findSetting(name)) {
    throw new UsageError('API keys are not set with `config set` (the value would land in your shell history).', 'Use `mailctl config set-key --service campaign|notify|both`.');
  }
  const spec = findSetting(name);
  if (!spec) throw new UsageError(`Unknown setting "${name}".`, `Settings: ${SETTINGS.map((s) => s.flag).join(', ')}.`);
  return spec;
}
