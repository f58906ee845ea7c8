// `webhook listen` forwarding (issue 13.3): each stored event goes to its --route URL (else
// --forward), after the service has its 200; a forward that fails for a passing reason (no
// connection, 429, 5xx) is retried with backoff, one the app refuses (other 4xx) is not; what
// could not be forwarded is appended to the failed file as the very line --out got, also when
// too much is waiting (a bounded queue) and when Ctrl-C comes while retries are waiting.
// The consumers are local node:http servers; backoff is made tiny through the listener's limits
// (or the run's retry tuning), so nothing here depends on timing.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { unusedPort, until } from './helpers/wait.js';
import { sign } from '../src/webhook/signature.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { failedFileFor } from '../src/webhook/events-file.js';
import { startListener, type ListenerLimits, type ListenerOptions, type RunningListener } from '../src/webhook/listener.js';
import type { ForwardOutcome } from '../src/webhook/forwarder.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const KEY = 'forward-test-key';
const TINY_BACKOFF: Partial<ListenerLimits> = { forwardBaseDelayMs: 1, forwardMaxDelayMs: 5 };
const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'POST /notify/v1/messages',
    'POST /notify/v1/sms/messages',
    'POST /notify/v1/sms/webhooks',
    'POST /notify/v1/webhooks',
  ],
});

type Answer = number | 'drop' | 'hang';
interface Consumer {
  url: string;
  got: Array<{ body: string; headers: http.IncomingHttpHeaders }>;
  close: () => Promise<void>;
}
const consumers: Consumer[] = [];
let running: RunningListener[] = [];
afterEach(async () => {
  await Promise.all(running.map((l) => l.close().catch(() => {})));
  running = [];
  await Promise.all(consumers.splice(0).map((c) => c.close()));
});

