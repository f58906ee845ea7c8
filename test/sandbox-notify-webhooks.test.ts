// The sandbox's webhook registration and signed deliveries, against spec 001 sections 4–6
// and decisions row 14 (x-service-signature = hex HMAC-SHA256(id + event), notification key).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { useSandbox } from './helpers/sandbox.js';
import { eventually, notifyApi, startReceiver } from './helpers/notify-api.js';

const sb = useSandbox({
  expect: [
    'POST /notify/v1/messages',
    'POST /notify/v1/sms/messages',
    'DELETE /notify/v1/sms/webhooks',
    'GET /notify/v1/sms/webhooks',
    'POST /notify/v1/sms/webhooks',
    'DELETE /notify/v1/webhooks',
    'GET /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
  ],
});
const api = notifyApi(sb.get);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => { receiver = await startReceiver(); });
afterAll(async () => { await receiver.close(); });

/** Verifies as a user's endpoint would: independently of the sandbox's code. */
function signatureOk(id: string, event: string, header: unknown): boolean {
  const want = crypto.createHmac('sha256', SANDBOX_KEYS.notify).update(id + event).digest('hex');
  return typeof header === 'string' && header.length === want.length && crypto.timingSafeEqual(Buffer.from(header), Buffer.from(want));
}

describe('email webhooks: POST/GET/DELETE /v1/webhooks', () => {
  it('"If no record for the type exists it is created, otherwise replaced"; the listing is a list of {type, domain, url, createDate}', async () => {
    expect(await api('POST', '/v1/webhooks', { type: 4, url: 'http://127.0.0.1:1/first' })).toEqual({ status: 200, body: { success: true } });
    expect(await api('POST', '/v1/webhooks', { type: 4, url: 'http://127.0.0.1:1/second' })).toEqual({ status: 200, body: { success: true } });
    const list = await api('GET', '/v1/webhooks');
    expect(list.status).toBe(200);
    const opens = list.body.filter((w: any) => w.type === 4);
    expect(opens).toEqual([{ type: 4, domain: '127.0.0.1', url: 'http://127.0.0.1:1/second', createDate: expect.any(String) }]);
    expect(await api('DELETE', '/v1/webhooks', { type: 4 })).toEqual({ status: 200, body: { success: true } });
    expect((await api('GET', '/v1/webhooks')).body.some((w: any) => w.type === 4)).toBe(false);
  });

  it('"webhook registration invalid type → 400 {success: false, messages: [...]}" (types are 3 to 7)', async () => {
    for (const type of [2, 8, '3', undefined]) {
      const r = await api('POST', '/v1/webhooks', { type, url: 'http://127.0.0.1:1/x' });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.messages.length).toBeGreaterThan(0);
    }
  });

  it('"webhook deletion failure → 500 {success: false}" when nothing is registered for the type', async () => {
    expect(await api('DELETE', '/v1/webhooks', { type: 7 })).toEqual({ status: 500, body: { success: false } });
  });
});

describe('SMS webhooks: /v1/sms/webhooks (decisions row 4)', () => {
  it('accepts only types 3 and 6 ("SMS supports only types 3 and 6"), failure reasons in `message`', async () => {
    for (const type of [4, 5, 7]) {
      const r = await api('POST', '/v1/sms/webhooks', { type, url: 'http://127.0.0.1:1/sms' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, message: [expect.any(String)] });
    }
    expect(await api('POST', '/v1/sms/webhooks', { type: 6, url: 'http://127.0.0.1:1/a' })).toEqual({ status: 200, body: { success: true } });
    expect(await api('POST', '/v1/sms/webhooks', { type: 6, url: 'http://127.0.0.1:1/b' })).toEqual({ status: 200, body: { success: true } });
    const list = (await api('GET', '/v1/sms/webhooks')).body;
    expect(list).toEqual([{ type: 6, domain: '127.0.0.1', url: 'http://127.0.0.1:1/b', createDate: expect.any(String) }]);
    expect(await api('DELETE', '/v1/sms/webhooks', { type: 6 })).toEqual({ status: 200, body: { success: true } });
    expect(await api('DELETE', '/v1/sms/webhooks', { type: 6 })).toEqual({ status: 500, body: { success: false } });
  });
});

describe('signed deliveries (spec section 6)', () => {
  it('POSTs each email event to the webhook of its type, signed over mail.id + event, with no x-api-key', async () => {
    for (const type of [3, 5, 6]) await api('POST', '/v1/webhooks', { type, url: `${receiver.url}/email/${type}` });
    const sent = await api('POST', '/v1/messages', {
      subject: 'Reset', fromAddress: 'noreply@example.com', content: '<a href="https://example.com/r?t={{t}}">reset</a>',
      recipients: [{ address: 'hard-bounce@example.org', variables: { t: 'a b' } }, { address: 'clicker@example.org', variables: { t: 'a b' } }],
    });
    const [bounced, clicked] = sent.body.success.map((s: any) => s.id);
    const got = await eventually(() => {
      const email = receiver.received.filter((r) => r.path.startsWith('/email/'));
      return email.length >= 4 && email;
    }, 'four email webhooks');
    for (const r of got) {
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(signatureOk(r.body.mail.id, r.body.event, r.headers['x-service-signature'])).toBe(true);
    }
    const of = (id: string, event: string) => got.find((r) => r.body.mail.id === id && r.body.event === event)!;
    expect(of(bounced, 'delivery').path).toBe('/email/3');
    const bounce = of(bounced, 'bounce');
    expect(bounce.path).toBe('/email/6');
    expect(bounce.body).toEqual({
      event: 'bounce',
      mail: { id: bounced, subject: 'Reset', content: '<a href="https://example.com/r?t=a b">reset</a>', from: 'noreply@example.com', to: 'hard-bounce@example.org', variables: { t: 'a b' } },
      bounce: { timestamp: expect.any(Number), code: '550', type: 1, reason: expect.any(String) },
    });
    const click = of(clicked, 'click');
    expect(click.path).toBe('/email/5');
    expect(click.body.click).toEqual({ timestamp: expect.any(Number), sort: '0', link_url: 'https://example.com/r?t=a%20b', client_headers: expect.any(String) });
    // No open webhook is registered (type 4), so opens are not POSTed.
    expect(got.some((r) => r.body.event === 'open')).toBe(false);
    // A signature over another event does not verify.
    expect(signatureOk(bounce.body.mail.id, 'delivery', bounce.headers['x-service-signature'])).toBe(false);
  });

  it('POSTs the SMS delivery after alive_mins, signed over sms_data.id + event', async () => {
    await api('POST', '/v1/sms/webhooks', { type: 3, url: `${receiver.url}/sms/3` });
    const sent = await api('POST', '/v1/sms/messages', { content: '【Shop】Code {{code}}', recipients: [{ address: '0912345678', country_code: '886', variables: { code: '042917' } }] });
    expect(sent.status).toBe(200);
    const id = sent.body.success[0].id;
    const r = await eventually(() => receiver.received.find((x) => x.path === '/sms/3' && x.body.sms_data.id === id), 'the SMS delivery webhook');
    expect(r.headers['x-api-key']).toBeUndefined();
    expect(signatureOk(id, 'delivery', r.headers['x-service-signature'])).toBe(true);
    expect(r.body).toEqual({
      event: 'delivery',
      sms_data: { id, content: '【Shop】Code 042917', recipient: '886912345678', address: '0912345678', country_code: '886', variables: { code: '042917' }, alive_mins: 5 },
      delivery: { timestamp: expect.any(Number), point: 1, srcaddr: expect.any(String) },
    });
  });
});
