// The sandbox's report endpoints (spec 000, 14–17), on a sandbox with a clock the test moves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from './helpers/sandbox.js';
import { abBody, campaignApi, campaignBody, emails, groupWith, pollUntil, statusOf, GROUP_SETUP } from './helpers/campaign-api.js';
import type { RunningSandbox } from '../src/sandbox/server.js';

const DAY = 86_400_000;
const START = Date.parse('2026-10-01T09:00:00Z');
let now = START;
let running: RunningSandbox;
const api = campaignApi(() => running);

/** Lets sandbox time pass and has the sandbox notice (any request advances its state). */
async function pass(ms: number) {
  now += ms;
  await running.sandbox.tick();
}

async function sent(body: unknown, path = '/v1/campaign/normal/submit'): Promise<string> {
  const r = await api.post(path, body);
  expect(r.status).toBe(200);
  await pass(60_000);
  expect(await statusOf(api, r.json.sn)).toBe('COMPLETE');
  return r.json.sn;
}

let group: string;
const campaigns: string[] = []; // campaigns[i] was sent on day i (2026-10-01 + i days)
let ab: string;

beforeAll(async () => {
  running = await startTestSandbox({
    clock: { now: () => now, sleep: async () => {} },
    limits: { exportEvery10s: true },
    // Setting up a group and sent campaigns, then the report endpoints and their download links.
    expect: [
      ...GROUP_SETUP,
      'POST /campaign/v1/campaign/normal/submit',
      'POST /campaign/v1/campaign/testing/submit',
      'GET /campaign/v1/campaign/normal/:sn',
      'GET /campaign/v1/report/campaigns',
      'POST /campaign/v1/report/campaigns/metrics',
      'POST /campaign/v1/report/:sn/export',
      'GET /campaign/v1/report/:sn/link',
      'GET /files/d/:token',
    ],
  });
  group = await groupWith(api, [], 'Readers');
  const contacts = ['EMAIL,NAME', ...emails(200, 'rep').map((e) => `${e},Reader`)].join('\n');
  const imp = (await api.post(`/v1/contacts/imports/${group}/text`, { contacts })).json.importSn;
  // The import finishes once its processing time has passed on the sandbox clock.
  await pass(1000);
  await pollUntil(() => api.get(`/v1/contacts/imports/result/${imp}`), (r) => r.json.status === 'COMPLETE');
  for (let i = 0; i < 12; i++) {
    now = START + i * DAY;
    const b = campaignBody([group]);
    b.form.name = `Day ${i}`;
    campaigns.push(await sent(b));
  }
  now = START + 12 * DAY;
  const b = abBody([group], 30);
  b.config.ga = { enable: true, ecommerceEnable: true, utmCampaign: 'autumn', utmContent: 'ab' };
  ab = await sent(b, '/v1/campaign/testing/submit');
}, 30_000);
afterAll(() => running.close());

describe('14. GET /v1/report/campaigns', () => {
  const names = async (q: string) => (await api.get(`/v1/report/campaigns${q}`)).json.map((c: { sn: string }) => c.sn);

  it('"Without dates: the 10 most recent finished campaigns" (newest first); unfinished ones never appear', async () => {
    const pending = campaignBody([group]);
    pending.config.schedule = { type: 1, scheduleDate: new Date(now + DAY).toISOString() };
    await api.post('/v1/campaign/normal/submit', pending);
    const r = await api.get('/v1/report/campaigns');
    expect(r.json).toHaveLength(10);
    expect(r.json.map((c: { sn: string }) => c.sn)).toEqual([ab, ...campaigns.slice(3).reverse()]);
    expect(Object.keys(r.json[0]).sort()).toEqual(['name', 'sentBeginDate', 'sentEndDate', 'sn']);
  });

  it('"Both dates: all finished campaigns in the range"; a date-only endDate covers its day', async () => {
    expect(await names('?startDate=2026-10-02T00:00:00Z&endDate=2026-10-04T23:59:59Z')).toEqual([campaigns[3], campaigns[2], campaigns[1]]);
    expect(await names('?startDate=2026-10-01&endDate=2026-10-12')).toEqual(campaigns.slice().reverse());
  });

  it('"Only one date: treated as an invalid range, same result as no dates" (also start after end)', async () => {
    const none = await names('');
    expect(await names('?startDate=2026-10-02T00:00:00Z')).toEqual(none);
    expect(await names('?endDate=2026-10-04T00:00:00Z')).toEqual(none);
    expect(await names('?startDate=2026-10-05T00:00:00Z&endDate=2026-10-01T00:00:00Z')).toEqual(none);
  });
});

