// Bundles the CLI for fast start-up. tsc still emits dist/src for type-checked library use
// (benchmarks import the sandbox from there); the bin runs this bundle.
//
// What loads when (issue 2: `--help` close to `node -e 0`; issue 14.9 and 24.6: a one-request
// command close to a bare `fetch` script):
// - paths.js: a tiny second entry the bin loads first, to turn Node's compile cache on in the
//   config directory (src/config/paths.ts) and load main.js, through V8 code caches where the
//   runtime has a compile cache (src/config/code-cache.ts).
// - main.js: commander, main() and each noun's one-line entry (commands/nouns.ts).
// - each noun's registration (commands/<noun>/index.ts), a chunk loaded for that noun only;
//   with main.js, all that its `--help` reads on a terminal (a pipe or a file gets the help
//   screens rendered below, bin/help-screen.cjs).
// - core: what running any command needs (src/cli/runtime.ts and what it reaches: Context,
//   IO, settings, output choice, errors, the table/TSV printers), loaded with one import when
//   an action starts.
// - api: the two API clients, the HTTP layer and ky, loaded when a command first asks for a
//   client (ky's first evaluation loads Node's fetch, so a command that sends nothing skips it).
// - each verb's own code, and what only some verbs share, in chunks of their own, as before.
// esbuild, which built this before, makes a chunk for every distinct set of importers: with ky
// external, `mailctl balance` read 50 files, a few tenths of a ms each; now 5 (rolldown's
// codeSplitting groups make core and api one file each).
// The chunks are CommonJS (dist/cli/package.json says so), loaded by require(): a command that
// needs no ES-module-only package (ora, conf, @inquirer/prompts, the MCP SDK: each imported
// where it is used) never goes through the ES module loader, whose module jobs and async reads
// cost Node 20 more than the reads themselves; Node's built-ins come as they are, with no ESM
// facade reading their exports (node:fs's would load all of streams).
// conf, ora, @inquirer/prompts, csv-parse and cli-table3 stay external (loaded by the verbs that
// use them); so do the event store's database clients, libsql (a native addon it finds beside
// itself) and postgres, loaded only when a command opens the store, and the MCP SDK, loaded only
// by `mailctl mcp`; commander, ky and the rest are bundled.
import { rolldown } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = (p) => path.join(root, p);
const stub = src('scripts/child-process-stub.cjs');
const outDir = src('dist/cli');
const entries = { main: src('commands/main.ts'), paths: src('src/config/paths.ts') };
/** Each group is one chunk: the modules its roots reach by static imports, less what start-up already loads. */
const GROUPS = [
  { name: 'core', roots: ['src/cli/runtime.ts', 'src/run/output/format.ts'] },
  { name: 'api', roots: ['src/api/campaign.ts', 'src/api/notify.ts'] },
];
/** Each noun's registration, a chunk of its own loaded when that noun runs (commands/nouns.ts). */
const NOUN_REGISTRATIONS = fs.readdirSync(src('commands'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(src(`commands/${e.name}/index.ts`)))
  .map((e) => src(`commands/${e.name}/index.ts`));
const EXTERNAL = ['conf', 'ora', '@inquirer/prompts', 'csv-parse', 'cli-table3', 'libsql', 'postgres', '@modelcontextprotocol/sdk'];

// The static import graph, filled in as rolldown parses (moduleParsed), read when it chunks.
const staticImports = new Map();
const reach = (starts, skip = new Set()) => {
  const seen = new Set();
  const todo = starts.filter((id) => staticImports.has(id));
  while (todo.length) {
    const id = todo.pop();
    if (seen.has(id) || skip.has(id)) continue;
    seen.add(id);
    todo.push(...(staticImports.get(id) ?? []));
  }
  return seen;
};
let membership;
/** The group a module belongs to, if any (first group wins). */
function groupOf(id) {
  if (!membership) {
    membership = new Map();
    // Start-up's own modules stay out of the groups: in a group they would make start-up load it.
    // That is the entries and each noun's registration (commands/<noun>/index.ts, loaded by
    // commands/nouns.ts for the noun being run, `--help` included): a table one registration
    // shares with the run kit (the time-zone codes) must not make `campaign create --help` load core.
    const taken = reach([...Object.values(entries), ...NOUN_REGISTRATIONS]);
    for (const g of GROUPS) {
      for (const m of reach(g.roots.map(src), taken)) {
        membership.set(m, g.name);
        taken.add(m);
      }
    }
  }
  return membership.get(id);
}

fs.rmSync(outDir, { recursive: true, force: true }); // hashed names: no stale chunk left beside the new ones
const bundle = await rolldown({
  input: entries,
  platform: 'node',
  // Entry chunks may export more than their module does (the groups' chunks import from them).
  preserveEntrySignatures: 'allow-extension',
  // Sources import './x.js' for './x.ts' (TypeScript's NodeNext rule).
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // An import of a Node built-in or an external package that nothing uses is dropped, not
  // kept for side effects they do not have (it would load node:crypto for a constant).
  treeshake: { moduleSideEffects: 'no-external' },
  external: EXTERNAL.flatMap((p) => [p, new RegExp(`^${p.replace(/[/.]/g, '\\$&')}/`)]),
  onLog(level, log, handler) {
    // A dynamic import of a module that a group (or start-up) holds: it resolves to that chunk,
    // already loaded or loaded once; that is the intent here, not a mistake.
    if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    handler(level, log);
  },
  plugins: [
    {
      // commander loads child_process only for executable subcommands, which mailctl does not
      // use; loading it costs ~5 ms of every start-up (child_process, net, dgram).
      name: 'no-child-process-for-commander',
      resolveId(source, importer) {
        if (/^(node:)?child_process$/.test(source) && importer?.includes(`${path.sep}commander${path.sep}`)) return stub;
        return undefined;
      },
    },
    {
      // ky finds out at import whether fetch takes a stream body by building a Request with a
      // ReadableStream: ~0.7 ms of every request's start-up on Node 24 (issue 24.6), for an answer
      // that is yes on every runtime mailctl runs on (Node ≥ 20.17's fetch takes duplex: 'half').
      // The build fails here when a ky update changes the probe, so the answer is never stale.
      name: 'ky-request-streams-known',
      transform(code, id) {
        if (!id.endsWith(`${path.sep}ky${path.sep}distribution${path.sep}core${path.sep}constants.js`)) return undefined;
        const probe = /export const supportsRequestStreams = \(\(\) => \{[^]*?\n\}\)\(\);\n/;
        if (!probe.test(code)) throw new Error('ky-request-streams-known: ky/distribution/core/constants.js no longer has the probe this build replaces; look again');
        return { code: code.replace(probe, 'export const supportsRequestStreams = true;\n'), map: null };
      },
    },
    {
      name: 'static-import-graph',
      moduleParsed(info) {
        staticImports.set(info.id, info.importedIds);
      },
    },
  ],
});
await bundle.write({
  dir: outDir,
  format: 'cjs',
  // The sources are ES modules, written for strict mode (assigning an undeclared name throws,
  // `this` in a plain call is undefined): CommonJS is sloppy unless told.
  strict: true,
  // ASCII only (what is not is escaped, and comments, which cannot be, dropped): V8 keeps such a
  // source in one byte a character instead of two, which it reads, hashes and collects faster.
  charset: 'ascii',
  // Licence notices of the bundled packages (ky's `/*! MIT License © … */`) stay, as their licences
  // ask; their © is written (c) below, so the chunk stays ASCII.
  comments: { legal: true, annotation: false, jsdoc: false },
  plugins: [importsThroughLoader(), builtinsUncopied()],
  codeSplitting: {
    includeDependenciesRecursively: false,
    groups: GROUPS.map((g) => ({ name: g.name, test: (id) => groupOf(id) === g.name })),
  },
});
await bundle.close();
// The package is an ES module package; these files are CommonJS.
fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
for (const f of fs.readdirSync(outDir)) {
  if (!f.endsWith('.js')) continue;
  const file = path.join(outDir, f);
  const code = fs.readFileSync(file, 'utf8');
  const ascii = code.replace(/\/\*![^]*?\*\//g, (c) => c.replace(/\u00a9/g, '(c)'));
  if (ascii !== code) fs.writeFileSync(file, ascii);
}
// Names this build for the code caches (src/config/code-cache.ts): V8 checks a cache against a
// source's length only, so a cache must never meet another build's main.js.
const hash = createHash('sha256');
for (const f of fs.readdirSync(outDir).sort()) if (f.endsWith('.js')) hash.update(f).update('\0').update(fs.readFileSync(path.join(outDir, f))).update('\0');
fs.writeFileSync(path.join(outDir, 'build-id'), `${hash.digest('hex').slice(0, 32)}\n`);
await writeHelpScreens();

/**
 * Every command's --help screen as the bundle just written prints it for a pipe or a file, for
 * bin/help-screen.cjs (commands/help-screens.ts has the format). The command tree comes from the
 * sources, bundled on their own into a folder removed afterwards; each screen from main.js.
 */
async function writeHelpScreens() {
  const tmp = src('dist/.help-screens');
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    const tree = await rolldown({
      input: src('commands/help-screens.ts'),
      platform: 'node',
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
      external: EXTERNAL.flatMap((p) => [p, new RegExp(`^${p.replace(/[/.]/g, '\\$&')}/`)]),
    });
    await tree.write({ dir: tmp, format: 'esm', banner: 'const require = (id) => process.getBuiltinModule(id);', polyfillRequire: false, codeSplitting: false });
    await tree.close();
    const { renderHelpScreens } = await import(pathToFileURL(path.join(tmp, 'help-screens.js')).href);
    const { main } = createRequire(import.meta.url)(path.join(outDir, 'main.js'));
    const { Readable, Writable } = await import('node:stream');
    const render = async (argv) => {
      const out = { stdout: '', stderr: '' };
      const sink = (k) => new Writable({ write: (chunk, _enc, done) => { out[k] += chunk; done(); } });
      // As a pipe gets it: no terminal, no colour settings, no config, nothing to read.
      const code = await main({ argv, env: {}, stdin: Readable.from([]), stdout: sink('stdout'), stderr: sink('stderr'), stdinTTY: false, stdoutTTY: false, stderrTTY: false });
      return { code, ...out };
    };
    const { index, text } = await renderHelpScreens(render);
    fs.writeFileSync(path.join(outDir, 'help-screens.txt'), text);
    fs.writeFileSync(path.join(outDir, 'help-screens.json'), JSON.stringify(index));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A Node built-in as it is, not a copy. For CommonJS output rolldown wraps each `require("node:fs")`
 * in __toESM, which copies every export of the module onto a new object as a getter (node:fs:
 * some hundred bound functions and property definitions), once per chunk: on the path of one
 * request (core and api chunks: path, fs, os, fs/promises) ~0.5 ms on Node 24 (issue 24.6). An
 * object whose prototype is the module gives the same names, live, and `default` (the module,
 * as __toESM gives it in Node mode).
 */
function builtinsUncopied() {
  return {
    name: 'builtins-uncopied',
    renderChunk(code) {
      const out = code.replace(/^(let (node_\w+) = require\("node:[\w/]+"\);\n)\2 = require_rolldown_runtime\.__toESM\(\2, 1\);$/gm, '$1$2 = Object.create($2, { default: { value: $2, enumerable: true } });');
      return out === code ? null : out;
    },
  };
}

/**
 * A chunk's import() of a package (ora, conf, @inquirer/prompts, the MCP SDK, …) goes through the
 * `__import` the code-cache loader hands each chunk it compiles (src/config/code-cache.ts): code
 * compiled by vm.Script gets to Node's module loader for an import() only through an option Node
 * calls experimental, with a warning on stderr. Where Node's require loaded the chunk (Node 20,
 * no cache) there is no `__import`, and the import() is the chunk's own.
 */
function importsThroughLoader() {
  return {
    name: 'imports-through-loader',
    renderChunk(code) {
      const found = [];
      const walk = (node) => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(walk);
        if (node.type === 'ImportExpression' && node.source.type === 'Literal' && !String(node.source.value).startsWith('.')) found.push(node);
        for (const k of Object.keys(node)) if (k !== 'type') walk(node[k]);
      };
      walk(parseAst(code));
      if (!found.length) return null;
      let out = '';
      let at = 0;
      for (const node of found.sort((a, b) => a.start - b.start)) {
        const source = code.slice(node.source.start, node.source.end);
        out += `${code.slice(at, node.start)}(typeof __import === "function" ? __import(${source}) : import(${source}))`;
        at = node.end;
      }
      return out + code.slice(at);
    },
  };
}
