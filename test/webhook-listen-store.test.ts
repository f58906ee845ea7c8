// webhook listen and its store (issue 21, issue 19 item 4): a full disk — under the store or
// under the --out copy — is answered 503 (the service retries) and leaves neither a row nor a
// torn line; the retry after space is back is stored once. SIGTERM and SIGHUP stop the built
// binary as Ctrl-C does, recording the forwards still pending in the failed-forwards file.
// --keep prunes at start and then daily, on the run's clock. Two listeners on one PostgreSQL
// store each event once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { smallDisk } from './helpers/small-disk.js';
import { until, unusedPort } from './helpers/wait.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { startConsumer } from './helpers/webhook-consumer.js';
import { postgresForTests } from './helpers/postgres.js';
import { sign } from '../src/webhook/signature.js';
import { startListener } from '../src/webhook/listener.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { rowOf } from '../src/store/row.js';
import type { Clock } from '../src/core/clock.js';

const KEY = 'store-test-key';
const DAY = 86_400_000;
const pg = await postgresForTests();
afterAll(() => pg?.stop());

function signed(id: string, event = 'delivery', o: { timestamp?: number; key?: string } = {}) {
  const body = JSON.stringify({ event, mail: { id, subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: `${id}@example.com` }, [event]: { timestamp: o.timestamp ?? Date.now() } });
  return { body, headers: { 'content-type': 'application/json', 'x-service-signature': sign(o.key ?? KEY, id, event) } };
}
const post = (url: string, e: ReturnType<typeof signed>) => fetch(url, { method: 'POST', headers: e.headers, body: e.body });
const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const sqlite = (file: string, sql: string) => spawnSync('python3', ['-c', 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())', file, sql], { encoding: 'utf8' }).stdout.trim();

/**
 * Unmounts a small disk the store was on. libsql closes a database only once its prepared
 * statements are collected, so the files may still be open here: a lazy unmount detaches it now
 * and frees it when they are (a process that stops — the listener's case — closes them anyway).
 */
function release(disk: { dir: string }): void {
  spawnSync('umount', ['-l', disk.dir]);
  fs.rmSync(disk.dir, { recursive: true, force: true });
}

async function listener(storeFile: string, more: { outFile?: string; clock?: Clock; keepMs?: number; onPrune?: (n: number) => void; onWarn?: (m: string) => void } = {}) {
  const store = await openStore(storeLocation(`sqlite:${storeFile}`, path.dirname(storeFile)), { create: true });
  return startListener({ host: '127.0.0.1', port: 0, key: KEY, store, fetch: globalThis.fetch, ...more });
}

describe('webhook listen on a full disk', () => {
  it('the SQLite store\'s disk full: 503 and nothing stored; once there is room the retry is stored once', async (t) => {
    const disk = smallDisk(1024 * 1024);
    if ('skip' in disk) return t.skip(disk.skip);
    const file = path.join(disk.dir, 'events.db');
    const l = await listener(file);
    try {
      expect((await post(l.url, signed('before'))).status).toBe(200);
      disk.fill(0);
      const big = signed('while-full', 'delivery');
      const r = await post(l.url, big);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(l.stats).toMatchObject({ stored: 1, notStored: 1 });
      disk.free();
      expect((await post(l.url, big)).status).toBe(200);
      expect((await post(l.url, big)).status).toBe(200); // a repeat now
      await l.close();
      expect(sqlite(file, 'select message_id from events order by seq')).toBe("[('before',), ('while-full',)]");
    } finally {
      await l.close();
      release(disk);
    }
  });

  it('the --out copy\'s disk full: 503, the batch rolled back in the store, no torn line; the retry is in both once', async (t) => {
    const disk = smallDisk(256 * 1024);
    if ('skip' in disk) return t.skip(disk.skip);
    const file = path.join(tempDir(), 'events.db');
    const out = path.join(disk.dir, 'events.jsonl');
    const l = await listener(file, { outFile: out });
    try {
      expect((await post(l.url, signed('first'))).status).toBe(200);
      disk.fill(600);
      // A body bigger than the room left: the line would be torn.
      const e = signed('too-big', 'delivery');
      const bigger = { ...e, body: JSON.stringify({ ...JSON.parse(e.body), mail: { ...JSON.parse(e.body).mail, content: 'x'.repeat(20_000) } }) };
      expect((await post(l.url, bigger)).status).toBe(503);
      expect(fs.readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
      expect(lines(out).map((x) => JSON.parse(x).id)).toEqual(['first']);
      expect(sqlite(file, 'select count(*) from events')).toBe('[(1,)]');
      disk.free();
      expect((await post(l.url, bigger)).status).toBe(200);
      await l.close();
      expect(lines(out).map((x) => JSON.parse(x).id)).toEqual(['first', 'too-big']);
      expect(sqlite(file, 'select message_id from events order by seq')).toBe("[('first',), ('too-big',)]");
    } finally {
      await l.close();
      release(disk);
    }
  });
});

describe('webhook listen --out after a run killed between the copy and the COMMIT', () => {
  it('takes out the lines of events the store never committed, says so, and the resent event is in the copy once', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'events.db');
    const out = path.join(dir, 'events.jsonl');
    const first = await listener(file, { outFile: out });
    for (const id of ['kept-1', 'kept-2']) expect((await post(first.url, signed(id))).status).toBe(200);
    await first.close();
    // A clean stop leaves nothing for the next start to check.
    expect(fs.readFileSync(`${out}.last-batch`, 'utf8')).toBe('');
    // What a kill -9 after the copy's append and before the COMMIT leaves: whole lines, no rows,
    // and the mark of where that batch starts, for this store.
    const copied = lines(out);
    const ghost = (id: string) => JSON.stringify({ ...JSON.parse(copied[1]), id, payload: { event: 'delivery', mail: { id } } });
    const batchAt = fs.statSync(out).size;
    fs.appendFileSync(out, `${ghost('lost-1')}\n${ghost('lost-2')}\n`);
    fs.writeFileSync(`${out}.last-batch`, JSON.stringify({ from: batchAt, store: `sqlite:${file}` }));
    const warned: string[] = [];
    const again = await listener(file, { outFile: out, onWarn: (m) => warned.push(m) });
    try {
      expect(lines(out).map((x) => JSON.parse(x).id)).toEqual(['kept-1', 'kept-2']);
      expect(warned.join('\n')).toContain(`${out} ended in 2 lines of events the store never committed`);
      // The service sends the event again: stored, and copied once.
      expect((await post(again.url, signed('lost-1'))).status).toBe(200);
    } finally {
      await again.close();
    }
    expect(lines(out).map((x) => JSON.parse(x).id)).toEqual(['kept-1', 'kept-2', 'lost-1']);
    expect(sqlite(file, 'select message_id from events order by seq')).toBe("[('kept-1',), ('kept-2',), ('lost-1',)]");
    // The copy is only ever judged by the store its last batch went to: after a crash of the run
    // on this store, a listener on another store (which holds none of these events) takes nothing out.
    fs.writeFileSync(`${out}.last-batch`, JSON.stringify({ from: 0, store: `sqlite:${file}` }));
    const other = await listener(path.join(tempDir(), 'other.db'), { outFile: out });
    await other.close();
    expect(lines(out).map((x) => JSON.parse(x).id)).toEqual(['kept-1', 'kept-2', 'lost-1']);
  });
});

