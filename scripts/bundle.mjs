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
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outdir: path.join(root, 'dist/cli'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  external: ['ky', 'conf', 'ora', '@inquirer/prompts', 'csv-parse', 'csv-parse/*', 'cli-table3'],
  // commander is CommonJS and require()s only Node built-ins. process.getBuiltinModule
  // (Node ≥ 20.16; engines say ≥ 20.17) hands them over without createRequire(), which would
  // initialise the CommonJS loader, and without ESM facades of the built-ins.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
  plugins: [
    {
      // commander loads child_process only for executable subcommands, which mailctl does not
      // use; loading it costs ~5 ms of every start-up (child_process, net, dgram).
      name: 'no-child-process-for-commander',
      setup(b) {
        b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: stub } : undefined));
      },
    },
  ],
});
