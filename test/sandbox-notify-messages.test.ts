// The sandbox's email send and event lookup, against spec 001 sections 4, 7 and 8.
import { describe, expect, it } from 'vitest';
import { SANDBOX_BASE, SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { inProcessSandboxFetch } from '../src/sandbox/inprocess.js';
import { useSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/cli.js';
import { eventually, notifyApi } from './helpers/notify-api.js';

const sb = useSandbox({ expect: ['GET /notify/v1/events', 'POST /notify/v1/messages'] });
const api = notifyApi(sb.get);

const mail = (recipients: unknown[], extra: Record<string, unknown> = {}) => ({
  subject: 'Hello {{name}}', fromAddress: 'noreply@example.com', content: '<p>Hi {{name}}</p><a href="https://shop.example.com/cart?u={{name}}">cart</a>', recipients, ...extra,
});

async function logsOf(query: string): Promise<any[]> {
  const r = await api('GET', `/v1/events?${query}`);
  expect(r.status).toBe(200);
  return r.body.logs;
}

describe('POST /v1/messages', () => {
  it('"A missing or wrong key returns {"message": "Forbidden"}"', async () => {
    const r = await notifyApi(sb.get, 'wrong-key')('POST', '/v1/messages', mail([{ address: 'a@example.org' }]));
    expect(r).toEqual({ status: 403, body: { message: 'Forbidden' } });
  });

  it('lists per-recipient problems in `failure` with the spec\'s reasons verbatim and still sends the valid ones', async () => {
    const r = await api('POST', '/v1/messages', mail([
      { name: 'Ann', address: 'ann@example.org', variables: { name: 'Ann' } },
      { address: 'not-an-address' },
      { address: 'long@example.org', variables: { name: 'x'.repeat(101) } },
      { address: 'hundred@example.org', variables: { name: 'y'.repeat(100) } },
    ]));
    expect(r.status).toBe(200);
    expect(typeof r.body.id).toBe('string');
    expect(r.body.success.map((s: any) => s.address)).toEqual(['ann@example.org', 'hundred@example.org']);
    for (const s of r.body.success) expect(s.id).toMatch(/\S/);
    expect(r.body.failure).toEqual({
      'not-an-address': 'Invalid: address is not a valid email format',
      'long@example.org': 'Invalid: the value of recipient variables should under 100 characters',
    });
  });

  it('refuses a variable name starting with a digit or holding an expression (sandbox reading of "must not start with a digit"), per recipient', async () => {
    const r = await api('POST', '/v1/messages', mail([
      { address: 'a@example.org', variables: { '1st': 'x' } },
      { address: 'b@example.org', variables: { 'a+b': 'x' } },
      { address: 'c@example.org', variables: { code: '042917' } },
    ]));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.failure)).toEqual(['a@example.org', 'b@example.org']);
    expect(r.body.failure['a@example.org']).toMatch(/^Invalid: /);
    expect(r.body.success.map((s: any) => s.address)).toEqual(['c@example.org']);
  });

  it('"recipients … at most 100 per request": 100 are sent, 101 are refused with 400 {errors}', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ address: `quiet${i}@example.org` }));
    const ok = await api('POST', '/v1/messages', mail(many(100)));
    expect(ok.status).toBe(200);
    expect(ok.body.success).toHaveLength(100);
    const over = await api('POST', '/v1/messages', mail(many(101)));
    expect(over.status).toBe(400);
    expect(typeof over.body.errors).toBe('string');
  });

  it('"400: errors string (example: sender domain unverified)"', async () => {
    const r = await api('POST', '/v1/messages', mail([{ address: 'a@example.org' }], { fromAddress: 'news@unverified.example.net' }));
    expect(r.status).toBe(400);
    expect(r.body.errors).toMatch(/unverified\.example\.net.*not verified/);
  });

  it('refuses missing required fields (subject*, fromAddress*, content*, recipients*) and a body that is not JSON with 400 {errors}', async () => {
    for (const body of [{ ...mail([{ address: 'a@example.org' }]), subject: undefined }, { ...mail([]) }, { ...mail([{ address: 'a@example.org' }]), content: '' }, 'not json{']) {
      const r = await api('POST', '/v1/messages', body);
      expect(r.status).toBe(400);
      expect(typeof r.body.errors).toBe('string');
    }
  });
});

