// Start-up cost of the help screens (issue 24.6): `mailctl --help`, `mailctl groups --help` and
// `mailctl campaign create --help` (the largest noun), and `mailctl --version`, each as a ratio to
// bare node (`node -e 0`), on this Node and on Node 24 (.ci/node24). Target ≤ 1.25× on both.
// Each mailctl run is paired with a baseline run just before it (bench/timing.mjs says why);
// the verdict is the median of the pairs' wall-time ratios, over BENCH_RUNS pairs (default 25)
// after two warm-up rounds. As a user's first run: no config folder (MAILCTL_CONFIG_DIR names
// one that does not exist, so nothing is read or cached there). Exit 1 when over target, or when
// a runtime cannot be measured.
import { benchEnv, bin, busyNote, loadNote, mean, measures, median, min, runtimes, timedRun } from './timing.mjs';

const TARGET = 1.25;
const runs = Number(process.env.BENCH_RUNS ?? 25);
const env = { ...benchEnv(), MAILCTL_CONFIG_DIR: '/nonexistent-bench' };
const cases = {
  version: [bin, '--version'],
  help: [bin, '--help'],
  groupsHelp: [bin, 'groups', '--help'],
  createHelp: [bin, 'campaign', 'create', '--help'],
};
const { list, missing } = runtimes();
let ok = missing.length === 0;
for (const m of missing) console.log(`  ${m} could not be measured  FAIL`);

console.log(`start-up: each case against bare node (node -e 0) run just before it; ${runs} pairs; target ≤ ${TARGET.toFixed(2)}× (median of the pairs' wall-time ratios)`);
console.log(`  before: ${loadNote()}`);
for (const [label, node] of list) {
  const wall = Object.fromEntries(Object.keys(cases).map((k) => [k, { base: [], run: [], ratio: [], baseCpu: [], cpu: [] }]));
  const names = Object.keys(cases);
  for (let i = 0; i < runs + 2; i++) {
    // A different order each round, so no case always follows the same one.
    const order = names.map((_, j) => names[(i + j) % names.length]);
    for (const name of order) {
      const b = await timedRun(node, ['-e', '0'], { env });
      const r = await timedRun(node, cases[name], { env });
      if (b.status !== 0 || r.status !== 0 || !r.out) throw new Error(`${name} on ${label} exited ${r.status}: ${r.err}`);
      if (i < 2) continue; // the first two rounds warm the file cache
      const w = wall[name];
      w.base.push(b.wallMs);
      w.run.push(r.wallMs);
      w.ratio.push(r.wallMs / b.wallMs);
      w.baseCpu.push(b.cpuMs);
      w.cpu.push(r.cpuMs);
    }
  }
  console.log(`  ${label}`);
  for (const [name, w] of Object.entries(wall)) {
    const ratio = median(w.ratio);
    const pass = ratio <= TARGET;
    ok &&= pass;
    const cpu = measures.cpu ? `   CPU mean ${mean(w.cpu).toFixed(1)} ms vs ${mean(w.baseCpu).toFixed(1)} (${(mean(w.cpu) / mean(w.baseCpu)).toFixed(2)}×)` : '';
    console.log(`    ${name.padEnd(11)} ${ratio.toFixed(2)}×  ${pass ? 'PASS' : 'FAIL'}   wall median ${median(w.run).toFixed(1)} ms vs ${median(w.base).toFixed(1)} (${(median(w.run) / median(w.base)).toFixed(2)}×), min ${min(w.run).toFixed(1)} vs ${min(w.base).toFixed(1)} (${(min(w.run) / min(w.base)).toFixed(2)}×)${cpu}`);
  }
}
console.log(`  after: ${loadNote()}${busyNote()}`);
process.exitCode = ok ? 0 : 1;
