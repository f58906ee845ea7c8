// mailctl webhook trigger: a synthetic event of each email and SMS type reaches a local consumer
// with the payload shape of spec 001 section 6 and the signature of section 5 (x-service-signature
// = hex HMAC-SHA256(id + event), notification key), checked independently and with `webhook verify`;
// the key itself goes nowhere. The sandbox's own deliveries are the reference for the shape.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { notifyApi } from './helpers/notify-api.js';
import { startConsumer, type Consumer, type Got } from './helpers/webhook-consumer.js';
import { unusedPort, until } from './helpers/wait.js';
import { sandboxExamples } from './helpers/help-examples.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const KEY = 'notify-key-for-trigger-tests-7f3a';
const env = { MAILCTL_NOTIFY_API_KEY: KEY };

function hmac(key: string, message: string): string {
  return crypto.createHmac('sha256', key).update(message).digest('hex');
}

/** The structure of a JSON value: keys (sorted) and the type of each leaf. */
function shape(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, shape((v as Record<string, unknown>)[k])]));
  return typeof v;
}

/** Nothing the consumer got carries the key: not a header, not the body, not the path. */
function keyNowhere(g: Got, key = KEY): void {
  expect(g.raw).not.toContain(key);
  expect(g.path).not.toContain(key);
  for (const [name, value] of Object.entries(g.headers)) {
    expect(name).not.toBe('x-api-key');
    expect(String(value)).not.toContain(key);
  }
}

let consumer: Consumer;
beforeAll(async () => { consumer = await startConsumer(); });
afterAll(async () => { await consumer.close(); });

const last = () => consumer.got[consumer.got.length - 1];

