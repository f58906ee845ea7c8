import { UsageError } from '../../src/core/errors.js';
import { profileNameMessage, profileNameProblem } from '../../src/config/profile-name.js';
import { dryRunTarget, reportDryRun } from './common.js';
import type { ConfigReader } from '../../src/config/read.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareUse } from './index.js';

export const run: Verb<typeof declareUse> = async (ctx, opts, name) => {
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(profileNameMessage('The profile name', name, problem));
  // A dry run reads the file (never creating it); a real one opens the writer.
  const store: ConfigReader = opts.dryRun ? dryRunTarget(ctx).store : await ctx.config();
  // A typo must not silently become an empty default profile (every command would then fail
  // for want of a key). "default" always exists, stored or not.
  if (!store.storedProfile(name) && name !== 'default') {
    const known = store.profileNames();
    throw new UsageError(
      `There is no profile "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}.`,
      `Create it by storing its key: ${suggest({ env: ctx.env, globals: { ...ctx.globals, profile: name } }, 'config', 'set-key')}`,
    );
  }
  if (opts.dryRun) return reportDryRun(ctx, `would make profile "${name}" the default (now: "${store.currentProfile() ?? 'default'}").`, { profile: name, previous: store.currentProfile() ?? 'default' });
  (await ctx.config()).setCurrentProfile(name);
  if (ctx.io.json) ctx.io.printJson({ profile: name, default: true });
  else ctx.io.info(`Profile "${name}" is now the default.`);
};
