// `mailctl webhook listen` and its event store (issue 21), loopback only, bounded in time.
// 1. Throughput: 10,000 signed events at 50 concurrent into the SQLite store (group commit);
//    each 200 is an event committed (WAL, synchronous=FULL). Target ≥ 1,000 events/s.
// 2. kill -9 mid-burst (once a third is acknowledged): every event that got a 200 before the kill is in the store (read back
//    with libsql after the kill). Target: none missing.
// 3. Two listeners on one PostgreSQL (a throw-away cluster, as test/helpers/postgres.ts makes):
//    10,000 events, 20 % of them repeats, each sent to both listeners at once. Target: each
//    distinct event stored exactly once. Skipped, saying why, where PostgreSQL cannot start.
// The machine is shared: the load average is printed with the figures.
// Needs the build (`npm run build`). Linux.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bin, root } from './built.mjs';

const require = createRequire(path.join(root, 'package.json'));
const Database = require('libsql');
const KEY = 'bench-notify-key';
const N = Number(process.env.BENCH_STORE_EVENTS ?? 10_000);
const CONCURRENCY = 50;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-store-'));
let failed = false;
const mark = (b) => (b ? '  ok' : '  OVER TARGET');

function startListener(args, cfg) {
  const env = { PATH: process.env.PATH, HOME: work, MAILCTL_CONFIG_DIR: cfg, MAILCTL_NOTIFY_API_KEY: KEY };
  const child = spawn(process.execPath, [bin, 'webhook', 'listen', '--port', '0', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const port = (async () => {
    for (const end = Date.now() + 15_000; ; await sleep(20)) {
      const p = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(err)?.[1]);
      if (p) return p;
      if (Date.now() > end) throw new Error(`the listener did not start: ${err}`);
    }
  })();
  return { child, port, exited, stderr: () => err };
}

function poster(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const post = ({ id, event }) => {
    const body = JSON.stringify({ event, mail: { id, subject: 'Bench', content: '<p>Hello</p>'.repeat(40), from: 'news@example.com', to: `${id}@example.org` }, [event]: { timestamp: Date.now() } });
    const signature = crypto.createHmac('sha256', KEY).update(id + event).digest('hex');
    return new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-service-signature': signature }, timeout: 15_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
        res.on('error', () => resolve(0));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(0));
      req.end(body);
    });
  };
  return { post, close: () => agent.destroy() };
}

/** Sends `queue` with `concurrency` in flight; each until it gets 200 (or `stop()` says stop). */
async function burst(post, queue, acked, stop = () => false) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < queue.length && !stop()) {
      const e = queue[next++];
      for (let tries = 0; tries < 50 && !stop(); tries++) {
        const s = await post(e);
        if (s === 200) {
          acked?.push(e);
          break;
        }
        await sleep(50);
      }
    }
  }));
}

const events = (n, prefix) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, event: ['delivery', 'open', 'click', 'bounce'][i % 4] }));
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

// --- 1. throughput into SQLite ------------------------------------------------------------------
{
  const cfg = path.join(work, 'cfg1');
  const l = startListener([], cfg);
  const port = await l.port;
  const p = poster(port);
  const queue = events(N, 'tp');
  const t0 = performance.now();
  await burst(p.post, queue);
  const s = (performance.now() - t0) / 1000;
  p.close();
  l.child.kill('SIGTERM');
  await l.exited;
  const db = new Database(path.join(cfg, 'events.db'));
  const stored = db.prepare('SELECT count(*) AS n FROM events').all()[0].n;
  db.close();
  const rate = N / s;
  const ok = rate >= 1000 && stored === N;
  failed ||= !ok;
  console.log(`webhook listen → SQLite store: ${N} signed events at ${CONCURRENCY} concurrent (load average ${load()})`);
  console.log(`  throughput   ${rate.toFixed(0)} events/s stored and acknowledged (${s.toFixed(1)} s); ${stored} rows${mark(ok)} (target ≥ 1,000/s)`);
  console.log(`  listener     ${/Stopped\. .*/.exec(l.stderr())?.[0] ?? '(no summary)'}`);
}

