// The bundle (dist/cli, CommonJS chunks) loaded through V8 code caches kept in the compile-cache
// folder (src/config/paths.ts: in the config directory, this user's and private, on the runtimes
// that have a compile cache of their own). Node's own cache holds what V8 compiles when a module
// is compiled: the top level, not the functions, which V8 compiles on their first call. Most of a
// command's start-up is that (a `mailctl balance` on Node 24: ~5 ms of CPU, issue 24.6). A cache
// made when the run ends (vm.Script#createCachedData) holds every function the run compiled, so
// the next run compiles none of them.
//
// Only the bundle's own chunks come through here: each is read, wrapped and compiled as Node's
// CommonJS loader does, with the cache V8 checks before using it (its own version and flags, the
// source's length: it does not read the source, so a folder belongs to one build of the bundle,
// named by dist/cli/build-id, which the build writes from the chunks' contents). Everything else
// a chunk requires (Node's built-ins, csv-parse, …) comes from Node's require, and the packages it
// imports (ora, conf, …) from Node's own loader, through importPackage. A cache is written once, when the run that found none or had it
// refused exits, whole, into a file of its own renamed into place; anything in the way leaves the
// run as it was: the cache only saves time.
// Built-ins as they are (the bin loads this before anything else, on every run): the bundle's
// default import of one copies its exports into a new object each time.
const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
const path = process.getBuiltinModule('node:path') as typeof import('node:path');
const vm = process.getBuiltinModule('node:vm') as typeof import('node:vm');
const { createRequire } = process.getBuiltinModule('node:module') as typeof import('node:module');
type Script = import('node:vm').Script;

/** The folders of the caches of one build on one runtime start so, beside Node's own. */
const FOLDER_PREFIX = 'mailctl-';
const BUILD_ID = /^[0-9a-f]{16,64}$/;

interface LoadedModule {
  exports: unknown;
}

/**
 * Requires the bundle's entry (dist/cli/main.js) and, through it, the chunks beside it: through
 * code caches in `cacheRoot` when given (src/config/paths.ts enableCompileCache), else as Node
 * requires them.
 */
export function requireBundle(entry: string, cacheRoot: string | undefined): unknown {
  const folder = cacheRoot === undefined ? undefined : cacheFolder(path.dirname(entry), cacheRoot);
  if (folder === undefined) return createRequire(entry)(entry);
  const bundleDir = path.dirname(entry);
  const nodeCache = createRequire(entry).cache;
  const loaded = new Map<string, LoadedModule>();
  const fresh: Array<{ script: Script; file: string }> = [];
  const load = (file: string): unknown => {
    // A chunk Node has loaded already (paths.js, which the bin requires, and what it requires) is that one.
    const known = loaded.get(file) ?? nodeCache[file];
    if (known) return known.exports;
    const source = fs.readFileSync(file, 'utf8');
    const cacheFile = path.join(folder, `${path.basename(file)}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      /* none yet */
    }
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __import) { ${source}\n})`, { filename: file, cachedData });
    if (!cachedData || script.cachedDataRejected) fresh.push({ script, file: cacheFile });
    const module: LoadedModule = { exports: {} };
    loaded.set(file, module);
    const nodeRequire = createRequire(file);
    // The bundle's chunks require each other as "./name.js"; anything else is Node's.
    const chunkRequire = (id: string) => (id.startsWith('./') ? load(path.join(bundleDir, id)) : nodeRequire(id));
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, chunkRequire, module, file, bundleDir, importPackage);
    return module.exports;
  };
  process.once('exit', () => save(fresh));
  return load(entry);
}

/**
 * A chunk's import() of a package (ora, conf, the MCP SDK), which the build rewrites into a call
 * of this (scripts/bundle.mjs): made here, in a module Node loaded, it goes to Node's own module
 * loader; made in code vm.Script compiled, it would need an option Node calls experimental (and
 * says so on stderr). This module sits beside the chunks, so a name resolves as from any of them.
 */
const importPackage = (specifier: string): Promise<unknown> => import(specifier);

/** This build's folder in the cache root, made when missing (the folders of other builds then go); undefined when it cannot be used. */
function cacheFolder(bundleDir: string, cacheRoot: string): string | undefined {
  try {
    const id = fs.readFileSync(path.join(bundleDir, 'build-id'), 'utf8').trim();
    if (!BUILD_ID.test(id)) return undefined;
    const name = `${FOLDER_PREFIX}${process.version}-${process.arch}-${id}`;
    const folder = path.join(cacheRoot, name);
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
      // A new build (or runtime): the caches of the others are of no more use.
      for (const other of fs.readdirSync(cacheRoot)) {
        if (other !== name && other.startsWith(FOLDER_PREFIX)) fs.rmSync(path.join(cacheRoot, other), { recursive: true, force: true });
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    // The root was checked as this user's and private; a link in it is not the folder.
    return fs.lstatSync(folder).isDirectory() ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the caches of the chunks compiled without one: each whole, in a file of its own renamed into place. */
function save(fresh: Array<{ script: Script; file: string }>): void {
  for (const { script, file } of fresh) {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, script.createCachedData(), { flag: 'wx', mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        /* left for the next build's clean-up */
      }
    }
  }
}
