// The sandbox's SMS send (decisions row 3), SMS event lookup and exclusive numbers, against spec 001
// sections 2, 4 and 8. The clock can be moved forward to test the 30-day window.
import { describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { systemClock } from '../src/core/clock.js';
import { useSandbox } from './helpers/sandbox.js';
import { eventually, notifyApi } from './helpers/notify-api.js';

const DAY = 24 * 3600_000;
let offset = 0;
const sb = useSandbox({
  clock: { now: () => Date.now() + offset, sleep: systemClock.sleep },
  expect: [
    'GET /campaign/v1/balance',
    'GET /notify/v1/sms/events',
    'GET /notify/v1/sms/exclusive-number',
    'POST /notify/v1/sms/messages',
  ],
});
const api = notifyApi(sb.get);
const iso = (t: number) => new Date(t).toISOString();

const sms = (recipients: unknown[], extra: Record<string, unknown> = {}) => api('POST', '/v1/sms/messages', { content: '【Shop】Your code is {{code}}', recipients, ...extra });
const lookup = async (q: string) => {
  const r = await api('GET', `/v1/sms/events?${q}`);
  expect(r.status).toBe(200);
  return r.body.logs as any[];
};

describe('POST /v1/sms/messages', () => {
  it('answers like email send, {id, success:[{id, address}], failure:{}}, refusing numbers with non-digits and codes that are no calling code (decisions row 24)', async () => {
    const r = await sms([
      { address: '0912000001', country_code: '886', variables: { code: '1234' } },
      { address: '0912-000-002', country_code: '886' },
      { address: '0912000003', country_code: '999' },
      { address: '912000004', country_code: '+886' },
    ]);
    expect(r.status).toBe(200);
    expect(typeof r.body.id).toBe('string');
    expect(r.body.success.map((s: any) => s.address)).toEqual(['0912000001', '912000004']);
    expect(Object.keys(r.body.failure)).toEqual(['0912-000-002', '0912000003']);
    for (const reason of Object.values(r.body.failure)) expect(reason).toMatch(/^Invalid: /);
  });

  it('"Invalid: the value of recipient variables should under 100 characters" applies to SMS recipients too', async () => {
    const r = await sms([{ address: '0912000005', country_code: '886', variables: { code: 'z'.repeat(101) } }]);
    expect(r.body.failure).toEqual({ '0912000005': 'Invalid: the value of recipient variables should under 100 characters' });
  });

  it('at most 100 recipients per request (decisions row 3); content is required → 400 {errors}', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ address: `09120${String(i).padStart(5, '0')}`, country_code: '886' }));
    for (const r of [await sms(many), await api('POST', '/v1/sms/messages', { recipients: many.slice(0, 1) })]) {
      expect(r.status).toBe(400);
      expect(typeof r.body.errors).toBe('string');
    }
  });

  it('"alive_mins 5 to 480 minutes; default is the minimum (5); values outside the range are clamped to the nearest bound"', async () => {
    const cases: Array<[unknown, number]> = [[undefined, 5], [1, 5], [60, 60], [999, 480]];
    for (const [given, want] of cases) {
      const r = await sms([{ address: '0933000001', country_code: '886' }], given === undefined ? {} : { alive_mins: given });
      const [accept] = await lookup(`id=${r.body.success[0].id}&status=accept`);
      expect(accept.alive_mins).toBe(want);
    }
    expect((await sms([{ address: '0933000001', country_code: '886' }], { alive_mins: 'soon' })).status).toBe(400);
  });

  it('takes the billed units off the shared account\'s SMS balance', async () => {
    const balance = async () => ((await (await fetch(`${sb.get().campaignUrl}/v1/balance`, { headers: { 'x-api-key': SANDBOX_KEYS.campaign } })).json()) as { sms: number }).sms;
    const before = await balance();
    await sms([{ address: '0933000002', country_code: '886' }, { address: '0933000003', country_code: '886' }]);
    expect(await balance()).toBe(before - 2);
  });
});