/** The developer's app: answers the nth request (from 1) as `answer` says, recording each. */
async function consumer(answer: (n: number) => Answer = () => 200): Promise<Consumer> {
  const got: Consumer['got'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      const a = answer(got.length);
      if (a === 'drop') return req.socket.destroy();
      if (a === 'hang') return;
      res.writeHead(a, a === 429 ? { 'retry-after': '0' } : {});
      res.end('answer');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const c: Consumer = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`,
    got,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
  consumers.push(c);
  return c;
}

async function listen(limits: Partial<ListenerLimits>, more: Partial<ListenerOptions> = {}) {
  const dir = tempDir();
  const outFile = path.join(dir, 'events.jsonl');
  const outcomes: ForwardOutcome[] = [];
  const store = await openStore(storeLocation(`sqlite:${path.join(dir, 'events.db')}`, dir), { create: true });
  const l = await startListener({ host: '127.0.0.1', port: 0, key: KEY, store, outFile, failedFile: failedFileFor(outFile), fetch: globalThis.fetch, limits: { ...TINY_BACKOFF, ...limits }, onForward: (o) => outcomes.push(o), ...more });
  running.push(l);
  return { l, outFile, outcomes };
}

/** A signed webhook body as the service sends it (spec 001 section 6). */
function signed(id: string, event = 'delivery', channel: 'email' | 'sms' = 'email', key = KEY) {
  const payload = channel === 'email'
    ? { event, mail: { id, subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: 'b@example.com' }, [event]: { timestamp: 1 } }
    : { event, sms_data: { id, content: '【Acme】hi', recipient: '0912345678', address: '0912345678', country_code: '886' }, [event]: { timestamp: 1 } };
  return { body: JSON.stringify(payload), headers: { 'content-type': 'application/json', 'x-service-signature': sign(key, id, event) } };
}
const post = (url: string, e: ReturnType<typeof signed>) => fetch(url, { method: 'POST', headers: e.headers, body: e.body });
const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('webhook listen: retries', () => {
  it('retries a dropped connection, a 500 and a 429, and the event then arrives unchanged, once in the end', async () => {
    const answers: Answer[] = ['drop', 500, 429, 200];
    const app = await consumer((n) => answers[n - 1] ?? 200);
    const { l, outcomes } = await listen({}, { forward: app.url });
    const e = signed('m-retry');
    expect((await post(l.url, e)).status).toBe(200);
    await until('the forward to succeed', () => l.stats.forwarded === 1);
    expect(app.got).toHaveLength(4);
    // Every try carries the body as received and the signature it came with.
    for (const g of app.got) {
      expect(g.body).toBe(e.body);
      expect(g.headers['x-service-signature']).toBe(e.headers['x-service-signature']);
    }
    expect(l.stats).toMatchObject({ stored: 1, forwarded: 1, retried: 3, forwardFailed: 0, kept: 0 });
    expect(outcomes).toMatchObject([{ ok: true, attempts: 4, detail: 'HTTP 200' }]);
    expect(lines(l.failedFile!)).toEqual([]);
  });

  it('an app that always fails: tried the set number of times, then the --out line goes to the failed file unchanged (0600)', async () => {
    const app = await consumer(() => 500);
    const { l, outFile, outcomes } = await listen({ forwardAttempts: 3 }, { forward: app.url });
    expect((await post(l.url, signed('m-down', 'bounce'))).status).toBe(200);
    await until('the event to be kept', () => lines(l.failedFile!).length === 1);
    expect(app.got).toHaveLength(3);
    // The same line, byte for byte, as the events file: `webhook replay` reads both alike.
    expect(lines(l.failedFile!)).toEqual(lines(outFile));
    expect(JSON.parse(lines(l.failedFile!)[0])).toMatchObject({ event: 'bounce', id: 'm-down', channel: 'email', signatureHeader: 'x-service-signature', signature: signed('m-down', 'bounce').headers['x-service-signature'] });
    expect(mode(l.failedFile!)).toBe(0o600);
    expect(l.stats).toMatchObject({ forwarded: 0, retried: 2, forwardFailed: 1, kept: 1 });
    expect(outcomes).toMatchObject([{ ok: false, attempts: 3, kept: true, detail: 'HTTP 500 after 3 tries' }]);
  });

  it('does not retry an answer in which the app refuses the event (4xx other than 408/429): kept at once', async () => {
    for (const status of [400, 404, 422]) {
      const app = await consumer(() => status);
      const { l, outcomes } = await listen({}, { forward: app.url });
      expect((await post(l.url, signed(`m-${status}`))).status).toBe(200);
      await until('the event to be kept', () => l.stats.kept === 1);
      expect(app.got).toHaveLength(1);
      expect(l.stats.retried).toBe(0);
      expect(outcomes).toMatchObject([{ ok: false, attempts: 1, detail: `HTTP ${status}: refused by the app, not retried` }]);
    }
  });

  it('a 408 is retried like a 5xx', async () => {
    const app = await consumer((n) => (n === 1 ? 408 : 204));
    const { l } = await listen({}, { forward: app.url });
    await post(l.url, signed('m-408'));
    await until('the forward to succeed', () => l.stats.forwarded === 1);
    expect(app.got).toHaveLength(2);
  });
});

describe('webhook listen: bounded forwarding', () => {
  it('holds at most forwardQueue events: one more goes straight to the failed file, untried, and the rest at stop', async () => {
    const app = await consumer(() => 'hang');
    const { l, outFile, outcomes } = await listen({ forwardQueue: 1, stopGraceMs: 10 }, { forward: app.url });
    for (const id of ['q-1', 'q-2', 'q-3']) expect((await post(l.url, signed(id))).status).toBe(200);
    // q-1 is held (its forward hangs); q-2 and q-3 found the queue full and were kept untried.
    await until('two kept', () => lines(l.failedFile!).length === 2);
    expect(lines(l.failedFile!).map((x) => JSON.parse(x).id)).toEqual(['q-2', 'q-3']);
    expect(app.got.map((g) => JSON.parse(g.body).mail.id)).toEqual(['q-1']);
    expect(outcomes.map((o) => [o.job.id, o.attempts, o.detail.startsWith('the forward queue is full')])).toEqual([['q-2', 0, true], ['q-3', 0, true]]);
    await l.close();
    expect(lines(l.failedFile!).map((x) => JSON.parse(x).id)).toEqual(['q-2', 'q-3', 'q-1']);
    expect(lines(outFile)).toHaveLength(3);
    expect(l.stats).toMatchObject({ stored: 3, forwarded: 0, forwardFailed: 3, kept: 3 });
  });

  it('has at most forwardConcurrency forwards under way; the rest wait in line, in order, and are kept untried on stop', async () => {
    const app = await consumer((n) => (n === 1 ? 'hang' : 200));
    const { l, outcomes } = await listen({ forwardConcurrency: 1, stopGraceMs: 10 }, { forward: app.url });
    for (const id of ['w-1', 'w-2', 'w-3']) expect((await post(l.url, signed(id))).status).toBe(200);
    await until('the first try', () => app.got.length === 1);
    // w-2 and w-3 wait behind w-1, whose forward hangs: neither tried nor kept yet.
    expect(lines(l.failedFile!)).toEqual([]);
    await l.close();
    expect(app.got).toHaveLength(1);
    expect(lines(l.failedFile!).map((x) => JSON.parse(x).id)).toEqual(['w-2', 'w-3', 'w-1']);
    expect(outcomes.map((o) => [o.job.id, o.attempts, o.detail])).toEqual([
      ['w-2', 0, 'the listener was stopping'],
      ['w-3', 0, 'the listener was stopping'],
      ['w-1', 1, 'stopped during try 1 (the app may have it)'],
    ]);
  });

  it('holds at most forwardQueueBytes: past it an event is kept untried (one is always let in)', async () => {
    const app = await consumer(() => 'hang');
    const { l } = await listen({ forwardQueueBytes: 10, stopGraceMs: 10 }, { forward: app.url });
    await post(l.url, signed('b-1'));
    await post(l.url, signed('b-2'));
    await until('one kept', () => lines(l.failedFile!).length === 1);
    expect(JSON.parse(lines(l.failedFile!)[0]).id).toBe('b-2');
    expect(app.got).toHaveLength(1);
  });
});

describe('webhook listen: routes', () => {
  it('sends each event type to its --route URL, SMS ones by their sms- name, the rest to --forward (sandbox deliveries)', async () => {
    const [bounces, smsBounces, rest] = await Promise.all([consumer(), consumer(), consumer()]);
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const ac = new AbortController();
    const run = runCli(['--json', 'webhook', 'listen', '--port', String(port), '--out', out, '--route', `bounce=${bounces.url}`, '--route', `sms-bounce=${smsBounces.url}`, '--forward', rest.url], { sandbox: sb.get(), signal: ac.signal });
    const url = `http://127.0.0.1:${port}/`;
    await until('the listener', () => fetch(url).then((r) => r.ok).catch(() => false));
    for (const args of [['delivery', url], ['bounce', url], ['bounce', url, '--sms'], ['delivery', url, '--sms']]) {
      expect((await runCli(['webhook', 'set', ...args], { sandbox: sb.get() })).exitCode).toBe(0);
    }
    const send = await runCli(['send', '--to', 'bounce@example.com', '--subject', 'hi', '--html', 'x', '--from', 'noreply@example.com'], { sandbox: sb.get() });
    expect(send.exitCode).toBe(0);
    const sms = await runCli(['send', 'sms', '--to', '0912340000', '--country-code', '886', '--text', '【Acme】hi'], { sandbox: sb.get() });
    expect(sms.exitCode).toBe(0);
    await until('an email and an SMS bounce forwarded', () => bounces.got.length >= 1 && smsBounces.got.length >= 1);
    await until('every stored event forwarded', () => {
      const stored = lines(out).length;
      return stored > 0 && bounces.got.length + smsBounces.got.length + rest.got.length === stored;
    });
    ac.abort();
    const r = await run;
    expect(r.exitCode).toBe(0);

    const body = (g: { body: string }) => JSON.parse(g.body) as { event: string; mail?: unknown; sms_data?: unknown };
    expect(bounces.got.map(body).every((b) => b.event === 'bounce' && b.mail)).toBe(true);
    expect(smsBounces.got.map(body).every((b) => b.event === 'bounce' && b.sms_data)).toBe(true);
    expect(rest.got.length).toBeGreaterThan(0);
    expect(rest.got.map(body).every((b) => b.event !== 'bounce')).toBe(true);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ failedOut: path.join(path.dirname(out), 'events.failed.jsonl'), forwarded: lines(out).length, retried: 0, forwardFailed: 0, kept: 0, unrouted: 0 });
  });

  it('an event no route names, without --forward, is only stored', async () => {
    const bounces = await consumer();
    const { l, outFile } = await listen({}, { routes: { byEvent: { bounce: bounces.url } } });
    await post(l.url, signed('r-1', 'delivery'));
    await post(l.url, signed('r-1', 'bounce'));
    await post(l.url, signed('r-2', 'bounce', 'sms'));
    await until('the email bounce forwarded', () => l.stats.forwarded === 1);
    expect(lines(outFile)).toHaveLength(3);
    expect(bounces.got.map((g) => JSON.parse(g.body).mail?.id)).toEqual(['r-1']);
    expect(l.stats).toMatchObject({ stored: 3, forwarded: 1, unrouted: 2 });
  });

  it('refuses a bad --route before listening (exit 2, one sentence)', async () => {
    const port = await unusedPort();
    const cases: Array<[string[], string]> = [
      [['--route', 'bounce'], '--route "bounce" has no "="'],
      [['--route', 'sms-open=http://127.0.0.1:1/'], 'SMS webhooks exist only for delivery and bounce'],
      [['--route', 'unsubscribe=http://127.0.0.1:1/'], '--route "unsubscribe=http://127.0.0.1:1/" names no webhook event.'],
      [['--route', 'bounce=ftp://127.0.0.1/'], '--route bounce "ftp://127.0.0.1/" must start with https:// or http://'],
      [['--route', 'bounce=http://127.0.0.1:1/', '--route', 'BOUNCE=http://127.0.0.1:2/'], '--route bounce is given twice'],
      [['--route', '*=http://127.0.0.1:1/'], 'Use --forward http://127.0.0.1:1/ for the default route.'],
      [['--failed-out', 'f.jsonl'], '--failed-out keeps events that could not be forwarded, but nothing is forwarded.'],
    ];
    for (const [args, said] of cases) {
      const r = await runCli(['webhook', 'listen', '--port', String(port), '--out', path.join(tempDir(), 'e.jsonl'), ...args], { sandbox: sb.get() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(said);
    }
    const dir = tempDir();
    const same = await runCli(['webhook', 'listen', '--port', String(port), '--out', path.join(dir, 'e.jsonl'), '--forward', 'http://127.0.0.1:1/', '--failed-out', path.join(dir, 'e.jsonl')], { sandbox: sb.get() });
    expect(same.exitCode).toBe(2);
    expect(same.stderr).toContain('--failed-out and --out both name');
  });
});

