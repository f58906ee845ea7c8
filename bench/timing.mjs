// What the start-up benchmarks (startup.mjs, one-request.mjs) share: the runtimes to measure, one
// timed run of a command, and the summary statistics. The machine these run on is shared and its
// load varies a lot within a minute, so the figures are made to survive that:
// - each mailctl run is paired with a baseline run just before it, so both meet the same load;
// - the verdict is the ratio of the fastest run of each (min of N): another process only ever
//   adds time to a run, so the fastest of N is the closest to what the run itself costs. In one
//   run of bench/startup.mjs at a load of 5 on 2 cores, over the eight help cases of one build,
//   the median of 10 pair ratios ranged 0.75-1.54×, the ratio of the fastest runs 0.82-1.11×
//   (CPU: 1.01-1.07×). The medians and the median pair ratio are printed beside it;
// - what the fastest run cannot say: it is the cost of a run that met an idle core, for mailctl
//   and its baseline alike; a user on a busy machine waits longer for both. And it is a PASS only
//   as far as it agrees with the rest: when the median pair ratio is over the target too, the
//   line says so (doubtNote), and on a quiet machine (load below the cores) the two agree
//   within a few hundredths, which is when a verdict is worth quoting;
// - each run's CPU time (user + system of the node process, from the shell's `time`) is printed
//   too, as a mean: it counts the work done, not the time spent waiting for a core;
// - the load average before and after is printed with the figures.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = path.join(root, 'bin', 'mailctl.js');

const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => fs.existsSync(p));
const gnuTime = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
// The shell times the command alone, so neither bash's nor /usr/bin/time's start-up is counted:
// its `time` keyword gives the CPU time (user and system, in ms) and the wall time in ms,
// EPOCHREALTIME (bash ≥ 5) the wall time in µs. Both go to fd 3; the command's stderr stays the
// run's stderr, its exit status the run's.
const TIMED = 'TIMEFORMAT="%3R %3U %3S"; exec 4>&2; { s=$EPOCHREALTIME; time "$@" 2>&4 3>&- 4>&-; rc=$?; e=$EPOCHREALTIME; } 2>&3; echo "$s $e" >&3; exit $rc';

/**
 * The runtimes to measure: this Node, and Node 24 from .ci/node24 (installed there with
 * `npm ci --prefix .ci/node24`, as .ci/run does, when missing). `missing` names what could not be
 * measured (a reason to fail: the target holds on both runtimes).
 */
export function runtimes() {
  const node24Dir = path.join(root, '.ci', 'node24');
  const node24 = path.join(node24Dir, 'node_modules', '.bin', 'node');
  const versionOf = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  if (!fs.existsSync(node24)) {
    // The `node` package's install script fetches the binary; .ci/node24/package.json approves it
    // (allowScripts), exactly as CI's `npm ci --prefix .ci/node24` relies on.
    console.log('Node 24 is not installed in .ci/node24; installing it now: npm ci --prefix .ci/node24 (as .ci/run does)');
    const r = spawnSync('npm', ['ci', '--prefix', node24Dir, '--no-audit', '--no-fund'], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) console.log(`  npm ci --prefix .ci/node24 exited ${r.status ?? r.signal}`);
  }
  const list = [[`node ${process.version}`, process.execPath]];
  const v24 = fs.existsSync(node24) ? versionOf(node24) : '';
  const missing = [];
  if (v24.startsWith('v24.')) {
    if (!process.version.startsWith('v24.')) list.push([`node ${v24}`, node24]);
  } else {
    missing.push(`Node 24 (.ci/node24 gives ${v24 || 'no node'})`);
  }
  return { list, missing };
}

/**
 * One run of `node …args`: wall ms and CPU ms (user + system) of the node process alone, its peak
 * RSS in KiB when `memory` (/usr/bin/time), stdout, stderr, exit status. Asynchronous, so a server
 * in this process (the sandbox) can answer it.
 */
