// Node's compile cache (module.enableCompileCache, Node ≥ 22.1) keeps V8's compiled code of
// the bundle between runs, so a run skips compiling the few hundred KB it loads (bin/mailctl.js
// turns it on before loading main.js). It lives in the config directory, with the rest of
// mailctl's local state, and not in a shared temporary directory: the directory is private
// (0700), and a cache that another user could write would be code this user runs. It is used
// only once that directory exists (made by `config set-key`, `--sandbox`, …), so a run that
// stores nothing (`--help`, a first command without a key) does not create it just for a cache.
// Anything in the way (Node 20, a read-only or unwritable directory) leaves the cache off,
// silently: it only saves time.
import path from 'node:path';
import { configDir } from '../config/paths.js';

/** The cache's folder inside the config directory. */
export const COMPILE_CACHE_DIR = 'compile-cache';

type ModuleWithCache = { enableCompileCache?: (dir: string) => unknown };

export function enableCompileCache(env: Record<string, string | undefined>): void {
  const mod = process.getBuiltinModule('node:module') as ModuleWithCache;
  if (typeof mod.enableCompileCache !== 'function') return;
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const dir = path.join(configDir(env), COMPILE_CACHE_DIR);
  try {
    // Not recursive: the config directory must already be there.
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  try {
    // Node reports a directory it cannot use in the returned status rather than throwing.
    mod.enableCompileCache(dir);
  } catch {
    /* the cache stays off */
  }
}
