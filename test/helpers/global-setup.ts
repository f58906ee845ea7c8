// Runs once before any test file: spawn tests run the real bin/mailctl.js, which needs the
// bundle in dist/cli. `npm test` bundles first (pretest: the bundle alone, not tsc's emit, which
// only the benchmarks use; type errors are `npm run typecheck`'s); a bare `npx vitest` rebuilds it here
// when it is missing or older than the sources — once, so no two workers rebuild at once.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  walk(path.join(root, 'src'));
  walk(path.join(root, 'commands'));
  return newest;
}

export default function setup(): void {
  const entry = path.join(root, 'dist', 'cli', 'main.js');
  if (fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= newestSource()) return;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`building the bundle for the spawn tests failed (exit ${r.status})`);
}