describe('GET /v1/events', () => {
  it('shows a bounce after the delivery ("a delivery event may be followed by a bounce event") with rawEvent {code, type, reason}', async () => {
    const sent = await api('POST', '/v1/messages', mail([{ address: 'bounce@example.org', variables: { name: 'B' } }]));
    const id = sent.body.success[0].id;
    const logs = await eventually(async () => { const l = await logsOf(`id=${id}`); return l.length === 3 && l; }, 'the bounce');
    expect(logs.map((l) => l.status)).toEqual(['accept', 'delivery', 'bounce']);
    expect(logs[0].rawEvent).toEqual({});
    expect(logs[2].rawEvent).toMatchObject({ code: '550', type: '1' });
    expect(typeof logs[2].rawEvent.reason).toBe('string');
    expect(logs[2]).toMatchObject({ messageId: id, mail: { subject: 'Hello B', from: 'noreply@example.com', to: 'bounce@example.org', variables: { name: 'B' } } });
    expect(Date.parse(logs[2].eventTime)).toBeGreaterThanOrEqual(Date.parse(logs[1].eventTime));
  });

  it('a soft bounce is type "0" (temporary); a retry comes before the delivery', async () => {
    const sent = await api('POST', '/v1/messages', mail([{ address: 'soft@example.org' }]));
    const logs = await eventually(async () => { const l = await logsOf(`id=${sent.body.success[0].id}`); return l.length === 4 && l; }, 'the soft bounce');
    expect(logs.map((l) => l.status)).toEqual(['accept', 'retry', 'delivery', 'bounce']);
    expect(logs[3].rawEvent.type).toBe('0');
  });

  it('open has rawEvent {clientHeaders}; click {sort, linkUrl, clientHeaders} with variable values URL-encoded in the link', async () => {
    const sent = await api('POST', '/v1/messages', mail([{ address: 'click@example.org', variables: { name: 'A&B' } }]));
    const logs = await eventually(async () => { const l = await logsOf(`id=${sent.body.success[0].id}&status=open,click`); return l.length === 2 && l; }, 'open and click');
    expect(logs[0]).toMatchObject({ status: 'open', rawEvent: { clientHeaders: expect.any(String) } });
    expect(logs[1]).toMatchObject({ status: 'click', rawEvent: { sort: '0', linkUrl: 'https://shop.example.com/cart?u=A%26B', clientHeaders: expect.any(String) } });
  });

  it('uses the local part of fromAddress when fromName is absent (shown as mail.sender)', async () => {
    const sent = await api('POST', '/v1/messages', mail([{ address: 'quiet-sender@example.org' }], { fromAddress: 'alerts@example.com' }));
    const [accept] = await logsOf(`id=${sent.body.success[0].id}&status=accept`);
    expect(accept.mail).toMatchObject({ from: 'alerts@example.com', sender: 'alerts' });
  });

  it('filters by recipient, status and a from/to range', async () => {
    const sent = await api('POST', '/v1/messages', mail([{ address: 'Complain@Example.org' }]));
    const id = sent.body.success[0].id;
    await eventually(async () => (await logsOf(`id=${id}&status=complaint`)).length === 1, 'the complaint');
    const mine = await logsOf('recipient=complain@example.org');
    expect(mine.map((l) => l.status)).toEqual(['accept', 'delivery', 'open', 'complaint']);
    const deliveries = await logsOf('recipient=complain@example.org&status=delivery,complaint');
    expect(deliveries.map((l) => l.status)).toEqual(['delivery', 'complaint']);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await logsOf(`recipient=complain@example.org&from=${future}`)).toEqual([]);
    expect(await logsOf(`recipient=complain@example.org&to=2020-01-01T00:00:00Z`)).toEqual([]);
  });

  it('"400: error string" for an unknown status or a date that is not ISO 8601', async () => {
    for (const q of ['status=delivered', 'from=yesterday', 'to=2024-13-45T00:00:00Z']) {
      const r = await api('GET', `/v1/events?${q}`);
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
  });
});

describe('--sandbox persistence', () => {
  it('a history started in one CLI run keeps unfolding in the next (state is saved as JSON between runs)', async () => {
    const dir = tempDir();
    let skew = 0; // the default 1.5 s steps pass at once when the clock is moved on
    const clock = { now: () => Date.now() + skew, sleep: async () => {} };
    const call = async (path: string, body?: unknown) => {
      // A fresh in-process sandbox per call, as each mailctl invocation loads it anew.
      const f = inProcessSandboxFetch(dir, clock);
      const res = await f(`${SANDBOX_BASE}/notify${path}`, { method: body ? 'POST' : 'GET', headers: { 'x-api-key': SANDBOX_KEYS.notify, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return res.json() as Promise<any>;
    };
    const sent = await call('/v1/messages', mail([{ address: 'open@example.org' }]));
    const id = sent.success[0].id;
    expect((await call(`/v1/events?id=${id}`)).logs.map((l: any) => l.status)).toEqual(['accept']);
    skew += 60_000;
    const logs = (await call(`/v1/events?id=${id}`)).logs;
    expect(logs.map((l: any) => l.status)).toEqual(['accept', 'delivery', 'open']);
  });
});
