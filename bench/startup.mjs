// Start-up cost: `mailctl --version` and `mailctl groups --help` wall time as a ratio to
// `node -e 0`, median of N interleaved runs (interleaving spreads machine noise evenly).
// Target (issue 2): ≤ 1.25×.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const runs = Number(process.env.BENCH_RUNS ?? 21);
const cases = {
  baseline: [process.execPath, ['-e', '0']],
  version: [process.execPath, [bin, '--version']],
  groupsHelp: [process.execPath, [bin, 'groups', '--help']],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < runs + 2; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, MAILCTL_CONFIG_DIR: '/nonexistent-bench' } });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    if (i >= 2) times[name].push(ms); // first two rounds warm the file cache
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const base = median(times.baseline);
const rows = Object.entries(times).map(([name, t]) => ({ name, medianMs: median(t).toFixed(1), ratio: (median(t) / base).toFixed(2) }));
console.log(`start-up, median of ${runs} runs (target ratio ≤ 1.25)`);
for (const r of rows) console.log(`  ${r.name.padEnd(11)} ${r.medianMs.padStart(7)} ms  ${r.ratio}×${r.name !== 'baseline' ? (Number(r.ratio) <= 1.25 ? '  ok' : '  OVER TARGET') : ''}`);
export const result = rows;
