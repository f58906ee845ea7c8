// `mailctl report sync` (issue 11) through the built CLI against a sandbox that enforces the
// spec's limits (2 requests/s, 1 export per 10 s, a repeat export within an hour ignored) and
// takes 3 s to make a campaign's files:
//  (a) first run over N finished campaigns (default 30): N exports, paced 10 s apart. Target: wall
//      within 1.1× of (N−1) × 10 s plus the last campaign's own wait and downloads (its export to
//      the end of the run), i.e. the pacing is the only cost and files are fetched alongside.
//  (b) second run: 0 exports, under 3 s.
// The first run takes about N × 10 s (~5 min for 30): `BENCH_SYNC_CAMPAIGNS=5` for a short run.
// Needs the build (`npm run build`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_KEYS, bin, startSandboxServer } from './built.mjs';

const N = Number(process.env.BENCH_SYNC_CAMPAIGNS ?? 30);
const PEOPLE = Number(process.env.BENCH_SYNC_PEOPLE ?? 500);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-sync-'));
const out = path.join(work, 'reports');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Spec limits on; campaigns prepare and send quickly so the set-up does not dominate.
const sb = await startSandboxServer({ balance: { email: 1_000_000, sms: 500 }, limits: { perSecond: 2, exportEvery10s: true }, delays: { campaignPrepare: 200, campaignSending: 300, importProcessing: 200 }, tickMs: 100 });

/** Set-up requests, paced under the sandbox's 2 per second. */
async function api(method, p, body) {
  for (;;) {
    await sleep(550);
    const res = await fetch(`${sb.campaignUrl}${p}`, { method, headers: { 'x-api-key': SANDBOX_KEYS.campaign, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const json = await res.json().catch(() => undefined);
    if (res.status === 429) continue;
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

async function setUp() {
  const group = (await api('POST', '/v1/contacts/lists/insert', { name: 'Bench readers' })).sn;
  const contacts = ['EMAIL,NAME', ...Array.from({ length: PEOPLE }, (_, i) => `reader${i}@example.org,Reader ${i}`)].join('\n');
  const imp = (await api('POST', `/v1/contacts/imports/${group}/text`, { contacts })).importSn;
  while ((await api('GET', `/v1/contacts/imports/result/${imp}`)).status !== 'COMPLETE');
  for (let i = 0; i < N; i++) {
    await api('POST', '/v1/campaign/normal/submit', {
      form: { name: `Bench campaign ${i}`, selectedLists: [group], excludeLists: [] },
      content: { subject: 'Hello', fromName: 'News', fromAddress: 'news@example.com', htmlContent: '<p>Hi</p>', footerLang: 0 },
      config: { schedule: { type: 0 }, ga: { enable: false, ecommerceEnable: false } },
    });
  }
  const range = `?startDate=2000-01-01T00:00:00Z&endDate=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 19)}Z`;
  while ((await api('GET', `/v1/report/campaigns${range}`)).length < N);
  await sleep(1100); // the set-up's requests leave the per-second window before the CLI starts
}

function sync() {
  const env = { PATH: process.env.PATH, HOME: work, MAILCTL_CONFIG_DIR: path.join(work, 'cfg'), MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
  const t0 = performance.now();
  const wall0 = Date.now();
  const child = spawn(process.execPath, [bin, 'report', 'sync', '--out', out, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, ms: performance.now() - t0, start: wall0, end: Date.now(), stdout, stderr })));
}

const exportsIn = (from, to) => sb.sandbox.requests('campaign').filter((r) => r.method === 'POST' && /\/export$/.test(r.path) && r.at >= from && r.at <= to);

console.log(`report sync: ${N} finished campaigns of ${PEOPLE} recipients; sandbox limits on (2/s, 1 export per 10 s), files ready 3 s after an export`);
await setUp();
const first = await sync();
if (first.code !== 0) throw new Error(`first run exited ${first.code}: ${first.stderr}`);
const ex1 = exportsIn(first.start, first.end);
const gaps = ex1.slice(1).map((r, i) => r.at - ex1[i].at);
const tail = first.end - ex1[ex1.length - 1].at;
const lead = ex1[0].at - first.start;
const floor = (N - 1) * 10_000 + tail;
const ratio = first.ms / floor;
const files = JSON.parse(first.stdout).files;
const mb = files.reduce((s, f) => s + f.bytes, 0) / 1048576;
console.log(`  first run   ${(first.ms / 1000).toFixed(1).padStart(6)} s wall, exit ${first.code}: ${ex1.length} exports (gaps ${(Math.min(...gaps) / 1000).toFixed(2)}–${(Math.max(...gaps) / 1000).toFixed(2)} s), ${files.length} files, ${mb.toFixed(1)} MB`);
console.log(`              start to first export ${(lead / 1000).toFixed(2)} s; last export to the end ${(tail / 1000).toFixed(2)} s (its 3 s wait + downloads)`);
console.log(`              ratio ${ratio.toFixed(3)}× of (N−1)×10 s + that tail = ${(floor / 1000).toFixed(1)} s${ratio <= 1.1 && ex1.length === N ? '  ok' : '  OVER TARGET'}`);
const second = await sync();
const ex2 = exportsIn(second.start, second.end);
console.log(`  second run  ${(second.ms / 1000).toFixed(2).padStart(6)} s wall, exit ${second.code}: ${ex2.length} exports${second.code === 0 && ex2.length === 0 && second.ms < 3000 ? '  ok' : '  OVER TARGET'} (target 0 exports, < 3 s)`);
await sb.close();
fs.rmSync(work, { recursive: true, force: true });
process.exitCode = ratio <= 1.1 && ex1.length === N && second.code === 0 && ex2.length === 0 && second.ms < 3000 ? 0 : 1;