describe('15. POST /v1/report/campaigns/metrics', () => {
  it('"One campaign yields one TOTAL item; A/B campaigns add TEST_A, TEST_B, WINNING items"', async () => {
    const r = await api.post('/v1/report/campaigns/metrics', { campaignSns: [campaigns[0], ab] });
    expect(r.json.map((m: { campaignSn: string; reportType: string }) => `${m.campaignSn === ab ? 'ab' : 'one'}:${m.reportType}`)).toEqual([
      'one:TOTAL', 'ab:TOTAL', 'ab:TEST_A', 'ab:TEST_B', 'ab:WINNING',
    ]);
    const [one, total, a, b, win] = r.json;
    expect(one).toMatchObject({ campaignSn: campaigns[0], name: 'Day 0', channel: 'MAIL', subject: 'Hello ${NAME}', reportType: 'TOTAL' });
    expect(one.sentStartAt).toMatch(/^2026\/10\/01 \d\d:\d\d:\d\d$/); // "format yyyy/MM/dd HH:mm:ss"
    for (const m of r.json) {
      expect(m.delivered + m.bounced).toBe(m.recipientCnt);
      expect(m.opened).toBeLessThanOrEqual(m.delivered);
      expect(m.clicked).toBeLessThanOrEqual(m.opened);
    }
    expect(one.transactions).toBeUndefined(); // "only if integrated and the account has the e-commerce permission"
    expect(total.transactions).toEqual(expect.any(Number));
    expect(a.recipientCnt + b.recipientCnt).toBe(Math.floor((total.recipientCnt * 30) / 100));
    expect(a.recipientCnt + b.recipientCnt + win.recipientCnt).toBe(total.recipientCnt);
    expect([a.subject, b.subject]).toEqual(['Version A', 'Version B']);
    expect(['Version A', 'Version B']).toContain(win.subject);
    // The numbers are the same on every call.
    expect((await api.post('/v1/report/campaigns/metrics', { campaignSns: [campaigns[0], ab] })).json).toEqual(r.json);
  });

  it('"report endpoints, invalid campaign code → 403 code 40303, message bad operation with invalid user state"', async () => {
    expect(await api.post('/v1/report/campaigns/metrics', { campaignSns: [campaigns[0], 'CPnope'] })).toMatchObject({
      status: 403, json: { code: '40303', message: 'bad operation with invalid user state' },
    });
  });
});

describe('16/17. export and links', () => {
  let hookServer: http.Server;
  const hooks: unknown[] = [];
  beforeAll(async () => {
    hookServer = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c)).on('end', () => (hooks.push(JSON.parse(b)), res.end()));
    });
    await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  });
  afterAll(() => hookServer.close());

  it('export → files after a while: "{Reports:[{reportType, link, createdDate}]}" with six CSV files; the webhook gets the same body', async () => {
    const sn = campaigns[11];
    expect((await api.get(`/v1/report/${sn}/link`)).json).toEqual({ Reports: [] });
    const webhookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/done`;
    expect((await api.post(`/v1/report/${sn}/export`, { webhookUrl })).status).toBe(200);
    expect((await api.get(`/v1/report/${sn}/link`)).json).toEqual({ Reports: [] });
    await pass(1000);
    const links = (await pollUntil(() => api.get(`/v1/report/${sn}/link`), (r) => r.json.Reports.length > 0)).json;
    expect(links.Reports.map((l: { reportType: string }) => l.reportType)).toEqual(['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain']);
    const [metrics] = (await api.post('/v1/report/campaigns/metrics', { campaignSns: [sn] })).json;
    const rows: Record<string, string[][]> = {};
    for (const l of links.Reports) {
      const res = await fetch(l.link); // download links need no key
      expect(res.status).toBe(200);
      rows[l.reportType] = parse(await res.text());
    }
    expect(rows.delivery[0]).toEqual(['EMAIL', 'NAME', 'VERSION', 'SENT_AT', 'STATUS']);
    expect(rows.delivery.length - 1).toBe(metrics.recipientCnt);
    expect(rows.open.length - 1).toBe(metrics.opened);
    expect(rows.click.length - 1).toBe(metrics.clicked);
    expect(rows.bounce.length - 1).toBe(metrics.bounced);
    expect(rows.unsubscribe.length - 1).toBe(metrics.unsubscribed);
    expect(rows.complain.length - 1).toBe(metrics.complained);
    expect(rows.open[1][0]).toMatch(/^rep\d+@example\.org$/);
    await pollUntil(async () => hooks.length, (n) => n === 1);
    expect(hooks[0]).toEqual(links);
  });

  it('"export: 1 request per 10 seconds" → 429 too many requests; "Repeated calls for the same campaign within 1 hour are ignored"', async () => {
    const sn = campaigns[11];
    await pass(10_000);
    const before = (await api.get(`/v1/report/${sn}/link`)).json;
    expect((await api.post(`/v1/report/${sn}/export`, {})).status).toBe(200);
    expect(await api.post(`/v1/report/${campaigns[10]}/export`, {})).toMatchObject({ status: 429, json: { message: 'too many requests' } });
    await pass(1000);
    expect((await api.get(`/v1/report/${sn}/link`)).json).toEqual(before); // ignored: nothing regenerated
    await pass(10_000);
    expect((await api.post(`/v1/report/${campaigns[10]}/export`, {})).status).toBe(200);
  });

  it('a re-export after the hour reuses the earlier files ("otherwise the earlier files are reused")', async () => {
    const sn = campaigns[11];
    const before = (await api.get(`/v1/report/${sn}/link`)).json;
    await pass(3_600_000);
    expect((await api.post(`/v1/report/${sn}/export`, {})).status).toBe(200);
    await pass(1000);
    expect((await api.get(`/v1/report/${sn}/link`)).json).toEqual(before);
  });

  it('403 40303 for an unknown code (16, 17) and for a campaign that has not finished (16)', async () => {
    await pass(10_000);
    expect(await api.post('/v1/report/CPnope/export', {})).toMatchObject({ status: 403, json: { code: '40303' } });
    expect(await api.get('/v1/report/CPnope/link')).toMatchObject({ status: 403, json: { code: '40303', message: 'bad operation with invalid user state' } });
    const b = campaignBody([group]);
    b.config.schedule = { type: 1, scheduleDate: new Date(now + DAY).toISOString() };
    const later = (await api.post('/v1/campaign/normal/submit', b)).json.sn;
    await pass(10_000);
    expect((await api.post(`/v1/report/${later}/export`, {})).status).toBe(403);
  });
});
