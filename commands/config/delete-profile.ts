import { UsageError } from '../../src/core/errors.js';
import { profileNameMessage, profileNameProblem } from '../../src/config/profile-name.js';
import { dryRunTarget, reportDryRun } from './common.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareDeleteProfile } from './index.js';

export const run: Verb<typeof declareDeleteProfile> = async (ctx, opts, name) => {
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(profileNameMessage('The profile name', name, problem));
  const reader = opts.dryRun ? dryRunTarget(ctx) : undefined;
  const profile = reader ? reader.store.storedProfile(name) : (await ctx.config()).storedProfile(name);
  if (!profile) throw new UsageError(`There is no profile "${name}".`, `List profiles with \`${suggest(ctx, 'config', 'profiles')}\`.`);
  if (reader) {
    const keys = (['apiKey', 'campaignKey', 'notifyKey'] as const).filter((k) => profile[k]).length;
    return reportDryRun(ctx, `would delete profile "${name}" (${keys} key${keys === 1 ? '' : 's'}) from ${reader.file}.`, { profile: name, keys });
  }
  const store = await ctx.config();
  if (!opts.yes) {
    ctx.requirePrompt(`Deleting profile "${name}"`, '--yes');
    if (!(await ctx.prompter.confirm(`Delete profile "${name}" and its keys?`, false))) {
      ctx.io.info('Nothing deleted.');
      if (ctx.io.json) ctx.io.printJson({ profile: name, deleted: false });
      return;
    }
  }
  store.deleteProfile(name);
  if (ctx.io.json) ctx.io.printJson({ profile: name, deleted: true });
  else ctx.io.info(`Deleted profile "${name}".`);
};