describe.each(['SIGTERM', 'SIGHUP'] as const)('%s on bin/mailctl.js webhook listen', (signal) => {
  it('stops as Ctrl-C does: exit 0, the summary, and a forward still pending recorded in the failed-forwards file', async () => {
    const app = await startConsumer(() => 'hang');
    try {
      const dir = tempDir();
      const failed = path.join(dir, 'failed.jsonl');
      const run = spawnCli(['webhook', 'listen', '--port', '0', '--forward', app.url, '--failed-out', failed], { home: dir, configDir: dir, env: { MAILCTL_NOTIFY_API_KEY: KEY } });
      const port = Number(await until('the listener', () => /Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.stderr())?.[1], 10_000));
      expect((await post(`http://127.0.0.1:${port}/`, signed('pending'))).status).toBe(200);
      await until('the forward to reach the app', () => app.got.length === 1);
      run.child.kill(signal);
      const { code, stderr: err } = await run.exited;
      expect(code).toBe(0);
      expect(lines(failed).map((x) => JSON.parse(x).id)).toEqual(['pending']);
      expect(err).toContain('1 event stored');
      expect(err).toContain('1 kept in');
      expect(sqlite(path.join(dir, 'events.db'), 'select message_id from events')).toBe("[('pending',)]");
    } finally {
      await app.close();
    }
  });
});