describe('mailctl webhook trigger: payload and signature', () => {
  const EMAIL_DETAIL: Record<string, Record<string, string>> = {
    delivery: { timestamp: 'number' },
    open: { client_headers: 'string', timestamp: 'number' },
    click: { client_headers: 'string', link_url: 'string', sort: 'string', timestamp: 'number' },
    bounce: { code: 'string', reason: 'string', timestamp: 'number', type: 'number' },
    complaint: { timestamp: 'number' },
  };

  it.each(Object.keys(EMAIL_DETAIL))('email %s: the spec\'s shape, signed over mail.id + event with the notification key, the key sent nowhere', async (event) => {
    const before = consumer.got.length;
    const r = await runCli(['webhook', 'trigger', event, '--url', consumer.url], { env });
    expect(r.exitCode).toBe(0);
    expect(consumer.got.length).toBe(before + 1);
    const g = last();
    expect(g.method).toBe('POST');
    expect(g.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(g.raw);
    expect(shape(body)).toEqual({
      event: 'string',
      mail: { content: 'string', from: 'string', id: 'string', subject: 'string', to: 'string', variables: {} },
      [event]: EMAIL_DETAIL[event],
    });
    expect(body.event).toBe(event);
    expect(g.headers['x-service-signature']).toBe(hmac(KEY, body.mail.id + event));
    expect(g.headers['x-surenotify-signature']).toBeUndefined();
    keyNowhere(g);
    // The answer is printed: status, time, the body.
    expect(r.stdout).toMatch(/^status\t200 OK$/m);
    expect(r.stdout).toMatch(/^time\t\d+ ms$/m);
    expect(r.stdout).toContain('answer\t{"ok":true}');
  });

  it.each([
    ['sms-delivery', [], 'delivery', { point: 'number', srcaddr: 'string', timestamp: 'number' }],
    ['bounce', ['--sms'], 'bounce', { code: 'string', reason: 'string', timestamp: 'number' }],
  ] as const)('SMS %s %j: sms_data shape, signed over sms_data.id + event', async (arg, flags, event, detail) => {
    const r = await runCli(['webhook', 'trigger', arg, ...flags, '--url', consumer.url], { env });
    expect(r.exitCode).toBe(0);
    const g = last();
    const body = JSON.parse(g.raw);
    expect(shape(body)).toEqual({
      event: 'string',
      sms_data: { address: 'string', alive_mins: 'number', content: 'string', country_code: 'string', id: 'string', recipient: 'string', variables: {} },
      [event]: detail,
    });
    expect(body.event).toBe(event);
    expect(g.headers['x-service-signature']).toBe(hmac(KEY, body.sms_data.id + event));
    keyNowhere(g);
  });

  it('what it sends passes `mailctl webhook verify` with the same profile, and fails it with another key', async () => {
    await runCli(['webhook', 'trigger', 'click', '--url', consumer.url], { env });
    const g = last();
    const file = path.join(tempDir(), 'body.json');
    fs.writeFileSync(file, g.raw);
    const sig = String(g.headers['x-service-signature']);
    expect(await runCli(['webhook', 'verify', file, '--signature', sig], { env })).toMatchObject({ exitCode: 0, stdout: 'valid\n' });
    expect((await runCli(['webhook', 'verify', file, '--signature', sig], { env: { MAILCTL_NOTIFY_API_KEY: 'another-key' } })).exitCode).toBe(1);
  });

  it('each trigger has a fresh id; --signature-header x-surenotify-signature uses the other documented name (decisions row 14)', async () => {
    await runCli(['webhook', 'trigger', 'open', '--url', consumer.url], { env });
    const first = JSON.parse(last().raw).mail.id;
    const r = await runCli(['webhook', 'trigger', 'open', '--url', consumer.url, '--signature-header', 'X-Surenotify-Signature'], { env });
    expect(r.exitCode).toBe(0);
    const g = last();
    const body = JSON.parse(g.raw);
    expect(body.mail.id).not.toBe(first);
    expect(g.headers['x-surenotify-signature']).toBe(hmac(KEY, body.mail.id + 'open'));
    expect(g.headers['x-service-signature']).toBeUndefined();
    const bad = await runCli(['webhook', 'trigger', 'open', '--url', consumer.url, '--signature-header', 'x-signature'], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--signature-header must be x-service-signature or x-surenotify-signature');
  });
});

describe('--set overrides', () => {
  it('land at their dotted paths, typed per the spec (numbers for bounce.type and timestamp, text for code and variables), and the signature follows the id', async () => {
    const n = consumer.got.length;
    const r = await runCli([
      'webhook', 'trigger', 'bounce', '--url', consumer.url,
      '--set', 'mail.subject=Hi there', '--set', 'bounce.type=0', '--set', 'bounce.code=452',
      '--set', 'mail.variables.code=042917', '--set', 'bounce.timestamp=2024-05-01T12:00:00Z', '--set', 'mail.id=my-msg-1',
    ], { env });
    expect(r.exitCode).toBe(0);
    expect(consumer.got.length).toBe(n + 1);
    const g = last();
    const body = JSON.parse(g.raw);
    expect(body.mail).toMatchObject({ id: 'my-msg-1', subject: 'Hi there', variables: { code: '042917' } });
    expect(body.bounce).toMatchObject({ type: 0, code: '452', timestamp: Date.parse('2024-05-01T12:00:00Z') });
    expect(g.headers['x-service-signature']).toBe(hmac(KEY, 'my-msg-1bounce'));
  });

  it('SMS numbers (delivery.point, sms_data.alive_mins); FIELD:=JSON sends a value as written; a field the spec lacks is sent with a warning', async () => {
    const r = await runCli([
      'webhook', 'trigger', 'sms-delivery', '--url', consumer.url,
      '--set', 'delivery.point=3', '--set', 'sms_data.alive_mins=60', '--set', 'sms_data.variables:={"name":"Ann","n":1}', '--set', 'extra.note=hello',
    ], { env });
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(last().raw);
    expect(body.delivery.point).toBe(3);
    expect(body.sms_data.alive_mins).toBe(60);
    expect(body.sms_data.variables).toEqual({ name: 'Ann', n: 1 });
    expect(body.extra).toEqual({ note: 'hello' });
    expect(r.stderr).toMatch(/warning: --set extra\.note: the spec's SMS delivery payload has no such field; sent anyway/);
  });

  it('an ISO timestamp without a zone is UTC, as for every date flag (not the machine\'s local time)', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Taipei'; // Node follows a change of TZ at once
    let r;
    try {
      r = await runCli(['webhook', 'trigger', 'delivery', '--url', consumer.url, '--set', 'delivery.timestamp=2024-02-29T08:30'], { env });
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(last().raw).delivery.timestamp).toBe(Date.UTC(2024, 1, 29, 8, 30));
  });

  it.each([
    [['--set', 'bounce.type=permanent'], 'bounce.type is a number in the spec'],
    [['--set', 'mail.subject'], 'is not FIELD=VALUE'],
    [['--set', 'mail.variables=x'], 'mail.variables is an object'],
    [['--set', 'mail.subject.x=1'], 'mail.subject is not an object'],
    [['--set', '__proto__.x=1'], 'cannot be a field name'],
    [['--set', 'mail.variables:={bad'], 'is not JSON'],
    [['--set', 'mail.id:=null'], 'cannot be signed'],
    // Date.parse made these 1 March 2024 and 1 May 2001; the one date parser refuses them.
    [['--set', 'bounce.timestamp=2024-02-30'], '--set bounce.timestamp "2024-02-30" is not a real date and time (February 2024 has 29 days)'],
    [['--set', 'bounce.timestamp=2024-05-01T24:00Z'], 'is not a real date and time (there is no hour 24 (0 to 23))'],
    [['--set', 'bounce.timestamp=May 1'], 'bounce.timestamp is a number (epoch milliseconds) or an ISO date'],
  ])('%j is refused (exit 2) and nothing is sent', async (flags, message) => {
    const n = consumer.got.length;
    const r = await runCli(['webhook', 'trigger', 'bounce', '--url', consumer.url, ...flags], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(consumer.got.length).toBe(n);
  });
});

describe('answers, errors, dry run', () => {
  it('a consumer answering 500 exits 1 with its status and body shown, sanitised and shortened', async () => {
    const c = await startConsumer(() => ({ status: 500, body: `\u001b]0;pwned\u0007 boom ${'x'.repeat(500)}` }));
    try {
      const r = await runCli(['webhook', 'trigger', 'delivery', '--url', c.url], { env });
      expect(r.exitCode).toBe(1);
      expect(c.got).toHaveLength(1);
      expect(r.stdout).toMatch(/^status\t500 Internal Server Error$/m);
      expect(r.stdout).toContain('\\e]0;pwned\\x07 boom');
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout).toContain('more characters');
      expect(r.stderr).toContain('answered HTTP 500, not 2xx');
    } finally {
      await c.close();
    }
  });

  it('a redirect is not followed (exit 1, the location named)', async () => {
    const c = await startConsumer(() => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    try {
      const r = await runCli(['webhook', 'trigger', 'delivery', '--url', c.url], { env });
      expect(r.exitCode).toBe(1);
      expect(c.got).toHaveLength(1);
      expect(r.stderr).toContain('redirect (HTTP 302 to http://127.0.0.1:1/elsewhere)');
    } finally {
      await c.close();
    }
  });

  it('an unreachable consumer exits 4 (NETWORK, not reached)', async () => {
    const port = await unusedPort();
    const r = await runCli(['webhook', 'trigger', 'delivery', '--url', `http://127.0.0.1:${port}/hooks`, '--json'], { env });
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'NETWORK', exitCode: 4 });
    expect(r.stderr).toContain(`Cannot reach the consumer at http://127.0.0.1:${port}/hooks (ECONNREFUSED).`);
    // Refused at connect: nothing reached it, so the hint is about the consumer, not a doubt.
    expect(r.stderr).toContain('Check that it is running and listening on that address and port.');
  });

  it('--json: one document with the payload, the signature and the answer — never the key', async () => {
    const r = await runCli(['webhook', 'trigger', 'complaint', '--url', consumer.url, '--json'], { env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ url: consumer.url, channel: 'email', event: 'complaint', signatureHeader: 'x-service-signature', answer: { status: 200, ok: true, body: '{"ok":true}' } });
    expect(doc.signature).toBe(hmac(KEY, doc.id + 'complaint'));
    expect(JSON.parse(last().raw)).toEqual(doc.payload);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('--dry-run prints the signed request and sends nothing', async () => {
    const n = consumer.got.length;
    const r = await runCli(['webhook', 'trigger', 'click', '--url', consumer.url, '--dry-run', '--set', 'mail.id=dry-1'], { env });
    expect(r.exitCode).toBe(0);
    expect(consumer.got.length).toBe(n);
    expect(r.stdout).toContain(`POST ${consumer.url}`);
    expect(r.stdout).toContain(`x-service-signature: ${hmac(KEY, 'dry-1click')}`);
    expect(r.stdout).toContain('"link_url"');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it.each([
    [['sms-open'], 'email-only event'],
    [['click', '--sms'], 'email-only event'],
    [['unsubscribe'], 'is not a webhook event'],
    [['constructor'], 'is not a webhook event'], // a name every object has, not an event
    [['__proto__', '--url', 'http://127.0.0.1:1/'], 'is not a webhook event'],
    [['delivery'], 'No consumer URL'],
    [['delivery', '--url', 'ftp://127.0.0.1/x'], '--url "ftp://127.0.0.1/x" must start with https:// or http://'],
  ])('%j: usage error (exit 2)', async (args, message) => {
    const r = await runCli(['webhook', 'trigger', ...args], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('without a notification key: exit 3, nothing sent', async () => {
    const n = consumer.got.length;
    const r = await runCli(['webhook', 'trigger', 'delivery', '--url', consumer.url]);
    expect(r.exitCode).toBe(3);
    expect(consumer.got.length).toBe(n);
  });

  it('the --help examples work against a fresh --sandbox', async () => {
    const help = (await runCli(['webhook', 'trigger', '--help'])).stdout;
    const examples = sandboxExamples(help);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const argv of examples) {
      const r = await runCli(argv);
      expect(r.exitCode, `${argv.join(' ')}\n${r.stderr}`).toBe(0);
      // The spec's header, or the vendor's under --form vendor (decisions row 27).
      expect(r.stdout).toContain(argv.includes('vendor') ? 'x-surenotify-signature: ' : 'x-service-signature: ');
    }
  });
});

describe('the same shape and signature as the sandbox\'s deliveries', () => {
  const sb = useSandbox({
    expect: [
      'POST /notify/v1/messages',
      'POST /notify/v1/sms/messages',
      'POST /notify/v1/sms/webhooks',
      'POST /notify/v1/webhooks',
    ],
  });
  const api = notifyApi(sb.get);

  it('for every email and SMS event: identical structure, the same header, both verify with the notification key', async () => {
    const hooks = await startConsumer();
    try {
      for (const type of [3, 4, 5, 6, 7]) await api('POST', '/v1/webhooks', { type, url: `${hooks.url}/email` });
      for (const type of [3, 6]) await api('POST', '/v1/sms/webhooks', { type, url: `${hooks.url}/sms` });
      const sent = await api('POST', '/v1/messages', {
        subject: 'Hello', fromAddress: 'noreply@example.com', content: '<a href="https://example.com/x">x</a>',
        recipients: [{ address: 'hard-bounce@example.org' }, { address: 'complain@example.org' }, { address: 'click@example.org' }],
      });
      expect(sent.status).toBe(200);
      const sms = await api('POST', '/v1/sms/messages', { content: '【Shop】hi', recipients: [{ address: '0912345678', country_code: '886' }, { address: '0912340000', country_code: '886' }] });
      expect(sms.status).toBe(200);
      const want = ['email:delivery', 'email:open', 'email:click', 'email:bounce', 'email:complaint', 'sms:delivery', 'sms:bounce'];
      const byKind = (g: Got) => `${g.path.endsWith('/sms') ? 'sms' : 'email'}:${JSON.parse(g.raw).event}`;
      await until('a sandbox delivery of every kind', () => want.every((k) => hooks.got.some((g) => byKind(g) === k)));

      for (const kind of want) {
        const [channel, event] = kind.split(':');
        const service = hooks.got.find((g) => byKind(g) === kind)!;
        const r = await runCli(['webhook', 'trigger', channel === 'sms' ? `sms-${event}` : event, '--url', consumer.url], { sandbox: sb.get() });
        expect(r.exitCode, r.stderr).toBe(0);
        const ours = last();
        const [a, b] = [JSON.parse(service.raw), JSON.parse(ours.raw)];
        expect(shape(b), kind).toEqual(shape(a));
        const id = (p: any) => (channel === 'sms' ? p.sms_data.id : p.mail.id);
        expect(Object.keys(ours.headers)).toContain('x-service-signature');
        expect(service.headers['x-service-signature']).toBe(hmac(SANDBOX_KEYS.notify, id(a) + event));
        expect(ours.headers['x-service-signature']).toBe(hmac(SANDBOX_KEYS.notify, id(b) + event));
        keyNowhere(ours, SANDBOX_KEYS.notify);
      }
    } finally {
      await hooks.close();
    }
  });
});