describe('GET /v1/sms/events', () => {
  it('records accept then delivery (rawEvent {point, srcaddr}) or bounce (rawEvent {code, reason}) with the log entry fields of section 2', async () => {
    const r = await sms([{ address: '0944000001', country_code: '886', variables: { code: '42' } }, { address: '0944000000', country_code: '886' }]);
    const [ok, bounced] = r.body.success.map((s: any) => s.id);
    const okLogs = await eventually(async () => { const l = await lookup(`id=${ok}`); return l.length === 2 && l; }, 'the delivery');
    expect(okLogs[1]).toEqual({
      messageId: ok, recipient: '886944000001', address: '0944000001', countryCode: '886', status: 'delivery', content: '【Shop】Your code is 42',
      eventTime: expect.any(String), alive_mins: 5, variables: { code: '42' }, rawEvent: { point: 1, srcaddr: '0911000111' },
    });
    const bounceLogs = await eventually(async () => { const l = await lookup(`id=${bounced}`); return l.length === 2 && l; }, 'the bounce');
    expect(bounceLogs.map((l) => l.status)).toEqual(['accept', 'bounce']);
    expect(bounceLogs[1].rawEvent).toEqual({ code: expect.any(String), reason: expect.any(String) });
  });

  it('"When id and recipient are both given, id wins"; recipient is the national form and needs country_code', async () => {
    const a = (await sms([{ address: '0955000001', country_code: '886' }])).body.success[0].id;
    const b = (await sms([{ address: '0955000002', country_code: '886' }])).body.success[0].id;
    const both = await lookup(`id=${a}&recipient=0955000002&country_code=886&status=accept`);
    expect(both.map((l) => l.messageId)).toEqual([a]);
    expect((await lookup('recipient=0955000002&country_code=886&status=accept')).map((l) => l.messageId)).toEqual([b]);
    expect(await lookup('recipient=0955000002&country_code=81')).toEqual([]);
    for (const q of ['recipient=0955000002', '', 'id=x&status=open', 'id=x&from=not-a-date']) {
      const r = await api('GET', `/v1/sms/events?${q}`);
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
  });

  it('"at most the first 50 rows returned"', async () => {
    const same = Array.from({ length: 30 }, () => ({ address: '0966000001', country_code: '886' }));
    await sms(same);
    await eventually(async () => (await lookup('recipient=0966000001&country_code=886&status=delivery')).length === 30, 'thirty deliveries');
    const all = await lookup('recipient=0966000001&country_code=886');
    expect(all).toHaveLength(50);
    expect(all.slice(0, 30).every((l) => l.status === 'accept')).toBe(true);
  });

  it('from/to defaults: "one month before to" and "one month after from"; "only the last 30 days"', async () => {
    const id = (await sms([{ address: '0977000001', country_code: '886' }])).body.success[0].id;
    const now = Date.now() + offset;
    expect(await lookup(`id=${id}&to=${iso(now - 2 * DAY)}`)).toEqual([]); // window ends before the send
    expect(await lookup(`id=${id}&from=${iso(now - 20 * DAY)}&status=accept`)).toHaveLength(1); // 20 days back + 1 month covers now
    expect(await lookup(`id=${id}&from=${iso(now - 45 * DAY)}`)).toEqual([]); // 45 days back + 1 month ends two weeks ago
    expect(await lookup(`id=${id}&to=${iso(now + 20 * DAY)}&status=accept`)).toHaveLength(1); // 1 month before covers now
    offset += 31 * DAY;
    expect(await lookup(`id=${id}&from=${iso(now - DAY)}&to=${iso(now + 40 * DAY)}`)).toEqual([]);
  });
});

describe('GET /v1/sms/exclusive-number', () => {
  it('200: "phoneNumbers array of {phoneNumber, createDate, updateDate}"', async () => {
    const r = await api('GET', '/v1/sms/exclusive-number');
    expect(r.status).toBe(200);
    expect(r.body.phoneNumbers.length).toBeGreaterThan(0);
    for (const n of r.body.phoneNumbers) expect(n).toEqual({ phoneNumber: expect.stringMatching(/^\d+$/), createDate: expect.any(String), updateDate: expect.any(String) });
  });
});
