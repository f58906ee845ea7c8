import path from 'node:path';

type Env = Record<string, string | undefined>;

/** Where the config file and all local state (sandbox, journals) live. */
export function configDir(env: Env): string {
  if (env.MAILCTL_CONFIG_DIR) return path.resolve(env.MAILCTL_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || env.USERPROFILE || '.', '.config');
  return path.join(base, 'mailctl');
}