describe('webhook listen --keep', () => {
  it('prunes events older than the span at start, then every day of the run\'s clock', async () => {
    const start = Date.parse('2025-06-01T00:00:00Z');
    let t = start;
    const sleepers: Array<{ due: number; wake: () => void }> = [];
    const clock: Clock = {
      now: () => t,
      sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
        const s = { due: t + ms, wake: resolve };
        sleepers.push(s);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    };
    const advance = async (ms: number) => {
      t += ms;
      for (const s of sleepers.splice(0)) if (s.due <= t) s.wake(); else sleepers.push(s);
      await new Promise((r) => setTimeout(r, 20));
    };
    const file = path.join(tempDir(), 'events.db');
    const seed = await openStore(storeLocation(`sqlite:${file}`, '/x'), { create: true });
    const at = (id: string, daysAgo: number) => rowOf({ event: 'delivery', mail: { id }, delivery: { timestamp: start - daysAgo * DAY } }, { id, event: 'delivery', channel: 'email' }, start);
    await seed.insert([at('old', 401), at('young', 399), at('new', 0)]);
    await seed.close();
    const pruned: number[] = [];
    const l = await listener(file, { clock, keepMs: 400 * DAY, onPrune: (n) => pruned.push(n) });
    expect(pruned).toEqual([1]);
    expect(sqlite(file, 'select message_id from events order by seq')).toBe("[('young',), ('new',)]");
    await advance(DAY - 1000);
    expect(pruned).toEqual([1]);
    await advance(1000); // a day after start: 'young' is now 400 days and a day old... 
    await until('the daily prune', () => pruned.length === 2);
    expect(pruned[1]).toBe(0); // 'young' is exactly 400 days old: kept
    await advance(DAY);
    await until('the next daily prune', () => pruned.length === 3);
    expect(pruned[2]).toBe(1);
    expect(sqlite(file, 'select message_id from events order by seq')).toBe("[('new',)]");
    expect(l.stats.pruned).toBe(2);
    await l.close();
  });

  it('refuses a --keep shorter than a day or not a duration (exit 2)', async () => {
    for (const [v, said] of [['12h', '--keep is at least a day'], ['forever', '--keep takes a duration such as 400d or 90d']]) {
      const r = await runCli(['webhook', 'listen', '--port', '0', '--keep', v], { env: { MAILCTL_NOTIFY_API_KEY: KEY } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(said);
    }
  });
});

describe.skipIf(!pg)('two listeners on one PostgreSQL store', () => {
  it('the same events sent to both at once (with repeats): each stored exactly once, found by psql and by events --history', async () => {
    const url = pg!.database();
    const cfg = tempDir();
    const run = async () => {
      const port = await unusedPort();
      const ac = new AbortController();
      const done = runCli(['webhook', 'listen', '--port', String(port), '--store', url, '--json'], { env: { MAILCTL_NOTIFY_API_KEY: KEY }, signal: ac.signal, configDir: cfg });
      const u = `http://127.0.0.1:${port}/`;
      await until('a listener', () => fetch(u).then((r) => r.ok).catch(() => false));
      return { url: u, stop: () => (ac.abort(), done) };
    };
    const [a, b] = await Promise.all([run(), run()]);
    const events = Array.from({ length: 100 }, (_, i) => signed(`pg-${i % 80}`)); // 20 repeats
    // 25 at a time to each (the listener takes 64 connections at once).
    for (let i = 0; i < events.length; i += 25) {
      const answers = await Promise.all(events.slice(i, i + 25).flatMap((e) => [post(a.url, e), post(b.url, e)]));
      expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(200));
    }
    const [ra, rb] = await Promise.all([a.stop(), b.stop()]);
    const sa = JSON.parse(ra.stdout);
    const sb = JSON.parse(rb.stdout);
    expect(sa.stored + sb.stored).toBe(80);
    expect(sa.duplicates + sb.duplicates).toBe(120);
    expect(pg!.psql(url, 'SELECT count(*), count(DISTINCT message_id) FROM events')).toBe('80|80');
    const h = await runCli(['events', '--history', '--store', url, '--since', '1d', '--json'], { configDir: cfg });
    expect(h.exitCode).toBe(0);
    expect(JSON.parse(h.stdout).logs).toHaveLength(80);
  });
});

describe.skipIf(!pg)('contacts clean --history on PostgreSQL', () => {
  it('the line to paste leaves the URL\'s password out (never shown) and says where it comes from', async () => {
    const url = pg!.database();
    // The test cluster trusts loopback logins, so a password in the URL is accepted and unused.
    const withPassword = url.replace('://mailctl@', '://mailctl:Sh0wMeN0t@');
    expect(withPassword).not.toBe(url);
    const store = await openStore(storeLocation(url, tempDir()), { create: true });
    const bounce = { event: 'bounce', mail: { id: 'b-1', subject: 'Hi', to: 'gone@example.com' }, bounce: { timestamp: Date.now() - DAY, type: 1, code: '550', reason: 'no such user' } };
    await store.insert([rowOf(bounce, { id: 'b-1', event: 'bounce', channel: 'email' }, Date.now() - DAY)]);
    await store.close();
    const cfg = tempDir();
    // The built-in sandbox answers 429 past 2 requests a second: these runs keep to the budget.
    const paced = { configDir: cfg, tuning: { rateLimit: true } };
    expect((await runCli(['--sandbox', 'groups', 'create', 'Hist'], paced)).exitCode).toBe(0);
    const r = await runCli(['--sandbox', 'contacts', 'clean', '--group', 'Hist', '--since', '30d', '--history', '--store', withPassword], paced);
    expect(r.exitCode, `${url} ${withPassword} ${r.stderr}`).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain('Sh0wMeN0t');
    expect(r.stderr).toContain(`--store ${withPassword.replace(':Sh0wMeN0t@', '@')} --yes (with the store's password in PGPASSWORD)`);
  });
});
