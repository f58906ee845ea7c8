import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { profileNameMessage, profileNameProblem } from '../../src/config/profile-name.js';

export async function run(ctx: Context, opts: { yes?: boolean }, name: string): Promise<void> {
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(profileNameMessage('The profile name', name, problem));
  const store = await ctx.config();
  if (!store.getProfile(name)) throw new UsageError(`There is no profile "${name}".`, 'List profiles with `mailctl config profiles`.');
  if (!opts.yes) {
    ctx.requirePrompt(`Deleting profile "${name}"`, '--yes');
    if (!(await ctx.prompter.confirm(`Delete profile "${name}" and its keys?`, false))) {
      ctx.io.info('Nothing deleted.');
      return;
    }
  }
  store.deleteProfile(name);
  ctx.io.info(`Deleted profile "${name}".`);
}
