// The webhook listener under abuse (issue 10.6): anyone who can reach it may connect. A client
// that stalls in its headers or mid-body is cut off; connections past the limit are refused; a
// body declared too big is answered 413 before it is read; a repeat of a stored (id, event) is
// answered 200 and not stored again — the store's unique key decides, so memory holds no window
// of past events; stopping ends every connection at once. Time-outs are shortened here through the listener's limits; the defaults are in docs/security.md.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { until } from './helpers/wait.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { sign } from '../src/webhook/signature.js';
import { startListener, type ListenerLimits, type RunningListener } from '../src/webhook/listener.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';

const KEY = 'listener-test-key';
let running: RunningListener[] = [];
let sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  await Promise.all(running.map((l) => l.close().catch(() => {})));
  running = [];
});

async function listen(limits: Partial<ListenerLimits> = {}, more: { outFile?: string; forward?: string } = {}) {
  const outFile = more.outFile ?? path.join(tempDir(), 'events.jsonl');
  // The store beside the copy: a listener started again on the same --out uses the same store.
  const dir = path.dirname(outFile);
  const store = await openStore(storeLocation(`sqlite:${path.join(dir, 'events.db')}`, dir), { create: true });
  const l = await startListener({ host: '127.0.0.1', port: 0, key: KEY, store, outFile, failedFile: path.join(dir, 'failed.jsonl'), fetch: globalThis.fetch, forward: more.forward, limits });
  running.push(l);
  return { l, outFile, port: Number(new URL(l.url).port) };
}

function delivery(id: string, event = 'delivery') {
  const body = JSON.stringify({ event, mail: { id, subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: 'b@example.com' }, [event]: { timestamp: 1 } });
  return { body, headers: { 'content-type': 'application/json', 'x-service-signature': sign(KEY, id, event) } };
}

/** A raw client: writes `data` and then does nothing more, as a stalling attacker would. */
function stall(port: number, data = ''): { socket: net.Socket; closed: () => boolean; received: () => string } {
  let closed = false;
  let received = '';
  const socket = net.connect(port, '127.0.0.1', () => data && socket.write(data));
  sockets.push(socket);
  socket.on('data', (c) => (received += c));
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  return { socket, closed: () => closed, received: () => received };
}

