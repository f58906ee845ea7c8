import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { findSetting, SETTINGS } from '../../src/config/keys.js';
import { profileNameFor } from '../../src/config/settings.js';
import { readConfig, CONFIG_FILE_NAME, type ConfigReader } from '../../src/config/read.js';
import path from 'node:path';
import { suggest, suggester } from '../../src/core/suggest.js';

export async function profileInUse(ctx: Context): Promise<string> {
  return profileNameFor(ctx.globals.profile, ctx.env, await ctx.config(), suggester(ctx));
}

/**
 * --dry-run of a config write: the file read (never created) and the profile the write would
 * change; `report` then says what would change, and nothing is written.
 */
export function dryRunTarget(ctx: Context): { store: ConfigReader; profile: string; file: string } {
  const store = readConfig(ctx.configDir, suggester(ctx));
  return { store, profile: profileNameFor(ctx.globals.profile, ctx.env, store, suggester(ctx)), file: path.join(ctx.configDir, CONFIG_FILE_NAME) };
}

export function reportDryRun(ctx: Context, sentence: string, doc: Record<string, unknown>): void {
  if (ctx.io.json) ctx.io.printJson({ dryRun: true, ...doc });
  else ctx.io.info(`Dry run: ${sentence} Nothing was written.`);
}

export function settingOrThrow(ctx: Context, name: string) {
  if (/key/i.test(name) && !findSetting(name)) {
    throw new UsageError('API keys are not set with `config set` (the value would land in your shell history).', `Use \`${suggest(ctx, 'config', 'set-key', '--service', 'campaign')}\` (or --service notify, or both).`);
  }
  const spec = findSetting(name);
  if (!spec) throw new UsageError(`Unknown setting "${name}".`, `Settings: ${SETTINGS.map((s) => s.flag).join(', ')}.`);
  return spec;
}
