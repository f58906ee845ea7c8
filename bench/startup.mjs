// Start-up cost of the help screens (issue 24.6): `mailctl --help`, `mailctl groups --help` and
// `mailctl campaign create --help` (the largest noun), and `mailctl --version`, printed to a pipe,
// each as a ratio to bare node (`node -e 0`), on this Node and on Node 24 (.ci/node24). Target
// ≤ 1.25× on both. `groups --help` on a terminal is printed for information.
// Each mailctl run is paired with a baseline run just before it, BENCH_RUNS pairs (default 25)
// after two warm-up rounds; the verdict is the ratio of the fastest runs (bench/timing.mjs says
// why, and when a PASS is not to be trusted). As a user's first run: no config folder (MAILCTL_CONFIG_DIR names
// one that does not exist, so nothing is read or cached there). Exit 1 when over target, or when
// a runtime cannot be measured.
import { benchEnv, bin, busyNote, doubtNote, loadNote, mean, measures, median, min, runtimes, timedRun } from './timing.mjs';

const TARGET = 1.25;
const runs = Number(process.env.BENCH_RUNS ?? 25);
const env = { ...benchEnv(), MAILCTL_CONFIG_DIR: '/nonexistent-bench' };
const cases = {
  version: { args: [bin, '--version'] },
  help: { args: [bin, '--help'] },
  groupsHelp: { args: [bin, 'groups', '--help'] },
  createHelp: { args: [bin, 'campaign', 'create', '--help'] },
  // On a terminal (100 columns) main() lays each screen out for the terminal's width: the screens
  // the build rendered serve only a pipe or a file (bin/help-screen.cjs). Paired with bare node on
  // a terminal too. For information, not the verdict (issue 24.6 names no terminal).
  groupsHelpTerminal: { args: [bin, 'groups', '--help'], terminal: true, info: true },
};
const { list, missing } = runtimes();
let ok = missing.length === 0;
for (const m of missing) console.log(`  ${m} could not be measured  FAIL`);
if (!measures.terminal) delete cases.groupsHelpTerminal;

console.log(`start-up: each case against bare node (node -e 0) run just before it; ${runs} pairs; target ≤ ${TARGET.toFixed(2)}× (fastest wall time of each)`);
console.log(`  before: ${loadNote()}`);
for (const [label, node] of list) {
  const wall = Object.fromEntries(Object.keys(cases).map((k) => [k, { base: [], run: [], ratio: [], baseCpu: [], cpu: [] }]));
  const names = Object.keys(cases);
  for (let i = 0; i < runs + 2; i++) {
    // A different order each round, so no case always follows the same one.
    const order = names.map((_, j) => names[(i + j) % names.length]);
    for (const name of order) {
      const { args, terminal } = cases[name];
      const b = await timedRun(node, ['-e', '0'], { env, terminal });
      const r = await timedRun(node, args, { env, terminal });
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
    const ratio = min(w.run) / min(w.base);
    const pass = ratio <= TARGET;
    if (!cases[name].info) ok &&= pass;
    const verdict = cases[name].info ? 'info' : pass ? 'PASS' : 'FAIL';
    const doubt = !cases[name].info && pass ? doubtNote(median(w.ratio), TARGET) : '';
    const cpu = measures.cpu ? `; CPU mean ${mean(w.cpu).toFixed(1)} vs ${mean(w.baseCpu).toFixed(1)} ms (${(mean(w.cpu) / mean(w.baseCpu)).toFixed(2)}×)` : '';
    console.log(`    ${name.padEnd(18)} ${ratio.toFixed(2)}×  ${verdict}   fastest ${min(w.run).toFixed(1)} vs ${min(w.base).toFixed(1)} ms; median ${median(w.run).toFixed(1)} vs ${median(w.base).toFixed(1)} ms, of the pair ratios ${median(w.ratio).toFixed(2)}×${cpu}${doubt}`);
  }
}
console.log(`  after: ${loadNote()}${busyNote()}`);
process.exitCode = ok ? 0 : 1;
