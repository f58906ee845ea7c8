// Contact import (issues 4 and 24.7), measured through the built CLI (`npm run build` first):
//  (a) `mailctl import big.csv --group G --dry-run` wall time as a ratio to a bare csv-parse
//      loop over the same file, both as fresh node processes. Target ≤ 1.2×. The machine is
//      shared, so the two are run in turn (bare, mailctl, bare, mailctl…, at least 5 of each,
//      `--runs N`), the ratio is of the two medians, and beside it are printed every run, each
//      pair's ratio, the CPU time (user + sys, which other processes' load moves least) and the
//      load average before and after: a figure taken under a changing load says so. The dry run
//      sends nothing and needs no key: the group is not looked up.
//  (b) peak RSS of that dry run. Target ≤ 200 MiB at 1M rows; `--rows 10000000` for the
//      10M-row case (target ≤ 400 MiB).
//  Both on the machine's Node and on Node 24 (.ci/node24, as `npm ci --prefix .ci/node24`
//  installs it for CI and bench/one-request.mjs; skipped with a note when it is not there).
//  `--against DIR` times another built checkout's dry run in the same rounds (bare, this,
//      that…), so a before/after comparison shares the load: `git worktree add /tmp/before
//      main && (cd /tmp/before && npm ci)`, then `node bench/import.mjs --against /tmp/before`.
//  `--cpu-prof` instead writes a CPU profile of one dry run to bench/.data/profile/ (open it in
//      Chrome's DevTools) and prints the functions that took the most time themselves.
//  (c) `--upload`: peak RSS of a real import of a ~500 MB file into a `mailctl sandbox serve`
//      instance (check, then PUT streamed from disk). Target ≤ 150 MiB. The file has 1M wide
//      rows (a ~440-byte NOTE column), so the number measured is the upload's, not the memory
//      the duplicate check needs for many rows (that is (b)).
// Generated files live in bench/.data/ (not committed) and are reused between runs.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const dataDir = path.join(root, 'bench', '.data');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const ROWS = Number(arg('--rows', process.env.BENCH_IMPORT_ROWS ?? 1_000_000));
const RUNS = Math.max(5, Number(arg('--runs', process.env.BENCH_RUNS ?? 5)));
const UPLOAD = process.argv.includes('--upload');
const AGAINST = arg('--against');
const PROFILE = process.argv.includes('--cpu-prof');
const MiB = 1024 * 1024;
if (!fs.existsSync(path.join(root, 'dist'))) throw new Error('dist/ is missing: run `npm run build` first.');
fs.mkdirSync(dataDir, { recursive: true });

/** A contacts file: EMAIL,NAME,AGE,JOINED[,NOTE]; 0.1 % invalid addresses and 0.1 % duplicates. */
function generate(file, rows, note = '') {
  const stamp = `${file}.rows`;
  if (fs.existsSync(file) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === String(rows)) return;
  const fd = fs.openSync(file, 'w');
  let buf = note ? 'EMAIL,NAME,AGE,JOINED,NOTE\n' : 'EMAIL,NAME,AGE,JOINED\n';
  for (let i = 1; i <= rows; i++) {
    const id = String(i).padStart(8, '0');
    let email = `user${id}@mail${i % 97}.example.com`;
    if (i % 1000 === 7) email = `broken${id}.example.com`;
    if (i % 1000 === 13) email = `USER${String(i - 1).padStart(8, '0')}@mail${(i - 1) % 97}.example.com`;
    buf += `${email},User ${id},${20 + (i % 60)},2024-0${1 + (i % 9)}-1${i % 10}${note ? `,${note}` : ''}\n`;
    if (buf.length > 4 * MiB) {
      fs.writeSync(fd, buf);
      buf = '';
    }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
  fs.writeFileSync(stamp, String(rows));
}

const hasTime = fs.existsSync('/usr/bin/time');

/** Runs `node args…`; returns wall ms, CPU ms, and peak RSS (MiB) from /usr/bin/time -v or /proc polling. */
function measure(node, args, env = {}) {
  return new Promise((resolve, reject) => {
    const cmd = hasTime ? '/usr/bin/time' : node;
    const full = hasTime ? ['-v', node, ...args] : args;
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, full, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    let peakKb = 0;
    const poll = hasTime ? undefined : setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch { /* exited */ }
    }, 20);
    child.on('close', (code) => {
      clearInterval(poll);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (m) peakKb = Number(m[1]);
      const status = hasTime ? Number(/Exit status: (\d+)/.exec(err)?.[1] ?? code) : code;
      const cpu = (what) => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(err)?.[1] ?? NaN) * 1000;
      resolve({ ms, cpuMs: cpu('User') + cpu('System'), rssMiB: peakKb / 1024, status, stderr: err });
    });
    child.on('error', reject);
  });
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const results = [];

