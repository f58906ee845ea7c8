// `mailctl webhook listen` under load and abuse (issue 10.6), loopback only, bounded in time.
// The built CLI runs as a child; against it at the same time:
//  - senders: 2,000 signed events, 50 at a time over keep-alive connections, of which 200 are
//    repeats of earlier ones (same message id and event) posted on purpose. A refused or dropped
//    connection is retried after 100 ms, as the service would retry an unanswered call.
//  - stallers: 300 clients that each declare a 240 KiB body (under the 256 KiB cap), send 200 KiB
//    of it and stall; each reconnects 200 ms after it is cut off, until the senders are done.
// Recorded: events accepted (200), repeats answered as such, events stored, duplicates stored,
// refused connections, the listener's RSS idle, peak (VmHWM and 100 ms samples), at the end of the
// load and 3 s after the stallers leave, and the time from SIGINT to exit while 300 stallers are
// back (connected, or trying to).
// Targets: every event accepted, stored == distinct events, 0 duplicates stored, peak RSS within
// 80 MB of the idle listener, exit 0 within 1 s of SIGINT. (Bodies held at once are at most
// 64 × 256 KiB = 16 MiB; bodies of cut-off requests stay until V8 collects them, which it does
// as external memory approaches its ~64 MB soft limit: so the peak varies, but not with time.)
// Needs the build (`npm run build`). Linux (reads /proc/<pid>/status).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bin } from './built.mjs';

const EVENTS = Number(process.env.BENCH_LISTEN_EVENTS ?? 2000);
const REPEATS = Number(process.env.BENCH_LISTEN_REPEATS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_LISTEN_CONCURRENCY ?? 50);
const STALLERS = Number(process.env.BENCH_LISTEN_STALLERS ?? 300);
const DEADLINE_MS = 120_000;
const KEY = 'bench-notify-key';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-listen-'));
const out = path.join(work, 'events.jsonl');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (kb) => (kb / 1024).toFixed(1);

/** Sockets the listener holds open (its listening socket included). */
function sockets(pid) {
  return fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}

