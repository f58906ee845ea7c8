// The sandbox's campaign endpoints (spec 000, 7–13): field rules, error codes, states over time.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox, type UseSandboxOptions } from './helpers/sandbox.js';
import { abBody, campaignApi, campaignBody, emails, groupWith, statusOf, type CampaignApi, GROUP_SETUP } from './helpers/campaign-api.js';
import { systemClock } from '../src/core/clock.js';

// Sandbox time is the wall clock, except while a test holds it: then it moves only when the test
// moves it. Phases last 100-150 ms here; held time lets a test see each of them, and submit a
// schedule a moment ahead, however slow the machine is.
let held: number | undefined;
let offset = 0;
const clock = { now: () => held ?? Date.now() + offset, sleep: systemClock.sleep };
const hold = () => { held ??= clock.now(); };
const release = () => {
  if (held !== undefined) offset = held - Date.now();
  held = undefined;
};

/**
 * Polls a campaign until it reaches `want`, returning every status seen on the way. Sandbox time
 * is held and moved on 10 ms per look, so no phase is skipped because the machine was busy.
 */
async function campaignUntil(a: CampaignApi, sn: string, want: string): Promise<string[]> {
  hold();
  const seen: string[] = [];
  const end = Date.now() + 15_000;
  try {
    for (;;) {
      const s = await statusOf(a, sn);
      if (seen[seen.length - 1] !== s) seen.push(s);
      if (s === want) return seen;
      if (Date.now() > end) throw new Error(`campaign ${sn} did not reach ${want}; seen ${seen.join(' → ')}`);
      held! += 10;
    }
  } finally {
    release();
  }
}

const sb = useSandbox({
  clock,
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'DELETE /campaign/v1/campaign/normal',
    'GET /campaign/v1/campaign/normal/:sn',
    'PATCH /campaign/v1/campaign/normal/:sn',
    'POST /campaign/v1/campaign/normal/once',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/once',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/report/campaigns/metrics',
    'PUT /files/u/:token',
  ],
});
afterEach(release); // a failed test must not leave time held for the next
const api = campaignApi(sb.get);
const submit = (body: unknown) => api.post('/v1/campaign/normal/submit', body);
const inSeconds = (s: number) => new Date(clock.now() + s * 1000).toISOString();

/** What groupWith asks for: a group, its text import and the looks at its result. */
const GROUP_WITH = ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn'];

/** A sandbox of its own (for balance and timing rules), closed after `fn`; `o.expect` lists the requests `fn` may make. */
async function withSandbox(o: UseSandboxOptions, fn: (a: ReturnType<typeof campaignApi>, running: Awaited<ReturnType<typeof startTestSandbox>>) => Promise<void>) {
  const running = await startTestSandbox({ clock, ...o });
  try {
    await fn(campaignApi(() => running), running);
  } finally {
    await running.close();
  }
}