// The runtimes: this Node, and Node 24 when .ci/node24 has it.
const node24 = path.join(root, '.ci', 'node24', 'node_modules', '.bin', 'node');
const versionOf = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
const runtimes = [[process.version, process.execPath]];
if (!process.version.startsWith('v24.')) {
  const v24 = fs.existsSync(node24) ? versionOf(node24) : '';
  if (v24.startsWith('v24.')) runtimes.push([v24, node24]);
  else console.log('Node 24 is not measured: .ci/node24 has none (`npm ci --prefix .ci/node24` installs it, as CI does).');
}

// (a) and (b)
const big = path.join(dataDir, ROWS === 1_000_000 ? 'big.csv' : `big-${ROWS}.csv`);
process.stdout.write(`generating ${fmt(ROWS)} rows… `);
generate(big, ROWS);
console.log(`${fmt(fs.statSync(big).size / MiB, 1)} MiB in ${path.relative(root, big)}`);
const bare = ['--input-type=module', '-e', `
  import fs from 'node:fs';
  import { parse } from 'csv-parse';
  let n = 0;
  for await (const r of fs.createReadStream(process.argv[1]).pipe(parse())) n++;
`, big];
const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-import-'));
const noKeys = { MAILCTL_CONFIG_DIR: cfg, MAILCTL_API_KEY: '', MAILCTL_CAMPAIGN_API_KEY: '', MAILCTL_NOTIFY_API_KEY: '' };
const dry = [bin, 'import', big, '--group', 'G', '--dry-run'];
const other = AGAINST && [path.join(path.resolve(AGAINST), 'bin', 'mailctl.js'), ...dry.slice(1)];
const RATIO_TARGET = 1.2;
const rssTarget = ROWS > 1_000_000 ? 400 : 200;

if (PROFILE) {
  const dir = path.join(dataDir, 'profile');
  fs.rmSync(dir, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200', ...dry], { cwd: root, env: { ...process.env, ...noKeys }, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`the profiled dry run exited ${r.status}`);
  const file = path.join(dir, fs.readdirSync(dir)[0]);
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const frames = new Map(prof.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const f = frames.get(id);
    const where = `${f.functionName || '(anonymous)'}  ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`;
    self.set(where, (self.get(where) ?? 0) + prof.timeDeltas[i]);
    total += prof.timeDeltas[i];
  });
  console.log(`\nCPU profile of one dry run (${process.version}): ${path.relative(root, file)}, ${fmt(total / 1000)} ms sampled`);
  console.log('  self ms   share  function');
  for (const [where, us] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 20)) {
    console.log(`  ${fmt(us / 1000, 1).padStart(7)}  ${fmt((100 * us) / total, 1).padStart(5)} %  ${where}`);
  }
  fs.rmSync(cfg, { recursive: true, force: true });
  process.exit(0);
}