function memory(pid) {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

// --- the listener ---------------------------------------------------------------------------
const env = { PATH: process.env.PATH, HOME: work, MAILCTL_CONFIG_DIR: path.join(work, 'cfg'), MAILCTL_NOTIFY_API_KEY: KEY };
const child = spawn(process.execPath, [bin, 'webhook', 'listen', '--port', '0', '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })));
let stderr = '';
child.stderr.on('data', (c) => (stderr += c));
const killer = setTimeout(() => {
  console.log(`  gave up after ${DEADLINE_MS / 1000} s`);
  child.kill('SIGKILL');
  process.exit(1);
}, DEADLINE_MS);
killer.unref();
let port;
for (const end = Date.now() + 15_000; !port; await sleep(20)) {
  port = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)?.[1]) || undefined;
  if (Date.now() > end) throw new Error(`the listener did not start: ${stderr}`);
}
await sleep(300);
const idle = memory(child.pid);

// --- the stallers -----------------------------------------------------------------------------
let stalling = true;
let stallConnections = 0;
const stallSockets = new Set();
const partial = Buffer.alloc(200 * 1024, 0x20);
function staller() {
  if (!stalling) return;
  const s = net.connect(port, '127.0.0.1');
  stallSockets.add(s);
  stallConnections++;
  s.on('connect', () => {
    s.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Service-Signature: ${'0'.repeat(64)}\r\nContent-Length: ${240 * 1024}\r\n\r\n`);
    s.write(partial);
  });
  s.on('error', () => {});
  s.on('close', () => {
    stallSockets.delete(s);
    setTimeout(staller, 200);
  });
}
for (let i = 0; i < STALLERS; i++) staller();
await sleep(500);

// --- the senders ------------------------------------------------------------------------------
const content = `<html><body>${'<p>Hello from the benchmark.</p>'.repeat(60)}</body></html>`;
const distinct = EVENTS - REPEATS;
const events = Array.from({ length: distinct }, (_, i) => ({ id: `bench-${i}`, event: ['delivery', 'open', 'click', 'bounce'][i % 4] }));
// Repeats of earlier events, spread through the run.
const queue = [...events];
for (let r = 0; r < REPEATS; r++) queue.splice(Math.floor(((r + 1) * queue.length) / (REPEATS + 1)), 0, events[(r * 7) % distinct]);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const tally = { accepted: 0, repeatsAnswered: 0, refused: 0, other: 0 };

function postOnce({ id, event }) {
  const body = JSON.stringify({ event, mail: { id, subject: 'Bench', content, from: 'news@example.com', to: `${id}@example.org` }, [event]: { timestamp: Date.now() } });
  const signature = crypto.createHmac('sha256', KEY).update(id + event).digest('hex');
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-service-signature': signature }, timeout: 15_000 }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, duplicate: /"duplicate":true/.test(text) }));
      res.on('error', () => resolve({ status: 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0 }));
    req.end(body);
  });
}

const t0 = performance.now();
let next = 0;
let peakRss = 0;
let peakSockets = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, memory(child.pid).rss || 0);
  peakSockets = Math.max(peakSockets, sockets(child.pid));
}, 100);
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < queue.length) {
      const e = queue[next++];
      for (;;) {
        const r = await postOnce(e);
        if (r.status === 200) {
          tally.accepted++;
          if (r.duplicate) tally.repeatsAnswered++;
          break;
        }
        if (r.status === 0) tally.refused++;
        else tally.other++;
        await sleep(100);
      }
    }
  }),
);
const loadMs = performance.now() - t0;
const underLoad = memory(child.pid);

// --- the stall lifted: is the memory given back? -------------------------------------------------
stalling = false;
for (const s of stallSockets) s.destroy();
agent.destroy(); // the senders' idle keep-alive connections would otherwise hold slots
await sleep(3000);
const after = memory(child.pid);

// --- Ctrl-C while 300 clients stall again ---------------------------------------------------------
stalling = true;
for (let i = 0; i < STALLERS; i++) staller();
await sleep(1000);
const openStalls = [...stallSockets].filter((s) => s.readyState === 'open').length;
const held = sockets(child.pid);

// --- Ctrl-C while the stallers are still there --------------------------------------------------
clearInterval(sampler);
const sigint = performance.now();
child.kill('SIGINT');
// A listener that does not stop within 10 s is killed (and reported as such).
const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
const exit = await exited;
clearTimeout(stuck);
const stopMs = exit.at - sigint;
stalling = false;
clearTimeout(killer);
for (const s of stallSockets) s.destroy();

const lines = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const keys = new Set(lines.map((l) => `${l.id}\u0000${l.event}`));
const dupStored = lines.length - keys.size;
const summary = /Stopped\. .*/.exec(stderr)?.[0] ?? '(no summary)';
const peakKb = Math.max(underLoad.hwm, peakRss);

const ok = {
  accepted: tally.accepted === EVENTS,
  stored: lines.length === distinct && keys.size === distinct,
  dup: dupStored === 0 && tally.repeatsAnswered === REPEATS,
  rss: peakKb - idle.rss <= 80 * 1024,
  stop: exit.code === 0 && stopMs < 1000,
};
const mark = (b) => (b ? '  ok' : '  OVER TARGET');
console.log(`webhook listen: ${EVENTS} signed events (${REPEATS} repeats) at ${CONCURRENCY} concurrent, ${STALLERS} stalling clients (240 KiB declared, 200 KiB sent, reconnecting when cut)`);
console.log(`  load         ${(loadMs / 1000).toFixed(1)} s; ${tally.refused} connection attempts refused or cut, ${tally.other} other answers; ${stallConnections} staller connections made; at most ${peakSockets} sockets held by the listener (2 are its own)`);
console.log(`  accepted     ${tally.accepted} of ${EVENTS} answered 200 (${tally.repeatsAnswered} as repeats)${mark(ok.accepted)}`);
console.log(`  stored       ${lines.length} lines, ${keys.size} distinct (id, event); duplicates stored ${dupStored}${mark(ok.stored && ok.dup)}`);
console.log(`  RSS          idle ${mb(idle.rss)} MB, peak ${mb(peakKb)} MB (+${mb(peakKb - idle.rss)} MB), at the end of the load ${mb(underLoad.rss)} MB, 3 s after the stall ${mb(after.rss)} MB${mark(ok.rss)} (target: peak within 80 MB of idle)`);
console.log(`  stop         exit ${exit.code ?? exit.signal} ${stopMs.toFixed(0)} ms after SIGINT, with ${openStalls} stalling clients connected, ${held} sockets held by the listener${mark(ok.stop)} (target < 1000 ms)`);
console.log(`  listener     ${summary}`);
fs.rmSync(work, { recursive: true, force: true });
process.exitCode = Object.values(ok).every(Boolean) ? 0 : 1;
