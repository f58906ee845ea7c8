// One rate budget per key across processes (issue 11 §2), through the built CLI against a sandbox
// that enforces the spec's 2 requests/s per key. All processes share one config directory, as the
// runs of one user on one machine do.
//  (a) 3 concurrent `groups list --all --size 3` over 45 groups (16 pages each, 48 requests):
//      target 0 responses 429 and a total wall within 1.05× of the floor. The issue names the
//      floor (requests − 1) / 2 s; at 2 per sliding second n requests can finish in
//      ⌈n/2⌉ − 1 s (two at 0 s, two at 1 s, …), a little less, and the ratio is judged on that.
//  (b) 20 back-to-back `balance` runs, and (c) 6 at once: 429s seen (target 0) and time per run.
// BENCH_RATELIMIT_HOGS=N runs N busy-looping processes meanwhile (a loaded machine: processes
// descheduled between admission and sending); the target there is 0 × 429, the pace is reported.
// Needs the build (`npm run build`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_KEYS, bin, startSandboxServer } from './built.mjs';

const GROUPS = 45;
const SIZE = Number(process.env.BENCH_RATELIMIT_SIZE ?? 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-ratelimit-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const HOGS = Number(process.env.BENCH_RATELIMIT_HOGS ?? 0);
const hogs = Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
process.on('exit', () => hogs.forEach((h) => h.kill())); // even when the bench fails
const sb = await startSandboxServer({ limits: { perSecond: 2, exportEvery10s: true }, tickMs: 100 });
const env = { PATH: process.env.PATH, HOME: work, MAILCTL_CONFIG_DIR: path.join(work, 'cfg'), MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };

function cli(args) {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Runs `fn`, returning its wall time and what the sandbox's campaign service saw meanwhile. */
async function measured(fn) {
  await sleep(1100); // the previous scenario's requests leave the per-second window
  const from = sb.sandbox.requests('campaign').length;
  const t0 = performance.now();
  const results = await fn();
  const ms = performance.now() - t0;
  const seen = sb.sandbox.requests('campaign').slice(from);
  const failed = results.filter((r) => r.code !== 0).length;
  return { ms, failed, ok: seen.filter((r) => r.status === 200).length, refused: seen.filter((r) => r.status === 429).length };
}

// Set-up: 45 groups, created with the sandbox's limit lifted (not what is measured).
sb.sandbox.options.limits.perSecond = false;
for (let i = 0; i < GROUPS; i++) {
  const res = await fetch(`${sb.campaignUrl}/v1/contacts/lists/insert`, { method: 'POST', headers: { 'x-api-key': SANDBOX_KEYS.campaign, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Bench group ${i}` }) });
  if (res.status !== 200) throw new Error(`group not created: ${res.status}`);
}
sb.sandbox.options.limits.perSecond = 2;

console.log(`shared rate budget: sandbox enforcing 2 requests/s per key; every process on one key and one config directory${HOGS ? `; ${HOGS} CPU hogs running on ${os.availableParallelism()} cores` : ''}`);
const a = await measured(() => Promise.all([0, 1, 2].map(() => cli(['groups', 'list', '--all', '--size', String(SIZE)]))));
const issueFloor = ((a.ok - 1) / 2) * 1000;
const floor = (Math.ceil(a.ok / 2) - 1) * 1000;
const ratio = a.ms / floor;
const okA = a.refused === 0 && !a.failed && (HOGS > 0 || ratio <= 1.05);
const gaveUp = (r) => (r.failed ? `, ${r.failed} run${r.failed === 1 ? '' : 's'} gave up (exit ≠ 0)` : '');
console.log(`  (a) 3 × groups list --all --size ${SIZE} (${GROUPS} groups): ${a.ok} requests, ${a.refused} × 429${gaveUp(a)}, ${(a.ms / 1000).toFixed(2)} s wall; floor ⌈requests/2⌉−1 s = ${(floor / 1000).toFixed(1)} s, ratio ${ratio.toFixed(3)}× (${(a.ms / issueFloor).toFixed(3)}× of the issue's (requests−1)/2 s = ${(issueFloor / 1000).toFixed(1)} s)${okA ? '  ok' : '  OVER TARGET'} (target 0 × 429${HOGS ? '' : ', ≤ 1.05×'})`);

const b = await measured(async () => {
  const out = [];
  for (let i = 0; i < 20; i++) out.push(await cli(['balance']));
  return out;
});
console.log(`  (b) 20 × balance back to back: ${b.refused} × 429${gaveUp(b)}, ${(b.ms / 20 / 1000).toFixed(2)} s a run (${(b.ms / 1000).toFixed(1)} s; the 2/s floor is ${(19 / 2).toFixed(1)} s)${b.refused === 0 && !b.failed ? '  ok' : '  OVER TARGET'}`);

const c = await measured(() => Promise.all(Array.from({ length: 6 }, () => cli(['balance']))));
console.log(`  (c) 6 × balance at once: ${c.refused} × 429${gaveUp(c)}, ${(c.ms / 1000).toFixed(2)} s wall (floor ${(5 / 2).toFixed(1)} s)${c.refused === 0 && !c.failed ? '  ok' : '  OVER TARGET'}`);

for (const h of hogs) h.kill();
await sb.close();
fs.rmSync(work, { recursive: true, force: true });
process.exitCode = okA && b.refused === 0 && !b.failed && c.refused === 0 && !c.failed ? 0 : 1;