for (const [version, node] of runtimes) {
  const times = { bare: [], dry: [], other: [] };
  const cpu = { bare: [], dry: [], other: [] };
  let peak = 0;
  await measure(node, bare); // warm the file cache
  await measure(node, dry, noKeys); // and the compile cache in the config folder, as a second run has it
  if (other) await measure(node, other, noKeys);
  const loadBefore = load();
  for (let i = 0; i < RUNS; i++) {
    const b = await measure(node, bare);
    if (b.status !== 0) throw new Error(`bare csv-parse loop failed: ${b.stderr}`);
    times.bare.push(b.ms);
    cpu.bare.push(b.cpuMs);
    const d = await measure(node, dry, noKeys);
    if (d.status !== 0) throw new Error(`dry run exited ${d.status}: ${d.stderr}`);
    times.dry.push(d.ms);
    cpu.dry.push(d.cpuMs);
    peak = Math.max(peak, d.rssMiB);
    if (other) {
      const a = await measure(node, other, noKeys);
      if (a.status !== 0) throw new Error(`--against's dry run exited ${a.status}: ${a.stderr}`);
      times.other.push(a.ms);
      cpu.other.push(a.cpuMs);
    }
  }
  const loadAfter = load();
  const ratio = median(times.dry) / median(times.bare);
  // Each pair's own ratio too: a wide spread means the load moved during the runs.
  const pairs = times.dry.map((d, i) => d / times.bare[i]).sort((x, y) => x - y);
  console.log(`\nnode ${version}: medians of ${RUNS} interleaved runs each, ${os.cpus().length} cores`);
  console.log(`  load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after`);
  if (Math.max(Number(loadBefore.split(' ')[0]), Number(loadAfter.split(' ')[0])) > os.cpus().length) {
    console.log(`  the load was above ${os.cpus().length}, the number of cores: the runs waited for a core, so their wall times say more about the other processes than about these two; read the CPU figure, or run again when the machine is quieter`);
  }
  console.log(`  bare csv-parse runs (ms): ${times.bare.map((t) => fmt(t)).join(', ')}`);
  console.log(`  dry-run runs (ms):        ${times.dry.map((t) => fmt(t)).join(', ')}`);
  console.log(`  ratio of each pair: ${pairs.map((x) => x.toFixed(2)).join(', ')}`);
  if (other) {
    console.log(`  --against runs (ms):      ${times.other.map((t) => fmt(t)).join(', ')}`);
    console.log(`  --against ${AGAINST}: ${fmt(median(times.other))} ms = ${(median(times.other) / median(times.bare)).toFixed(2)}× bare; this build takes ${(median(times.dry) / median(times.other)).toFixed(2)}× its time${hasTime ? ` (CPU ${(median(cpu.dry) / median(cpu.other)).toFixed(2)}×)` : ''}`);
  }
  if (hasTime) console.log(`  CPU time (user + sys), medians: ${fmt(median(cpu.dry))} / ${fmt(median(cpu.bare))} ms = ${(median(cpu.dry) / median(cpu.bare)).toFixed(2)}× (a cross-check less moved by the load)`);
  results.push([`(a) node ${version}: dry run / bare csv-parse, ${fmt(ROWS)} rows`, `${fmt(median(times.dry))} / ${fmt(median(times.bare))} ms = ${ratio.toFixed(2)}×`, `≤ ${RATIO_TARGET.toFixed(2)}×`, ratio <= RATIO_TARGET]);
  results.push([`(b) node ${version}: peak RSS of the dry run, ${fmt(ROWS)} rows`, `${fmt(peak, 1)} MiB`, `≤ ${rssTarget} MiB`, peak <= rssTarget]);
}

// (c)
if (UPLOAD) {
  const wide = path.join(dataDir, 'upload-500mb.csv');
  process.stdout.write('generating the 500 MB upload file… ');
  generate(wide, 1_000_000, 'n'.repeat(440));
  console.log(`${fmt(fs.statSync(wide).size / MiB, 1)} MiB`);
  const serve = spawn(process.execPath, [bin, 'sandbox', 'serve', '--no-rate-limit'], { cwd: root, env: { ...process.env, MAILCTL_CONFIG_DIR: cfg }, stdio: ['ignore', 'pipe', 'inherit'] });
  const env = await new Promise((resolve, reject) => {
    let out = '';
    serve.stdout.on('data', (c) => {
      out += c;
      if (/MAILCTL_NOTIFY_API_KEY=.*\n/.test(out)) resolve(Object.fromEntries(out.trim().split('\n').map((l) => l.split('='))));
    });
    serve.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
  try {
    const u = await measure(process.execPath, [bin, 'import', wide, '--group', 'Bench', '--create-group', '--no-wait'], { ...env, MAILCTL_CONFIG_DIR: cfg });
    if (u.status !== 0 && u.status !== 5) throw new Error(`upload exited ${u.status}: ${u.stderr}`);
    results.push([`(c) peak RSS, check + upload of ${fmt(fs.statSync(wide).size / MiB)} MiB`, `${fmt(u.rssMiB, 1)} MiB (${fmt(u.ms / 1000, 1)} s)`, '≤ 150 MiB', u.rssMiB <= 150]);
  } finally {
    serve.kill('SIGINT');
  }
}
fs.rmSync(cfg, { recursive: true, force: true });

const w = [Math.max(...results.map((r) => r[0].length)), Math.max(...results.map((r) => r[1].length)), 9];
console.log(`\nimport benchmark${hasTime ? '' : ' (RSS by /proc polling)'}`);
console.log(`  ${'measure'.padEnd(w[0])}  ${'measured'.padEnd(w[1])}  ${'target'.padEnd(w[2])}`);
for (const [name, got, target, ok] of results) console.log(`  ${name.padEnd(w[0])}  ${got.padEnd(w[1])}  ${target.padEnd(w[2])}  ${ok ? 'PASS' : 'FAIL'}`);
process.exitCode = results.every((r) => r[3]) ? 0 : 1;