// --- 2. kill -9 mid-burst -------------------------------------------------------------------------
{
  const cfg = path.join(work, 'cfg2');
  const l = startListener([], cfg);
  const port = await l.port;
  const p = poster(port);
  const acked = [];
  // Killed when a third of the burst is acknowledged, not after a fixed time: on an idle machine
  // the whole burst can be stored within a second, and a kill after it tests nothing.
  let killed = false;
  const kill = () => {
    if (!killed && acked.length >= N / 3) {
      killed = true;
      l.child.kill('SIGKILL');
    }
    return killed;
  };
  await burst(p.post, events(N, 'k9'), acked, kill);
  p.close();
  await l.exited;
  const db = new Database(path.join(cfg, 'events.db'));
  const has = db.prepare('SELECT 1 FROM events WHERE channel = ? AND message_id = ? AND event = ?');
  const missing = acked.filter((e) => has.all(['email', e.id, e.event]).length === 0).length;
  const rows = db.prepare('SELECT count(*) AS n FROM events').all()[0].n;
  db.close();
  // In flight at the kill: the burst must really have been cut (some events never acknowledged).
  const ok = missing === 0 && acked.length > 0 && acked.length < N;
  failed ||= !ok;
  console.log(`kill -9 once a third of a ${N}-event burst was acknowledged (load average ${load()})`);
  console.log(`  acknowledged ${acked.length} of ${N} events got a 200 before the kill; ${rows} rows in the store; missing ${missing}${mark(ok)} (target 0, and the burst cut short)`);
}

// --- 3. two listeners, one PostgreSQL ------------------------------------------------------------
{
  const pg = await startPostgres();
  if ('skip' in pg) console.log(`two listeners on one PostgreSQL: skipped — ${pg.skip}`);
  else {
    try {
      const url = pg.database();
      const a = startListener(['--store', url], path.join(work, 'cfg3a'));
      const b = startListener(['--store', url], path.join(work, 'cfg3b'));
      const pa = poster(await a.port);
      const pb = poster(await b.port);
      const distinct = events(Math.round(N * 0.8), 'pg');
      const queue = [...distinct];
      for (let r = 0; r < N - distinct.length; r++) queue.splice(Math.floor(((r + 1) * queue.length) / (N - distinct.length + 1)), 0, distinct[(r * 7) % distinct.length]);
      const t0 = performance.now();
      // Each event to both listeners at the same moment.
      await burst((e) => Promise.all([pa.post(e), pb.post(e)]).then(([x, y]) => (x === 200 && y === 200 ? 200 : 0)), queue);
      const s = (performance.now() - t0) / 1000;
      pa.close();
      pb.close();
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
      const [rows, keys] = pg.psql(url, 'SELECT count(*), count(DISTINCT (channel, message_id, event)) FROM events').split('|').map(Number);
      const ok = rows === distinct.length && keys === distinct.length;
      failed ||= !ok;
      console.log(`two listeners on one PostgreSQL: ${N} events (${N - distinct.length} repeats), each sent to both at once (load average ${load()})`);
      console.log(`  stored       ${rows} rows, ${keys} distinct, of ${distinct.length} distinct events sent; ${s.toFixed(1)} s${mark(ok)} (target: each once)`);
      for (const l of [a, b]) console.log(`  listener     ${/Stopped\. .*/.exec(l.stderr())?.[0] ?? '(no summary)'}`);
    } finally {
      pg.stop();
    }
  }
}

fs.rmSync(work, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;

/** A throw-away cluster on a free loopback port, as test/helpers/postgres.ts starts one. */
async function startPostgres() {
  const base = '/usr/lib/postgresql';
  const binDir = fs.existsSync(base) ? fs.readdirSync(base).sort((x, y) => Number(y) - Number(x)).map((v) => `${base}/${v}/bin`).find((d) => fs.existsSync(`${d}/initdb`)) : undefined;
  if (!binDir) return { skip: 'no PostgreSQL server binaries on this machine' };
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-bench-pg-'));
  const as = (cmd, args) => (asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' }));
  if (asRoot) spawnSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  if (as(`${binDir}/initdb`, ['-D', data, '-A', 'trust', '-U', 'mailctl', '-E', 'UTF8', '--no-sync']).status !== 0) return { skip: 'initdb failed' };
  const port = await new Promise((r) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => r(port));
    });
  });
  const st = as(`${binDir}/pg_ctl`, ['-D', data, '-l', path.join(dir, 'log'), '-w', 'start', '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=50`]);
  if (st.status !== 0) return { skip: `pg_ctl start failed: ${st.stderr}` };
  const psql = (url, sql) => spawnSync('psql', [url, '-X', '-q', '-A', '-t', '-c', sql], { encoding: 'utf8' }).stdout.trim();
  return {
    database() {
      psql(`postgres://mailctl@127.0.0.1:${port}/postgres`, 'CREATE DATABASE bench');
      return `postgres://mailctl@127.0.0.1:${port}/bench`;
    },
    psql,
    stop() {
      as(`${binDir}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