describe('webhook listen: the failed file and Ctrl-C', () => {
  /** Starts the command in-process; stop() is Ctrl-C and resolves to the run's result. */
  async function command(args: string[], tuning = {}) {
    const port = await unusedPort();
    const ac = new AbortController();
    const done = runCli(['webhook', 'listen', '--port', String(port), ...args], { sandbox: sb.get(), signal: ac.signal, tuning });
    const url = `http://127.0.0.1:${port}/`;
    await until('the listener', () => Promise.race([done.then(() => 'ended'), fetch(url).then((r) => r.ok).catch(() => false)]));
    return { url, stop: () => (ac.abort(), done) };
  }

  it('keeps an event the app never took beside --out, says so, counts it, and prints the replay command', async () => {
    const app = await consumer(() => 500);
    const out = path.join(tempDir(), 'hooks.jsonl');
    const l = await command(['--out', out, '--forward', app.url], { retryBaseMs: 1 });
    expect((await post(l.url, signed('k-1', 'bounce', 'email', SANDBOX_KEYS.notify))).status).toBe(200);
    const failed = path.join(path.dirname(out), 'hooks.failed.jsonl');
    await until('the event to be kept', () => lines(failed).length === 1);
    const r = await l.stop();
    expect(r.exitCode).toBe(0);
    expect(app.got).toHaveLength(6);
    expect(lines(failed)).toEqual(lines(out));
    expect(r.stderr).toContain(`bounce k-1 not forwarded to ${app.url}: HTTP 500 after 6 tries; kept in ${failed}.`);
    expect(r.stderr).toContain(`0 forwarded, 5 retries, 1 not forwarded (1 kept in ${failed})`);
    expect(r.stderr).toContain(`mailctl webhook replay ${failed} --url ${app.url}`);
    // Retries are shown only with -v.
    expect(r.stderr).not.toContain('try 1 of 6 failed');
  });

  it('-v shows each retry as it is scheduled', async () => {
    const app = await consumer((n) => (n === 1 ? 502 : 200));
    const l = await command(['-v', '--out', path.join(tempDir(), 'e.jsonl'), '--forward', app.url], { retryBaseMs: 1 });
    await post(l.url, signed('v-1', 'open', 'email', SANDBOX_KEYS.notify));
    await until('the forward', () => app.got.length === 2);
    const r = await l.stop();
    expect(r.stderr).toContain(`forward of open v-1 to ${app.url}: try 1 of 6 failed (HTTP 502); retrying`);
    expect(r.stderr).toContain('1 forwarded, 1 retry, 0 not forwarded');
  });

  it('refuses a symlink at the failed file (exit 2, naming --failed-out) and leaves its target alone', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'target');
    fs.writeFileSync(target, 'keep me\n');
    fs.symlinkSync(target, path.join(dir, 'e.failed.jsonl'));
    const r = await runCli(['webhook', 'listen', '--port', '0', '--out', path.join(dir, 'e.jsonl'), '--forward', 'http://127.0.0.1:9/'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--failed-out');
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me\n');
  });

  it('Ctrl-C while forwards wait to retry: each is written to the failed file at once, nothing lost', async () => {
    const app = await consumer(() => 503);
    const out = path.join(tempDir(), 'events.jsonl');
    const failed = path.join(tempDir(), 'later.jsonl');
    // A minute before the first retry: only stopping can end these forwards within the test.
    const l = await command(['--json', '--out', out, '--forward', app.url, '--failed-out', failed], { retryBaseMs: 60_000 });
    for (const id of ['c-1', 'c-2']) expect((await post(l.url, signed(id, 'delivery', 'email', SANDBOX_KEYS.notify))).status).toBe(200);
    await until('both first tries', () => app.got.length === 2);
    expect(lines(failed)).toEqual([]);
    const r = await l.stop();
    expect(r.exitCode).toBe(0);
    expect(app.got).toHaveLength(2);
    expect([...lines(failed)].sort()).toEqual([...lines(out)].sort());
    expect(lines(failed)).toHaveLength(2);
    expect(mode(failed)).toBe(0o600);
    expect(JSON.parse(r.stdout)).toMatchObject({ failedOut: failed, stored: 2, forwarded: 0, forwardFailed: 2, kept: 2 });
  });
});
