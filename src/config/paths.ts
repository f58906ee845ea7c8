// Where mailctl keeps things: the config file and all local state (sandbox, journals, rate
// budget, compile cache) live in one directory. This module is also the bundle's first entry
// (dist/cli/paths.js, scripts/bundle.mjs): the bin turns the compile cache on through it and
// loads main.js with requireBundle (./code-cache.ts), so it stays small and imports nothing else
// of mailctl's.
// Built-ins as they are: the bundle's default import of one copies its exports into a new object.
const path = process.getBuiltinModule('node:path') as typeof import('node:path');

export { requireBundle } from './code-cache.js';

type Env = Record<string, string | undefined>;

/** Where the config file and all local state (sandbox, journals) live. */
export function configDir(env: Env): string {
  if (env.MAILCTL_CONFIG_DIR) return path.resolve(env.MAILCTL_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || env.USERPROFILE || '.', '.config');
  return path.join(base, 'mailctl');
}

/** The compile cache's folder inside the config directory. */
const COMPILE_CACHE_DIR = 'compile-cache';

/**
 * Turns on Node's compile cache (module.enableCompileCache, Node ≥ 22.1), which keeps V8's
 * compiled code of the bundle between runs, and returns its folder, where requireBundle keeps
 * the bundle's own code caches (./code-cache.ts). It lives in the config directory, not in a
 * shared temporary directory: a cache that another user could write would be code this user
 * runs, so it is used only when both the config directory and the cache folder are this user's
 * own and writable by no one else (the config directory is made 0700). Only once the directory
 * exists (made by `config set-key`, `--sandbox`, a first request, …): a run that stores nothing
 * (`--help`) does not create it just for a cache. Anything in the way (Node 20, a read-only,
 * unwritable or shared directory) leaves the cache off, silently (undefined): it only saves time.
 */
export function enableCompileCache(env: Env): string | undefined {
  const mod = process.getBuiltinModule('node:module') as { enableCompileCache?: (dir: string) => unknown };
  if (typeof mod.enableCompileCache !== 'function') return undefined;
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const base = configDir(env);
  const dir = path.join(base, COMPILE_CACHE_DIR);
  try {
    // The directory the user chose may be a link; the cache folder inside it may not.
    if (!ownedAndPrivate(fs.statSync(base))) return undefined;
    try {
      // Not recursive: the config directory must already be there.
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    if (!ownedAndPrivate(fs.lstatSync(dir))) return undefined;
    // Node reports a directory it cannot use in the returned status rather than throwing.
    mod.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined; // the cache stays off
  }
}

/** A real directory (not a link) of this user's that no one else may write to (POSIX; Windows has no such modes). */
function ownedAndPrivate(st: import('node:fs').Stats): boolean {
  if (!st.isDirectory()) return false;
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return true;
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}