describe('endpoint 7: field rules → 400 {code, invalidFields}', () => {
  let g: string;
  const fields = async (mutate: (b: any) => void) => {
    g ??= await groupWith(api, emails(3, 'f'));
    const b = campaignBody([g]);
    mutate(b);
    const r = await submit(b);
    expect(r.status).toBe(400);
    return r.json as { code: string; invalidFields: string };
  };

  it.each([
    ['"form.name* … campaign name"', (b: any) => delete b.form.name, 'form.name'],
    ['"form.selectedLists* … at least 1"', (b: any) => (b.form.selectedLists = []), 'form.selectedLists'],
    ['"content.preheader … max 60 characters"', (b: any) => (b.content.preheader = 'p'.repeat(61)), 'content.preheader'],
    ['"content.subject* … max 150 characters"', (b: any) => (b.content.subject = 's'.repeat(151)), 'content.subject'],
    ['"content.fromName* … max 50 characters"', (b: any) => (b.content.fromName = 'n'.repeat(51)), 'content.fromName'],
    ['"content.fromAddress*"', (b: any) => delete b.content.fromAddress, 'content.fromAddress'],
    ['"content.htmlContent*"', (b: any) => (b.content.htmlContent = ''), 'content.htmlContent'],
    ['"content.footerLang* … 0 English, 1 Chinese"', (b: any) => (b.content.footerLang = 2), 'content.footerLang'],
    ['"config.schedule.type* … 0 send now, 1 scheduled"', (b: any) => (b.config.schedule.type = 3), 'config.schedule.type'],
    ['"config.schedule.timezone … time zone code"', (b: any) => (b.config.schedule = { type: 1, timezone: 88, scheduleDate: inSeconds(3600) }), 'config.schedule.timezone'],
    ['"config.ga.enable* … if true, utmCampaign and utmContent are required"', (b: any) => (b.config.ga.enable = true), 'config.ga.utmCampaign,config.ga.utmContent'],
    ['"config.ga.ecommerceEnable* … if true, enable must be true and utm fields are required"', (b: any) => (b.config.ga = { enable: false, ecommerceEnable: true, utmCampaign: 'c', utmContent: 'x' }), 'config.ga.enable'],
    ['"config.ga.enable*" is a boolean (the older revision sent "true")', (b: any) => (b.config.ga.enable = 'true'), 'config.ga.enable'],
  ])('%s → 40001', async (_rule, mutate, invalid) => {
    expect(await fields(mutate)).toEqual({ code: '40001', invalidFields: invalid });
  });

  it('names every failing field at once; the limits count characters, not bytes', async () => {
    expect((await fields((b) => (delete b.form.name, delete b.content.subject)))).toEqual({ code: '40001', invalidFields: 'form.name,content.subject' });
    const ok = campaignBody([g]);
    ok.content.subject = '秋'.repeat(150);
    expect((await submit(ok)).status).toBe(200);
  });

  it('excludeLists may be empty or absent (spec says "at least 1"; the sandbox is tolerant)', async () => {
    const b = campaignBody([g]);
    delete b.form.excludeLists;
    expect((await submit(b)).status).toBe(200);
  });

  it('"scheduleDate … must not be in the past" → 40019; a date that is not ISO 8601 → 40020', async () => {
    expect(await fields((b) => (b.config.schedule = { type: 1, timezone: 21, scheduleDate: '2020-01-01T00:00:00Z' }))).toEqual({ code: '40019', invalidFields: 'config.schedule.scheduleDate' });
    expect((await fields((b) => (b.config.schedule = { type: 1, timezone: 21, scheduleDate: '12/01/2030 09:00' }))).code).toBe('40020');
  });

  it('senders: 40003 invalid email, 40004 domain not allowed, 40011 "sender address not verified"', async () => {
    expect(await fields((b) => (b.content.fromAddress = 'news-at-example.com'))).toEqual({ code: '40003', invalidFields: 'content.fromAddress' });
    expect((await fields((b) => (b.content.fromAddress = 'someone@gmail.com'))).code).toBe('40004');
    expect(await fields((b) => (b.content.fromAddress = 'stranger@example.com'))).toEqual({ code: '40011', invalidFields: 'content.fromAddress' });
  });

  it('40014 "invalid campaign content" for a broken ${…} variable; 40007 "invalid sn" for an unknown group', async () => {
    expect(await fields((b) => (b.content.htmlContent = '<p>Hi ${NAME</p>'))).toEqual({ code: '40014', invalidFields: 'content.htmlContent' });
    expect(await fields((b) => (b.form.selectedLists = ['LSnope']))).toEqual({ code: '40007', invalidFields: 'form.selectedLists' });
    expect(await fields((b) => (b.form.excludeLists = ['LSnope']))).toEqual({ code: '40007', invalidFields: 'form.excludeLists' });
  });

  it('"40013 no recipients to send to" (empty group, or everyone excluded)', async () => {
    const empty = await groupWith(api, []);
    expect((await submit(campaignBody([empty]))).json.code).toBe('40013');
    const all = await groupWith(api, emails(2, 'x'));
    expect((await submit(campaignBody([all], [all]))).json.code).toBe('40013');
  });

  it('a non-JSON body → 400', async () => {
    expect((await api.call('POST', '/v1/campaign/normal/submit', '{not json')).status).toBe(400);
  });
});

describe('endpoint 7 against the account state', () => {
  it('"a PROCESSING group cannot be chosen for sending" → 40015 (sandbox choice of code)', async () => {
    await withSandbox({ delays: { importProcessing: 60_000 }, expect: ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'POST /campaign/v1/campaign/normal/submit'] }, async (a) => {
      const g = (await a.post('/v1/contacts/lists/insert', { name: 'busy' })).json.sn;
      await a.post(`/v1/contacts/imports/${g}/text`, { contacts: 'EMAIL,NAME\na@example.org,A' });
      expect((await a.post('/v1/campaign/normal/submit', campaignBody([g]))).json).toEqual({ code: '40015', invalidFields: 'form.selectedLists' });
    });
  });

  it('"40012 insufficient balance"; A/B: "40017 insufficient balance for test"', async () => {
    await withSandbox({ balance: { email: 6, sms: 0 }, expect: [...GROUP_WITH, 'POST /campaign/v1/campaign/normal/submit', 'POST /campaign/v1/campaign/testing/submit'] }, async (a) => {
      const g = await groupWith(a, emails(10));
      expect((await a.post('/v1/campaign/normal/submit', campaignBody([g]))).json).toEqual({ code: '40012', invalidFields: 'form.selectedLists' });
      expect((await a.post('/v1/campaign/testing/submit', abBody([g], 70))).json.code).toBe('40017'); // test share 7 > 6
      expect((await a.post('/v1/campaign/testing/submit', abBody([g], 50))).json.code).toBe('40012'); // share 5 fits, all 10 do not
    });
  });
});