export function timedRun(node, args, { env = process.env, memory = false, terminal = false } = {}) {
  if (terminal) return onTerminal(node, args, env);
  const cmd = [];
  if (memory && gnuTime) cmd.push(gnuTime, '-f', '%M');
  if (bash) cmd.push(bash, '-c', TIMED, 'timed');
  cmd.push(node, ...args);
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0], cmd.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let times = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdio[3].on('data', (d) => (times += d));
    child.on('error', reject);
    child.on('close', (status) => {
      const hrMs = Number(process.hrtime.bigint() - t0) / 1e6;
      let kb = NaN;
      if (memory && gnuTime) {
        // /usr/bin/time's line is the last of stderr.
        const lines = err.trimEnd().split('\n');
        kb = Number(lines.pop());
        err = lines.join('\n');
      }
      const [real, user, sys, s, e] = times.trim().split(/\s+/).map((x) => Number(x.replace(',', '.')));
      const timed = bash && Number.isFinite(real);
      const wallMs = Number.isFinite(e - s) ? (e - s) * 1000 : timed ? real * 1000 : hrMs;
      resolve({ status, out, err, kb, wallMs, cpuMs: timed ? (user + sys) * 1000 : NaN });
    });
  });
}

const script = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
/** Whether runs report their CPU time and peak memory here, and can be run on a terminal. */
export const measures = { cpu: !!bash, memory: !!gnuTime, terminal: !!(bash && script) };

const quote = (w) => `'${String(w).replace(/'/g, `'\\''`)}'`;
/**
 * One run with stdin, stdout and stderr a terminal 100 columns wide (util-linux `script` makes
 * the pseudo-terminal), timed by the shell inside it as timedRun times a run; what the terminal
 * showed comes back as `out`.
 */
function onTerminal(node, args, env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-tty-'));
  const times = path.join(dir, 'times');
  const inner = `stty cols 100 rows 40; exec 3>${quote(times)}; exec ${quote(bash)} -c ${quote(TIMED)} timed ${[node, ...args].map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn(script, ['-qfec', inner, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => {
      const [real, user, sys, s, e] = fs.readFileSync(times, 'utf8').trim().split(/\s+/).map((x) => Number(x.replace(',', '.')));
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ status, out, err: '', kb: NaN, wallMs: Number.isFinite(e - s) ? (e - s) * 1000 : real * 1000, cpuMs: (user + sys) * 1000 });
    });
    child.stdin.end();
  });
}

/** A PASS by the fastest runs that the median of the pair ratios does not back. */
export const doubtNote = (medianRatio, target) =>
  medianRatio > target ? `  (but the median pair ratio ${medianRatio.toFixed(2)}× is over the target: busy machine? run again when it is quiet)` : '';

export const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const min = (a) => Math.min(...a);
/** CPU times come in whole milliseconds (the kernel's accounting here): their mean keeps the fraction a median loses. */
export const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;

/** `load 3.1 2.8 2.5 on 2 cores`: what the machine was doing, printed beside every set of figures. */
export function loadNote() {
  const [one, five, fifteen] = os.loadavg();
  return `load average ${one.toFixed(1)} ${five.toFixed(1)} ${fifteen.toFixed(1)} on ${os.availableParallelism?.() ?? os.cpus().length} cores`;
}

/** A note when the load exceeds the cores: the wall-time figures then carry a lot of waiting. */
export function busyNote() {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  return os.loadavg()[0] > cores ? `  (the machine is busy: ${loadNote()}; wall times include waiting for a core, the CPU-time ratios are the steadier figure)` : '';
}

/**
 * The environment of every measured run: this one without NODE_EXTRA_CA_CERTS. Node 20 reads and
 * parses that CA bundle at every start (about 30 ms here, more than all of `node -e 0` without
 * it), in the baseline as in mailctl: kept, it would hide mailctl's own cost in the ratio.
 */
export function benchEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
