// A real command's start-up (issue 14.9, 24.6): `mailctl balance` (one request) against a loopback
// sandbox, as a ratio to a bare script making the same single request with the same runtime and
// the same transport. mailctl's API calls go through ky over the global fetch (src/api/http.ts,
// src/run/context.ts `transport()`), so the like-for-like baseline is a bare `fetch` script; a bare
// `node:http` script is timed too and printed for information (it skips loading fetch's undici,
// which mailctl cannot). Each mailctl run is paired with a bare fetch run just before it; the
// verdict is the ratio of the fastest run of each (bench/timing.mjs says why), with peak memory
// (max RSS, medians). mailctl runs as a user's second and later runs do: one config folder,
// its rate budget files and compile cache (Node ≥ 22.1) kept, each run started at least a
// second and a bit after the previous one ended, so the shared 2/s budget is idle (a request
// holds its slot until a second after its answer: src/api/ratelimit-shared.ts) and the run
// measures start-up, not that pacing. A first run, with a new config folder, is printed for
// information.
// Runs on the machine's Node (20) and on Node 24 (.ci/node24, installed here with `npm ci` as
// .ci/run installs it, when missing). Target on both: ≤ 1.25× the bare fetch script, peak memory
// within 15 MiB of its. Exit 1 when over target, or when a runtime or the memory cannot be measured.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandboxServer, SANDBOX_KEYS } from './built.mjs';
import { benchEnv, bin, busyNote, doubtNote, loadNote, mean, measures, median, min, runtimes, sleep, timedRun } from './timing.mjs';

const RATIO_TARGET = 1.25;
const MEMORY_TARGET_MIB = 15;
/** The shared budget's window (spec 000 §8: 2 requests/s) and a margin: then no slot is held. */
const BUDGET_IDLE_MS = 1_100;
const runs = Number(process.env.BENCH_RUNS ?? 25);
const { list, missing } = runtimes();
let ok = missing.length === 0;
for (const m of missing) console.log(`  ${m} could not be measured  FAIL`);

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
const env = { ...benchEnv(), MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
if (!measures.memory) {
  console.log('  peak memory cannot be measured here (no /usr/bin/time)  FAIL');
  ok = false;
}

/** One run; each must really have made the request and printed the balance. */
async function once(node, args, config) {
  fs.mkdirSync(config, { recursive: true, mode: 0o700 });
  const r = await timedRun(node, args, { env: { ...env, MAILCTL_CONFIG_DIR: config }, memory: true });
  if (r.status !== 0 || !/^email\t\d+/m.test(r.out)) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.err}${r.out}`);
  return r;
}

const mib = (kb) => (kb / 1024).toFixed(0);
const verdict = (good) => (good ? 'PASS' : 'FAIL');
console.log(`one-request command: mailctl balance vs a bare script making the same request with fetch (mailctl's transport), same runtime, run just before it; ${runs} pairs; target ≤ ${RATIO_TARGET.toFixed(2)}× (fastest wall time of each), peak memory ≤ +${MEMORY_TARGET_MIB} MiB`);
console.log(`  before: ${loadNote()}`);
try {
  for (const [label, node] of list) {
    const tag = label.replace(/\W+/g, '-');
    const config = path.join(work, `config-${tag}`);
    const balance = [bin, 'balance'];
    const s = { fetch: [], mailctl: [], ratio: [], http: [], first: [] };
    let lastEnd = 0;
    for (let i = 0; i < runs + 2; i++) {
      // The shared budget idle when mailctl starts: its last request answered over a second ago.
      // The run after such a pause is slow (a cold core), so the pair does not start the round.
      await sleep(lastEnd + BUDGET_IDLE_MS - Date.now());
      const http = await once(node, [bareHttp], config);
      const fetch = await once(node, [bareFetch], config);
      const mailctl = await once(node, balance, config);
      lastEnd = Date.now();
      // `first`: a new config folder each run, as on a first run (no compile cache, no budget file yet).
      const first = await once(node, balance, path.join(work, `first-${tag}-${i}`));
      if (i < 2) continue; // warm the file cache and mailctl's compile cache
      s.fetch.push(fetch);
      s.mailctl.push(mailctl);
      s.ratio.push(mailctl.wallMs / fetch.wallMs);
      s.http.push(http);
      s.first.push(first);
    }
    const wall = (k) => median(s[k].map((r) => r.wallMs));
    const cpu = (k) => mean(s[k].map((r) => r.cpuMs));
    const rss = (k) => median(s[k].map((r) => r.kb));
    const fastest = (k) => min(s[k].map((r) => r.wallMs));
    const ratio = fastest('mailctl') / fastest('fetch');
    const extraMiB = (rss('mailctl') - rss('fetch')) / 1024;
    const memOk = measures.memory && extraMiB <= MEMORY_TARGET_MIB;
    ok &&= ratio <= RATIO_TARGET && memOk;
    const ms = (k) => `${wall(k).toFixed(0).padStart(4)} ms`;
    console.log(`  ${label}`);
    console.log(`    ${ratio.toFixed(2)}×  ${verdict(ratio <= RATIO_TARGET)}   fastest mailctl ${fastest('mailctl').toFixed(1)} vs bare fetch ${fastest('fetch').toFixed(1)} ms; median ${ms('mailctl')} vs ${ms('fetch')}, of the pair ratios ${median(s.ratio).toFixed(2)}×` +
      (measures.cpu ? `; CPU mean ${cpu('mailctl').toFixed(0)} vs ${cpu('fetch').toFixed(0)} ms (${(cpu('mailctl') / cpu('fetch')).toFixed(2)}×)` : '') +
      (ratio <= RATIO_TARGET ? doubtNote(median(s.ratio), RATIO_TARGET) : ''));
    console.log(`    peak RSS mailctl ${mib(rss('mailctl'))} MiB vs bare fetch ${mib(rss('fetch'))} MiB (+${extraMiB.toFixed(1)})  ${verdict(memOk)}`);
    console.log(`    for information: bare node:http ${ms('http')}, ${mib(rss('http'))} MiB (mailctl ${(wall('mailctl') / wall('http')).toFixed(2)}× that; not the target: mailctl's transport is fetch)`);
    console.log(`    for information: mailctl with a new config folder (a first run: no compile cache yet) ${ms('first')}, ${(wall('first') / wall('fetch')).toFixed(2)}× bare fetch`);
  }
} finally {
  await sb.close();
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`  after: ${loadNote()}${busyNote()}`);
process.exitCode = ok ? 0 : 1;
