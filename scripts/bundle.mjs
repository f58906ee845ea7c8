// Bundles the CLI entry for fast start-up (issue 2: `mailctl --version` ≤ 1.25× `node -e 0`).
// tsc still emits dist/src for type-checked library use (benchmarks import the sandbox from
// there); the bin runs this bundle. Each command stays a lazily loaded chunk, and runtime
// packages other than commander stay external (loaded only by the commands that use them).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stub = path.join(root, 'scripts', 'child-process-stub.cjs');

await build({
  entryPoints: [path.join(root, 'src/cli/process.ts')],
  outdir: path.join(root, 'dist/cli'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  external: ['ky', 'conf', 'ora', '@inquirer/prompts', 'csv-parse', 'csv-parse/*', 'cli-table3'],
  plugins: [
    {
      // commander loads child_process only for executable subcommands, which mailctl does not
      // use; loading it costs ~5 ms of every start-up (child_process, net, dgram).
      name: 'no-child-process-for-commander',
      setup(b) {
        b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: stub } : undefined));
      },
    },
    {
      // commander is CommonJS and require()s a few built-ins. Serving them as bundled ESM
      // re-exports avoids a createRequire() at start-up (it initialises the whole CJS loader).
      name: 'builtins-as-esm-for-commander',
      setup(b) {
        b.onResolve({ filter: /^(node:)?(events|path|fs|process)$/ }, (args) =>
          args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-esm' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'builtin-esm' }, (args) => ({
          contents: `import * as ns from 'node:${args.path}'; export * from 'node:${args.path}'; export default ns.default;`,
          loader: 'js',
        }));
      },
    },
  ],
});