describe('states over time', () => {
  it('send now: PREPARE_TO_SENT → SENDING → COMPLETE; the balance goes down by the recipients; excluded groups are not sent to', async () => {
    const g = await groupWith(api, emails(30, 's'));
    const ex = await groupWith(api, emails(5, 's'));
    const before = (await api.get('/v1/balance')).json.email;
    hold();
    const r = await submit(campaignBody([g], [ex]));
    expect(r.json).toEqual({ sn: expect.any(String) });
    const seen = await campaignUntil(api, r.json.sn, 'COMPLETE');
    expect(seen).toEqual(['PREPARE_TO_SENT', 'SENDING', 'COMPLETE']);
    expect((await api.get('/v1/balance')).json.email).toBe(before - 25);
    const [c] = (await api.get(`/v1/campaign/normal/${r.json.sn}`)).json;
    expect(c).toMatchObject({ sn: r.json.sn, name: 'Autumn sale', hasContent: [true], status: 'COMPLETE', channel: 0, sendTimeType: 'NOW', type: 'REGULAR' });
    expect(Date.parse(c.sentEndDate)).toBeGreaterThan(Date.parse(c.sentBeginDate));
  });

  it('scheduled: "PREPARE (scheduled)" until scheduleDate, then sent; "13 … scheduledDate"', async () => {
    const g = await groupWith(api, emails(3, 'sch'));
    const b = campaignBody([g]);
    hold();
    const when = inSeconds(0.4);
    b.config.schedule = { type: 1, timezone: 21, scheduleDate: when };
    const r = await submit(b);
    const [c] = (await api.get(`/v1/campaign/normal/${r.json.sn}`)).json;
    expect(c).toMatchObject({ status: 'PREPARE', sendTimeType: 'SCHEDULED', scheduledDate: new Date(when).toISOString() });
    const seen = await campaignUntil(api, r.json.sn, 'COMPLETE');
    expect(seen).toEqual(['PREPARE', 'PREPARE_TO_SENT', 'SENDING', 'COMPLETE']);
  });

  it('"Pause applies to scheduled campaigns": 204 and STOP; otherwise 400 {code}', async () => {
    const g = await groupWith(api, emails(3, 'pz'));
    const b = campaignBody([g]);
    b.config.schedule = { type: 1, timezone: 60, scheduleDate: inSeconds(3600) };
    const sn = (await submit(b)).json.sn;
    const paused = await api.patch(`/v1/campaign/normal/${sn}`);
    expect(paused.status).toBe(204);
    expect(paused.text).toBe('');
    expect(await statusOf(api, sn)).toBe('STOP');
    expect(await api.patch(`/v1/campaign/normal/${sn}`)).toMatchObject({ status: 400, json: { code: '40015' } });
    expect(await api.patch('/v1/campaign/normal/CPnope')).toMatchObject({ status: 400, json: { code: '40007' } });
    // A campaign sent and done is refused. (Waited for: while it is still SENDING the pause is
    // taken, decisions row 32, and under load a send-now campaign can still be sending here.)
    const now = (await submit(campaignBody([g]))).json.sn;
    await campaignUntil(api, now, 'COMPLETE');
    expect((await api.patch(`/v1/campaign/normal/${now}`)).status).toBe(400);
  });

  it('delete: "sent, scheduled or paused" → success; "preparing to send or sending" → sendingCampaign; invalid → badCampaigns', async () => {
    const g = await groupWith(api, emails(3, 'del'));
    const sent = (await submit(campaignBody([g]))).json.sn;
    await campaignUntil(api, sent, 'COMPLETE');
    const sched = campaignBody([g]);
    sched.config.schedule = { type: 1, scheduleDate: inSeconds(3600) };
    hold(); // the send-now campaign below must still be sending when the delete arrives
    const scheduled = (await submit(sched)).json.sn;
    const paused = (await submit(sched)).json.sn;
    await api.patch(`/v1/campaign/normal/${paused}`);
    const sending = (await submit(campaignBody([g]))).json.sn;
    const r = await api.del('/v1/campaign/normal', { campaignSnList: [sent, scheduled, paused, sending, 'CPnope'] });
    release();
    expect(r.json).toEqual({ success: [sent, scheduled, paused], sendingCampaign: [sending], badCampaigns: ['CPnope'] });
    expect((await api.get(`/v1/campaign/normal/${sent}`)).json).toEqual([]);
    expect((await api.del('/v1/campaign/normal', { sns: [sent] })).json.code).toBe('40001');
  });

  it('group results come back: open/click rates grow, bounced/unsubscribed/complained members move to excludeCnt and are skipped next time', async () => {
    const g = await groupWith(api, emails(400, 'res'));
    const first = (await submit(campaignBody([g]))).json.sn;
    await campaignUntil(api, first, 'COMPLETE');
    const grp = (await api.get('/v1/contacts/lists?size=1000')).json.find((x: { sn: string }) => x.sn === g);
    expect(grp.openedRate).toBeGreaterThan(0);
    expect(grp.clickedRate).toBeGreaterThan(0);
    expect(grp.excludeCnt).toBeGreaterThan(0);
    expect(grp.subscribedCnt + grp.excludeCnt).toBe(400);
    const second = (await submit(campaignBody([g]))).json.sn;
    await campaignUntil(api, second, 'COMPLETE');
    const [m] = (await api.post('/v1/report/campaigns/metrics', { campaignSns: [second] })).json;
    expect(m.recipientCnt).toBe(grp.subscribedCnt);
  });

  it('"UNAUTHENTICATED_SENDER (sender not verified)" when the sender loses verification before the send', async () => {
    const expected = [...GROUP_WITH, 'POST /campaign/v1/campaign/normal/submit', 'GET /campaign/v1/campaign/normal/:sn'];
    await withSandbox({ verifiedSenders: ['news@example.com', 'spare@example.com'], expect: expected }, async (a, running) => {
      const g = await groupWith(a, emails(2));
      const b = campaignBody([g]);
      hold();
      b.config.schedule = { type: 1, scheduleDate: inSeconds(0.3) };
      const sn = (await a.post('/v1/campaign/normal/submit', b)).json.sn;
      running.sandbox.options.verifiedSenders.delete('news@example.com');
      await campaignUntil(a, sn, 'UNAUTHENTICATED_SENDER');
    });
  });
});