/** True when a GET on a new connection is answered (false when the connection is refused). */
function answered(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = stall(port, GET);
    c.socket.on('data', () => resolve(true));
    c.socket.on('close', () => resolve(false));
  });
}

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
const stored = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('webhook listener limits', () => {
  it('cuts off a client that stalls mid-body, and stores nothing of it', async () => {
    const { l, port, outFile } = await listen({ headersTimeoutMs: 200, bodyTimeoutMs: 400 });
    const { body, headers } = delivery('m-stall');
    const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${headers['x-service-signature']}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const c = stall(port, head + body.slice(0, 20));
    await until('the stalled client to be cut off', () => c.closed());
    expect(stored(outFile)).toEqual([]);
    expect(l.stats.stored).toBe(0);
  });

  it('cuts off a client that connects and sends only part of its headers, or nothing', async () => {
    const { port } = await listen({ headersTimeoutMs: 200, bodyTimeoutMs: 400 });
    const silent = stall(port);
    const half = stall(port, 'POST / HTTP/1.1\r\nHost: x\r\n');
    await until('both to be cut off', () => silent.closed() && half.closed());
  });

  it('refuses connections past the limit, and serves again once one is free', async () => {
    const { port } = await listen({ maxConnections: 2, headersTimeoutMs: 5000, bodyTimeoutMs: 10000 });
    // Two clients, each answered once (so surely accepted), then holding their connection.
    const a = stall(port, GET);
    const b = stall(port, GET);
    await until('both to be served', () => a.received() && b.received());
    const third = stall(port, GET);
    await until('the third to be refused', () => third.closed());
    expect(third.received()).toBe('');
    a.socket.destroy();
    b.socket.destroy();
    await until('a free slot to serve again', () => answered(port));
  });

  it('answers 413 to a body declared over the limit and does not read on while the client keeps sending', async () => {
    const { port } = await listen({ maxBody: 4096, headersTimeoutMs: 5000, bodyTimeoutMs: 10000 });
    const c = stall(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n');
    await until('the 413', () => c.received());
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
    // A client that sends its 10 GB anyway is cut off, not drained.
    const chunk = Buffer.alloc(16 * 1024, 0x78);
    await until('the connection to be closed', () => c.closed() || (c.socket.write(chunk), false));
  });

  it('a body over the limit without a declared length is cut at the limit (413)', async () => {
    const { port } = await listen({ maxBody: 4096, headersTimeoutMs: 5000, bodyTimeoutMs: 10000 });
    const c = stall(port, `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n${'x'.repeat(0x2000)}\r\n`);
    await until('the 413 and the close', () => c.closed());
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('close() ends stalled and mid-request connections at once and keeps what was stored', async () => {
    const { l, port, outFile } = await listen({ headersTimeoutMs: 60_000, bodyTimeoutMs: 120_000 });
    const good = delivery('m-kept');
    expect((await fetch(l.url, { method: 'POST', headers: good.headers, body: good.body })).status).toBe(200);
    // One is served once and then idles; the other starts a request (its "100 Continue" shows the
    // listener is inside it), sends part of the body and stalls.
    const idle = stall(port, GET);
    const mid = stall(port, 'POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 500\r\n\r\n');
    await until('both to be under way', () => idle.received() && mid.received().includes('100 Continue'));
    mid.socket.write('{"event":');
    let done = false;
    void l.close().then(() => (done = true));
    await until('close() to finish while the clients still stall', () => done);
    expect(mid.closed() && idle.closed()).toBe(true);
    expect(stored(outFile).map((e) => e.id)).toEqual(['m-kept']);
  });

  it('close() does not wait out a forward to an app that never answers', async () => {
    const hung: http.ServerResponse[] = [];
    const app = http.createServer((_req, res) => hung.push(res));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', () => r()));
    try {
      const { l } = await listen({ stopGraceMs: 100 }, { forward: `http://127.0.0.1:${(app.address() as net.AddressInfo).port}/` });
      const e = delivery('m-fwd');
      expect((await fetch(l.url, { method: 'POST', headers: e.headers, body: e.body })).status).toBe(200);
      await until('the forward to arrive', () => hung.length === 1);
      let done = false;
      void l.close().then(() => (done = true));
      await until('close() to finish', () => done, 3000);
      expect(l.stats.forwardFailed).toBe(1);
    } finally {
      app.closeAllConnections();
      await new Promise((r) => app.close(r));
    }
  });
});

describe('webhook listener repeats', () => {
  const post = (url: string, e: { body: string; headers: Record<string, string> }) => fetch(url, { method: 'POST', headers: e.headers, body: e.body });

  it('answers a repeat of a stored (id, event) with 200 and stores it once; another event of the same message is new', async () => {
    const { l, outFile } = await listen();
    const first = delivery('m-1');
    expect((await post(l.url, first)).status).toBe(200);
    const again = await post(l.url, first);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ok: true, duplicate: true });
    expect((await post(l.url, delivery('m-1', 'open'))).status).toBe(200);
    expect(stored(outFile).map((e) => `${e.id}/${e.event}`)).toEqual(['m-1/delivery', 'm-1/open']);
    expect(l.stats).toMatchObject({ stored: 2, duplicates: 1 });
  });

  it('knows the events an earlier run stored (the store decides, however long ago)', async () => {
    const { l, outFile } = await listen();
    expect((await post(l.url, delivery('m-2'))).status).toBe(200);
    await l.close();
    const { l: again } = await listen({}, { outFile });
    expect((await post(again.url, delivery('m-2'))).status).toBe(200);
    expect(stored(outFile)).toHaveLength(1);
    expect(again.stats).toMatchObject({ stored: 0, duplicates: 1 });
  });

  it('twenty copies of one event arriving at once (one batch): stored and copied once, all answered 200', async () => {
    const { l, outFile } = await listen();
    const e = delivery('m-burst');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(l.url, e)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(stored(outFile).map((x) => x.id)).toEqual(['m-burst']);
    expect(l.stats).toMatchObject({ stored: 1, duplicates: 19 });
  });
});

describe('Ctrl-C on bin/mailctl.js webhook listen', () => {
  it('one SIGINT while a client stalls mid-body: the listener ends it and exits 0 with its summary', async () => {
    const dir = tempDir();
    const run = spawnCli(['webhook', 'listen', '--port', '0', '--out', path.join(dir, 'e.jsonl')], { home: dir, configDir: dir, env: { MAILCTL_NOTIFY_API_KEY: KEY } });
    const port = Number(await until('the listener', () => /Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.stderr())?.[1], 10_000));
    const c = stall(port, 'POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n');
    await until('the request to be under way', () => c.received().includes('100 Continue'));
    c.socket.write('{"event":');
    run.child.kill('SIGINT');
    expect((await run.exited).code).toBe(0);
    await until('the stalled client to see the close', () => c.closed());
    expect(run.stderr()).toContain('Stopped. 0 events stored');
  });
});
