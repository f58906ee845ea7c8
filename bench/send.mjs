// Batched send throughput (issue 5): 10,000 recipients (100 requests of 100) through the built
// CLI against the sandbox behind a proxy that adds 200 ms to every request, sent with the
// default concurrency (4) versus one request at a time (--concurrency 1).
// Target: wall-time ratio ≤ 0.3, and no recipient sent twice.
// A third run is killed with SIGKILL part-way and finished with `send --resume`: it must end
// with every recipient sent exactly once.
//
// Needs the build (`npm run build`): the CLI from bin/ and the sandbox from dist/src.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_KEYS, bin, startSandboxServer } from './built.mjs';

const N = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-send-'));
const csv = path.join(work, 'recipients.csv');
fs.writeFileSync(csv, ['address,name,code', ...Array.from({ length: N }, (_, i) => `user${i}.quiet@example.com,User ${i},C${i}`)].join('\n'));

/** A proxy that holds each request LATENCY_MS before passing it on — and passes it on even if the client has gone. */
async function latencyProxy(target) {
  const span = { first: Infinity, last: 0 };
  const server = http.createServer((req, res) => {
    span.first = Math.min(span.first, performance.now());
    res.on('finish', () => (span.last = Math.max(span.last, performance.now())));
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const up = http.request(new URL(req.url, target), { method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(chunks));
      }, LATENCY_MS);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, span, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

async function stack() {
  // Event histories are kept short so 10,000 unfolding messages do not dominate the measurement.
  const sb = await startSandboxServer({ limits: { perSecond: false }, delays: { notifyEvents: 20 }, deliverWebhooks: false, tickMs: 1000 });
  const proxy = await latencyProxy(sb.url);
  return { sb, proxy, close: async () => { await proxy.close(); await sb.close(); } };
}

function cli(args, notifyUrl, configDir) {
  const env = { PATH: process.env.PATH, HOME: work, MAILCTL_CONFIG_DIR: configDir, MAILCTL_NOTIFY_URL: notifyUrl, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify };
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const done = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

const sendArgs = (journal, extra = []) => ['send', '--recipients-file', csv, '--subject', 'Hello {{name}}', '--html', '<p>Your code: {{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--json', ...extra];

function tally(sb) {
  const per = new Map();
  for (const m of Object.values(sb.sandbox.state.notify.messages)) per.set(m.address, (per.get(m.address) ?? 0) + 1);
  return { distinct: per.size, duplicates: [...per.values()].filter((c) => c > 1).length };
}

async function timedRun(concurrency) {
  const s = await stack();
  const t0 = performance.now();
  const r = await cli(sendArgs(path.join(work, `j-${concurrency}.jsonl`), ['--concurrency', String(concurrency)]), `${s.proxy.url}/notify`, path.join(work, `cfg-${concurrency}`)).done;
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`send --concurrency ${concurrency} exited ${r.code}: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  const posts = s.sb.sandbox.requests('notify').filter((q) => q.method === 'POST' && q.path === '/v1/messages');
  const t = tally(s.sb);
  await s.close();
  return { concurrency, ms, sendMs: s.proxy.span.last - s.proxy.span.first, requests: posts.length, maxBatch: Math.max(...posts.map((q) => q.body.recipients.length)), sent: out.sent, ...t };
}

async function killAndResume() {
  const s = await stack();
  const journal = path.join(work, 'j-kill.jsonl');
  const cfg = path.join(work, 'cfg-kill');
  const run = cli(sendArgs(journal), `${s.proxy.url}/notify`, cfg);
  const posts = () => s.sb.sandbox.requests('notify').filter((q) => q.method === 'POST' && q.path === '/v1/messages').length;
  while (posts() < 40) await new Promise((r) => setTimeout(r, 10));
  run.child.kill('SIGKILL');
  await run.done;
  // Requests the proxy was still holding reach the service after the kill, as on a real network.
  await new Promise((r) => setTimeout(r, LATENCY_MS + 300));
  const atKill = tally(s.sb).distinct;
  const t0 = performance.now();
  const r = await cli(['send', '--resume', journal, '--settle-after', '0s', '--json'], `${s.proxy.url}/notify`, cfg).done;
  const ms = performance.now() - t0;
  const out = JSON.parse(r.stdout);
  const t = tally(s.sb);
  await s.close();
  return { code: r.code, atKill, resumeMs: ms, sent: out.sent, unsettled: out.unsettled, ...t };
}

console.log(`send: ${N} recipients, +${LATENCY_MS} ms per request (target ratio ≤ 0.3, duplicates 0)`);
const one = await timedRun(1);
const four = await timedRun(4);
const ratio = four.ms / one.ms;
for (const r of [one, four]) {
  console.log(`  --concurrency ${r.concurrency}  ${(r.ms / 1000).toFixed(2).padStart(6)} s wall (${(r.sendMs / 1000).toFixed(2)} s first request to last answer)  ${r.requests} requests (≤ ${r.maxBatch} each)  ${r.distinct} recipients  duplicates ${r.duplicates}`);
}
console.log(`  ratio ${ratio.toFixed(3)}× wall${ratio <= 0.3 ? '  ok' : '  OVER TARGET'} (sending phase alone: ${(four.sendMs / one.sendMs).toFixed(3)}×)`);
const k = await killAndResume();
console.log(`  kill -9 after 40 requests: ${k.atKill} sent before the kill; resume ${(k.resumeMs / 1000).toFixed(2)} s, exit ${k.code}; ${k.distinct}/${N} recipients, duplicates ${k.duplicates}${k.distinct === N && k.duplicates === 0 ? '  ok' : '  FAILED'}`);
fs.rmSync(work, { recursive: true, force: true });
const okAll = ratio <= 0.3 && one.duplicates + four.duplicates + k.duplicates === 0 && k.distinct === N && one.distinct === N && four.distinct === N;
process.exitCode = okAll ? 0 : 1;
export const result = { one, four, ratio, kill: k };