describe('once-campaigns (endpoints 8, 10)', () => {
  const once = (body: any) => {
    delete body.form.selectedLists;
    delete body.form.excludeLists;
    return body;
  };

  it('"200: sn, preSignedUrl"; DRAFT until the list arrives by PUT (no key); "not validated for format or duplicates"', async () => {
    const before = (await api.get('/v1/balance')).json.email;
    const r = await api.post('/v1/campaign/normal/once', once(campaignBody([])));
    expect(r.json).toEqual({ sn: expect.any(String), preSignedUrl: expect.stringContaining('/files/u/') });
    expect(await statusOf(api, r.json.sn)).toBe('DRAFT');
    const put = await fetch(r.json.preSignedUrl, { method: 'PUT', body: 'EMAIL,NAME\na@example.org,A\na@example.org,A again\nnot-an-address,X\n' });
    expect(put.status).toBe(200);
    await campaignUntil(api, r.json.sn, 'COMPLETE');
    expect((await api.get('/v1/balance')).json.email).toBe(before - 3);
  });

  it('EMPTY_RECIPIENT: a list with no rows, or a scheduled once-campaign whose list never came', async () => {
    const r = await api.post('/v1/campaign/normal/once', once(campaignBody([])));
    await fetch(r.json.preSignedUrl, { method: 'PUT', body: 'EMAIL,NAME\n' });
    await campaignUntil(api, r.json.sn, 'EMPTY_RECIPIENT');
    const b = once(campaignBody([]));
    hold();
    b.config.schedule = { type: 1, scheduleDate: inSeconds(0.3) };
    await campaignUntil(api, (await api.post('/v1/campaign/normal/once', b)).json.sn, 'EMPTY_RECIPIENT');
  });

  it('"OVER_LIMIT (insufficient balance)" when the list is bigger than the balance at send time', async () => {
    const expected = ['POST /campaign/v1/campaign/normal/once', 'PUT /files/u/:token', 'GET /campaign/v1/campaign/normal/:sn', 'GET /campaign/v1/balance'];
    await withSandbox({ balance: { email: 2, sms: 0 }, expect: expected }, async (a) => {
      const r = await a.post('/v1/campaign/normal/once', once(campaignBody([])));
      await fetch(r.json.preSignedUrl, { method: 'PUT', body: 'EMAIL,NAME\na@example.org,A\nb@example.org,B\nc@example.org,C\n' });
      await campaignUntil(a, r.json.sn, 'OVER_LIMIT');
      expect((await a.get('/v1/balance')).json.email).toBe(2);
    });
  });

  it('10: A/B once, "the test share is taken from the uploaded list"', async () => {
    const r = await api.post('/v1/campaign/testing/once', once(abBody([], 50)));
    expect(r.status).toBe(200);
    const rows = emails(6, 'ab1').map((e) => `${e},N`);
    hold();
    await fetch(r.json.preSignedUrl, { method: 'PUT', body: ['EMAIL,NAME', ...rows].join('\n') });
    const seen = await campaignUntil(api, r.json.sn, 'COMPLETE');
    expect(seen).toContain('TESTING');
  });
});

