// A real command's start-up (issue 14.9): `mailctl balance` (one request) against a loopback
// sandbox, as a ratio to a bare script making the same single request with the same runtime and
// the same transport. mailctl's API calls go through ky over the global fetch (src/api/http.ts,
// src/run/context.ts `transport()`), so the like-for-like baseline is a bare `fetch` script; a bare
// `node:http` script is timed too and printed for information (it skips loading fetch's undici,
// which mailctl cannot). Median of N interleaved runs, peak memory (max RSS) of each. mailctl
// runs as a user's second and later runs do, with its compile cache warm (Node ≥ 22.1); a first
// run, with a new config folder, is printed for information.
// Runs on the machine's Node (20) and on Node 24 (.ci/node24, installed here with `npm ci` as
// .ci/run installs it, when missing). Target on both: ≤ 1.3× the bare fetch script, peak memory
// within 15 MiB of its. Exit 1 when over target, or when a runtime or the memory cannot be measured.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, startSandboxServer, SANDBOX_KEYS } from './built.mjs';

const RATIO_TARGET = 1.3;
const MEMORY_TARGET_MIB = 15;
const runs = Number(process.env.BENCH_RUNS ?? 21);
let ok = true;

// --- the runtimes: this Node, and Node 24 from .ci/node24 ---------------------------------------
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
const runtimes = [[`node ${process.version}`, process.execPath]];
const v24 = fs.existsSync(node24) ? versionOf(node24) : '';
if (v24.startsWith('v24.')) {
  if (!process.version.startsWith('v24.')) runtimes.push([`node ${v24}`, node24]);
} else {
  console.log(`  Node 24 could not be measured (.ci/node24 gives ${v24 || 'no node'})  OVER TARGET`);
  ok = false;
}

// --- the sandbox and the two bare scripts --------------------------------------------------------
const sb = await startSandboxServer({ limits: { perSecond: false, exportEvery10s: false, daily: 1e9 } });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-'));
const bareFetch = path.join(work, 'bare-fetch.mjs');
fs.writeFileSync(bareFetch, `const r = await fetch(process.env.MAILCTL_CAMPAIGN_URL + '/v1/balance', { headers: { 'x-api-key': process.env.MAILCTL_CAMPAIGN_API_KEY, accept: 'application/json' } });
const b = await r.json();
process.stdout.write('email\\t' + b.email + '\\nsms\\t' + b.sms + '\\n');
`);
const bareHttp = path.join(work, 'bare-http.mjs');
fs.writeFileSync(bareHttp, `import http from 'node:http';
http.get(process.env.MAILCTL_CAMPAIGN_URL + '/v1/balance', { headers: { 'x-api-key': process.env.MAILCTL_CAMPAIGN_API_KEY, accept: 'application/json' } }, (res) => {
  let s = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (s += d));
  res.on('end', () => {
    const b = JSON.parse(s);
    process.stdout.write('email\\t' + b.email + '\\nsms\\t' + b.sms + '\\n');
  });
});
`);
const env = { ...process.env, MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
const time = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!time) {
  console.log('  peak memory cannot be measured here (no /usr/bin/time)  OVER TARGET');
  ok = false;
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
/**
 * One run, spawned asynchronously: the sandbox answering it lives in this process's event loop.
 * Each runtime keeps one config folder across its runs, as a user does, so from the third run on
 * mailctl starts with Node's compile cache warm (Node ≥ 22.1; src/config/paths.ts). Its
 * rate-budget files are removed before each run starts the clock: the runs come faster than the
 * key's 2 requests/s, and this measures start-up, not that pacing.
 */
function once(node, args, config) {
  const cmd = time ? time : node;
  const argv = time ? ['-f', '%M', node, ...args] : args;
  fs.mkdirSync(config, { recursive: true, mode: 0o700 });
  fs.rmSync(path.join(config, 'ratelimit'), { recursive: true, force: true });
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: { ...env, MAILCTL_CONFIG_DIR: config }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (status) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // Each run must really have made the request and printed the balance.
      if (status !== 0 || !/^email\t\d+/m.test(out)) return reject(new Error(`${args.join(' ')} exited ${status}: ${err}${out}`));
      resolve({ ms, kb: time ? Number(err.trim().split('\n').at(-1)) : NaN });
    });
  });
}

const mib = (kb) => (kb / 1024).toFixed(0);
const mark = (good) => (good ? '  ok' : '  OVER TARGET');
console.log(`one-request command: mailctl balance vs a bare script making the same request with fetch (mailctl's transport), same runtime; median of ${runs} runs; target ≤ ${RATIO_TARGET.toFixed(2)}×, peak memory ≤ +${MEMORY_TARGET_MIB} MiB`);
try {
  for (const [label, node] of runtimes) {
    const config = path.join(work, `config-${label.replace(/\W+/g, '-')}`);
    const balance = [path.join(root, 'bin', 'mailctl.js'), 'balance'];
    // `first`: mailctl with a new config folder each run, as on a first run (no compile cache yet).
    const cases = [['fetch', [bareFetch]], ['http', [bareHttp]], ['mailctl', balance], ['first', balance]];
    const t = Object.fromEntries(cases.map(([name]) => [name, []]));
    const mem = Object.fromEntries(cases.map(([name]) => [name, []]));
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, args] of cases) {
        const r = await once(node, args, name === 'first' ? path.join(work, `first-${label.replace(/\W+/g, '-')}-${i}`) : config);
        if (i < 2) continue; // warm the file cache (and mailctl's compile cache)
        t[name].push(r.ms);
        mem[name].push(r.kb);
      }
    }
    const ratio = median(t.mailctl) / median(t.fetch);
    const extraMiB = (median(mem.mailctl) - median(mem.fetch)) / 1024;
    const memOk = !time || extraMiB <= MEMORY_TARGET_MIB;
    ok &&= ratio <= RATIO_TARGET && memOk;
    const ms = (name) => `${median(t[name]).toFixed(0).padStart(4)} ms`;
    console.log(`  ${label.padEnd(15)} bare fetch ${ms('fetch')}  mailctl ${ms('mailctl')}  ${ratio.toFixed(2)}×${mark(ratio <= RATIO_TARGET)}` +
      (time ? `   peak RSS bare fetch ${mib(median(mem.fetch))} MiB, mailctl ${mib(median(mem.mailctl))} MiB (+${extraMiB.toFixed(1)})${mark(memOk)}` : ''));
    console.log(`  ${''.padEnd(15)} for information: bare node:http ${ms('http')}${time ? `, ${mib(median(mem.http))} MiB` : ''} (mailctl ${(median(t.mailctl) / median(t.http)).toFixed(2)}× that; not the target: mailctl's transport is fetch)`);
    console.log(`  ${''.padEnd(15)} for information: mailctl with a new config folder (a first run: no compile cache yet) ${ms('first')}, ${(median(t.first) / median(t.fetch)).toFixed(2)}× bare fetch`);
  }
} finally {
  await sb.close();
  fs.rmSync(work, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
