// Contact import (issue 4), measured through the built CLI (`npm run build` first):
//  (a) `mailctl import big.csv --group G --dry-run` wall time as a ratio to a bare csv-parse
//      loop over the same file, both as fresh node processes. Target ≤ 1.2× (issue 24.7). The
//      machine is shared, so the two are run in turn (bare, mailctl, bare, mailctl…, at least 5
//      of each, `--runs N`), the ratio is of the two medians, and the load average before and
//      after is printed beside it: a figure taken under a changing load says so. The dry run
//      sends nothing and needs no key: the group is not looked up.
//      `--against DIR` times another built checkout's dry run in the same rounds (bare, this,
//      that…), so a before/after comparison shares the load: `git worktree add /tmp/before
//      main && (cd /tmp/before && npm ci)`, then `node bench/import.mjs --against /tmp/before`.
//  (b) peak RSS of that dry run. Target ≤ 200 MiB at 1M rows; `--rows 10000000` for the
//      10M-row case (target ≤ 400 MiB).
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

/** Runs a node process; returns wall ms and peak RSS (MiB) from /usr/bin/time -v or /proc polling. */
function measure(args, env = {}) {
  return new Promise((resolve, reject) => {
    const cmd = hasTime ? '/usr/bin/time' : process.execPath;
    const full = hasTime ? ['-v', process.execPath, ...args] : args;
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
      // CPU time (user + system) of the process: what other processes' load moves least.
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
const times = { bare: [], dry: [], other: [] };
const cpu = { bare: [], dry: [], other: [] };
const other = AGAINST && [path.join(path.resolve(AGAINST), 'bin', 'mailctl.js'), ...dry.slice(1)];
if (other) await measure(other, noKeys);
let peak = 0;
await measure(bare); // warm the file cache
await measure(dry, noKeys); // and the compile cache in the config folder, as a second run has it
const loadBefore = load();
for (let i = 0; i < RUNS; i++) {
  const b = await measure(bare);
  if (b.status !== 0) throw new Error(`bare csv-parse loop failed: ${b.stderr}`);
  times.bare.push(b.ms);
  cpu.bare.push(b.cpuMs);
  const d = await measure(dry, noKeys);
  if (d.status !== 0) throw new Error(`dry run exited ${d.status}: ${d.stderr}`);
  times.dry.push(d.ms);
  cpu.dry.push(d.cpuMs);
  peak = Math.max(peak, d.rssMiB);
  if (other) {
    const a = await measure(other, noKeys);
    if (a.status !== 0) throw new Error(`--against's dry run exited ${a.status}: ${a.stderr}`);
    times.other.push(a.ms);
    cpu.other.push(a.cpuMs);
  }
}
const loadAfter = load();
const ratio = median(times.dry) / median(times.bare);
// Each pair's own ratio too: a wide spread means the load moved during the runs.
const pairs = times.dry.map((d, i) => d / times.bare[i]).sort((x, y) => x - y);
const RATIO_TARGET = 1.2;
const rssTarget = ROWS > 1_000_000 ? 400 : 200;
results.push([`(a) dry run / bare csv-parse, ${fmt(ROWS)} rows`, `${fmt(median(times.dry))} / ${fmt(median(times.bare))} ms = ${ratio.toFixed(2)}×`, `≤ ${RATIO_TARGET.toFixed(2)}×`, ratio <= RATIO_TARGET]);
results.push([`(b) peak RSS of the dry run, ${fmt(ROWS)} rows`, `${fmt(peak, 1)} MiB`, `≤ ${rssTarget} MiB`, peak <= rssTarget]);

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
    const u = await measure([bin, 'import', wide, '--group', 'Bench', '--create-group', '--no-wait'], { ...env, MAILCTL_CONFIG_DIR: cfg });
    if (u.status !== 0 && u.status !== 5) throw new Error(`upload exited ${u.status}: ${u.stderr}`);
    results.push([`(c) peak RSS, check + upload of ${fmt(fs.statSync(wide).size / MiB)} MiB`, `${fmt(u.rssMiB, 1)} MiB (${fmt(u.ms / 1000, 1)} s)`, '≤ 150 MiB', u.rssMiB <= 150]);
  } finally {
    serve.kill('SIGINT');
  }
}
fs.rmSync(cfg, { recursive: true, force: true });

const w = [Math.max(...results.map((r) => r[0].length)), Math.max(...results.map((r) => r[1].length)), 9];
console.log(`\nimport benchmark${hasTime ? '' : ' (RSS by /proc polling)'}: medians of ${RUNS} interleaved runs each, node ${process.version}, ${os.cpus().length} cores`);
console.log(`  load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after`);
console.log(`  bare csv-parse runs (ms): ${times.bare.map((t) => fmt(t)).join(', ')}`);
console.log(`  dry-run runs (ms):        ${times.dry.map((t) => fmt(t)).join(', ')}`);
console.log(`  ratio of each pair: ${pairs.map((x) => x.toFixed(2)).join(', ')}`);
if (other) {
  console.log(`  --against runs (ms):      ${times.other.map((t) => fmt(t)).join(', ')}`);
  console.log(`  --against ${AGAINST}: ${fmt(median(times.other))} ms = ${(median(times.other) / median(times.bare)).toFixed(2)}× bare; this build takes ${(median(times.dry) / median(times.other)).toFixed(2)}× its time${hasTime ? ` (CPU ${(median(cpu.dry) / median(cpu.other)).toFixed(2)}×)` : ''}`);
}
if (hasTime) console.log(`  CPU time (user + sys), medians: ${fmt(median(cpu.dry))} / ${fmt(median(cpu.bare))} ms = ${(median(cpu.dry) / median(cpu.bare)).toFixed(2)}× (a cross-check less moved by the load)`);
console.log(`  ${'measure'.padEnd(w[0])}  ${'measured'.padEnd(w[1])}  ${'target'.padEnd(w[2])}`);
for (const [name, got, target, ok] of results) console.log(`  ${name.padEnd(w[0])}  ${got.padEnd(w[1])}  ${target.padEnd(w[2])}  ${ok ? 'PASS' : 'FAIL'}`);
process.exitCode = results.every((r) => r[3]) ? 0 : 1;