describe('A/B campaigns (endpoint 9)', () => {
  it('TESTING for the test window, then the winner goes to the rest: PREPARE_TO_SENT → TESTING → SENDING → COMPLETE', async () => {
    const g = await groupWith(api, emails(20, 'ab'));
    hold();
    const r = await api.post('/v1/campaign/testing/submit', abBody([g], 40));
    expect(r.json).toEqual({ sn: expect.any(String) });
    const seen = await campaignUntil(api, r.json.sn, 'COMPLETE');
    expect(seen).toEqual(['PREPARE_TO_SENT', 'TESTING', 'SENDING', 'COMPLETE']);
    const [c] = (await api.get(`/v1/campaign/normal/${r.json.sn}`)).json;
    expect(c).toMatchObject({ type: 'A_B_TEST', proportion: 40, hasContent: [true] });
  });

  it('"testingOn* 1 subject test, 2 sender name and address test, 3 content test" and their required A/B fields', async () => {
    const g = await groupWith(api, emails(4, 'abf'));
    const post = (b: any) => api.post('/v1/campaign/testing/submit', b);
    const b1 = abBody([g]);
    delete b1.content.testingOn;
    // Without a tested dimension the single-version subject is required too.
    expect((await post(b1)).json).toEqual({ code: '40001', invalidFields: 'content.testingOn,content.subject' });
    const b2 = abBody([g]);
    b2.content.subjectB = 'x'.repeat(151);
    expect((await post(b2)).json.invalidFields).toBe('content.subjectB');
    const b3 = abBody([g]);
    Object.assign(b3.content, { testingOn: 2, subject: 'S', fromNameA: 'A' });
    expect((await post(b3)).json.invalidFields).toBe('content.fromNameB,content.fromAddressA,content.fromAddressB');
    const b4 = abBody([g]);
    Object.assign(b4.content, { testingOn: 2, subject: 'S', fromNameA: 'A', fromNameB: 'B', fromAddressA: 'news@example.com', fromAddressB: 'who@example.com' });
    expect((await post(b4)).json).toEqual({ code: '40011', invalidFields: 'content.fromAddressB' });
    const b5 = abBody([g]);
    b5.content.testing = { proportion: 101, time: 0, unit: 2 };
    expect((await post(b5)).json.invalidFields).toBe('content.testing.proportion,content.testing.time,content.testing.unit');
  });

  it('content test with `content` nested in `config`, as the spec\'s sample has it (decisions row 9: tolerated)', async () => {
    const g = await groupWith(api, emails(4, 'abn'));
    const b = campaignBody([g]);
    b.config.content = { testingOn: 3, testing: { proportion: 50, time: 1, unit: 0 }, htmlContentA: '<p>A</p>', htmlContentB: '<p>B</p>' };
    delete b.content.htmlContent;
    const r = await api.post('/v1/campaign/testing/submit', b);
    expect(r.status).toBe(200);
    expect((await api.get(`/v1/campaign/normal/${r.json.sn}`)).json[0].hasContent).toEqual([true, true]);
  });

  it('"INSUFFICIENT_RECIPIENT_FOR_TESTING (too few members for the test percentage)": a share under 2 contacts', async () => {
    const g = await groupWith(api, emails(3, 'few'));
    const r = await api.post('/v1/campaign/testing/submit', abBody([g], 50)); // floor(1.5) = 1
    expect(r.status).toBe(200);
    await campaignUntil(api, r.json.sn, 'INSUFFICIENT_RECIPIENT_FOR_TESTING');
  });
});

it('"13. GET /v1/campaign/normal/{campaign_sn}: 200: array": an unknown code gives an empty array', async () => {
  expect(await api.get('/v1/campaign/normal/CPnope')).toMatchObject({ status: 200, json: [] });
});
