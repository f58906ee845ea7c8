import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { profileNameMessage, profileNameProblem } from '../../src/config/profile-name.js';

export async function run(ctx: Context, _opts: unknown, name: string): Promise<void> {
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(profileNameMessage('The profile name', name, problem));
  const store = await ctx.config();
  // A typo must not silently become an empty default profile (every command would then fail
  // for want of a key). "default" always exists, stored or not.
  if (!store.getProfile(name) && name !== 'default') {
    const known = store.profileNames();
    throw new UsageError(
      `There is no profile "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}.`,
      `Create it by storing its key: mailctl --profile ${name} config set-key`,
    );
  }
  store.setCurrentProfile(name);
  if (ctx.io.json) ctx.io.printJson({ profile: name, default: true });
  else ctx.io.info(`Profile "${name}" is now the default.`);
}
