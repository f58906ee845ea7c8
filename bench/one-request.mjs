// A real command's start-up: `mailctl balance` (one request) against a loopback sandbox, as a
// ratio to a bare script making the same single request with fetch (mailctl's transport) on the
// same runtime, median of N interleaved runs; and peak memory (max RSS) of each. Run on the
// machine's Node and, when installed, on Node 24 (.ci/node24). Target: ≤ 1.3× and peak memory
// within 15 MiB of the bare script's.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, startSandboxServer, SANDBOX_KEYS } from './built.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 21);
const sb = await startSandboxServer({ limits: { perSecond: false, exportEvery10s: false, daily: 1e9 } });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-'));
const bare = path.join(work, 'bare-fetch.mjs');
fs.writeFileSync(bare, `const r = await fetch(process.env.MAILCTL_CAMPAIGN_URL + '/v1/balance', { headers: { 'x-api-key': process.env.MAILCTL_CAMPAIGN_API_KEY, accept: 'application/json' } });
const b = await r.json();
process.stdout.write('email\\t' + b.email + '\\nsms\\t' + b.sms + '\\n');
`);
const env = { ...process.env, MAILCTL_CONFIG_DIR: path.join(work, 'config'), MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
const time = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const runtimes = [['node ' + process.version, process.execPath]];
const node24 = path.join(root, '.ci', 'node24', 'node_modules', '.bin', 'node');
if (fs.existsSync(node24)) runtimes.push(['node ' + spawnSync(node24, ['--version']).stdout.toString().trim(), node24]);

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
let configs = 0;
/**
 * One run, spawned asynchronously: the sandbox answering it lives in this process's event loop.
 * Each run has a config folder of its own (made before the clock starts): runs sharing one would
 * share the key's rate budget (2/s), and this measures start-up, not that pacing.
 */
function once(node, args) {
  const cmd = time ? time : node;
  const argv = time ? ['-f', '%M', node, ...args] : args;
  const config = path.join(work, `config-${++configs}`);
  fs.mkdirSync(config, { mode: 0o700 });
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: { ...env, MAILCTL_CONFIG_DIR: config }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (status) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (status !== 0) return reject(new Error(`${args.join(' ')} exited ${status}: ${err}`));
      resolve({ ms, kb: time ? Number(err.trim().split('\n').at(-1)) : NaN });
    });
  });
}

console.log(`one-request command (mailctl balance vs a bare fetch script), median of ${runs} runs; target ≤ 1.30×, memory ≤ +15 MiB`);
try {
  for (const [label, node] of runtimes) {
    const t = { bare: [], mailctl: [] };
    const mem = { bare: [], mailctl: [] };
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, args] of [['bare', [bare]], ['mailctl', [path.join(root, 'bin', 'mailctl.js'), 'balance']]]) {
        const r = await once(node, args);
        if (i < 2) continue; // warm the file cache
        t[name].push(r.ms);
        mem[name].push(r.kb);
      }
    }
    const ratio = median(t.mailctl) / median(t.bare);
    const extraMiB = (median(mem.mailctl) - median(mem.bare)) / 1024;
    console.log(`  ${label.padEnd(14)} bare ${median(t.bare).toFixed(0).padStart(4)} ms  mailctl ${median(t.mailctl).toFixed(0).padStart(4)} ms  ${ratio.toFixed(2)}×${ratio <= 1.3 ? '  ok' : '  OVER TARGET'}` +
      (time ? `   peak RSS bare ${(median(mem.bare) / 1024).toFixed(0)} MiB, mailctl ${(median(mem.mailctl) / 1024).toFixed(0)} MiB (+${extraMiB.toFixed(1)})${extraMiB <= 15 ? '  ok' : '  OVER TARGET'}` : ''));
  }
} finally {
  await sb.close();
  fs.rmSync(work, { recursive: true, force: true });
}
