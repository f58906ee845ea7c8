#!/usr/bin/env node
// Built output lives in dist/ (npm ci runs the build through `prepare`).
// `mailctl --version` is answered before the CLI loads: scripts call it to probe for mailctl,
// and it needs nothing but package.json.
if (process.argv.length === 3 && process.argv[2] === '--version') {
  const fs = process.getBuiltinModule('node:fs'); // no ESM facade of fs: see src/cli/version.ts
  process.stdout.write(JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version + '\n');
} else {
  const { runFromProcess } = await import('../dist/cli/process.js');
  await runFromProcess();
}
