// `npm run bench`: every benchmark in turn (each prints its own measured-vs-target table).
// Pass names to run some: `npm run bench -- startup import`. `report-sync` waits out the real
// export pacing (~5 min): it runs when named, or with `--slow` (or BENCH_SLOW=1).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const slow = process.argv.includes('--slow') || !!process.env.BENCH_SLOW;
const all = ['startup', 'one-request', 'import', 'send', 'listen', 'listen-store', 'ratelimit', ...(slow ? ['report-sync'] : [])];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let failed = false;
for (const name of wanted.length ? wanted : all) {
  const file = path.join(dir, `${name}.mjs`);
  if (!fs.existsSync(file)) continue;
  console.log(`\n## ${name}`);
  const r = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
