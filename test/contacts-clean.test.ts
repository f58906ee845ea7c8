// `contacts clean`: bounce and complaint events of the notification service become a removal
// plan for a campaign group — shown, nothing removed, by default; applied in batches with --yes.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { systemClock } from '../src/core/clock.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import { notifyApi, eventually } from './helpers/notify-api.js';

const sb = useSandbox({
  expect: [
    'DELETE /campaign/v1/contacts/:listSn',
    'POST /campaign/v1/contacts/imports/:listSn/text',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
  ],
});
const campaign = campaignApi(sb.get);
const notify = notifyApi(sb.get);
const people = ['bounce.ann@example.com', 'soft.bob@example.com', 'complain.cy@example.com', 'dee@example.com'];
let sn: string;

beforeAll(async () => {
  sn = (await campaign.post('/v1/contacts/lists/insert', { name: 'Clean me' })).json.sn;
  const started = await campaign.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', ...people.map((p, i) => `${p},P${i}`)].join('\n') });
  await pollUntil(() => campaign.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
  await notify('POST', '/v1/messages', { subject: 'Hi', fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: people.map((address) => ({ address })) });
  await eventually(async () => {
    const r = await notify('GET', '/v1/events?status=bounce,complaint');
    return (r.body.logs ?? []).length >= 3;
  }, 'bounce and complaint events');
});

const deletes = () => sb.get().sandbox.requests('campaign').filter((q) => q.method === 'DELETE' && q.path === `/v1/contacts/${sn}`);

describe('contacts clean', () => {
  it('by default a plan: permanent bounces and complaints, no removal request', async () => {
    const r = await runCli(['contacts', 'clean', '--group', 'Clean me', '--since', '1h', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.applied).toBe(false);
    expect(doc.plan.map((p: { address: string; reason: string }) => [p.address, p.reason])).toEqual([
      ['complain.cy@example.com', 'complaint'],
      ['bounce.ann@example.com', 'permanent bounce'],
    ]);
    expect(deletes()).toHaveLength(0);
  });

  it('--include-temporary adds soft bounces; --yes applies the plan with keys, and says how many went', async () => {
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '1h', '--include-temporary', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Removed 3 of 3 planned addresses from "Clean me" (${sn})`);
    expect(deletes()).toHaveLength(1);
    expect((deletes()[0].body as { keys: string[] }).keys.sort()).toEqual(['bounce.ann@example.com', 'complain.cy@example.com', 'soft.bob@example.com']);
  });

  it('a plain run prints the plan and the command that applies it, with the flags in effect, and says the plan is not limited to members', async () => {
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '2h'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`mailctl contacts clean --group ${sn} --since 2h --yes`);
    expect(r.stderr).toContain('They are not checked against the group\'s members (the API cannot list them); those not in the group are ignored by the service.');
  });

  it('a plan of one address says so in the singular', async () => {
    const one = { logs: [{ messageId: 'only', status: 'complaint', mail: { to: 'only.one@example.com' }, eventTime: new Date().toISOString(), rawEvent: {} }] };
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: one, times: 5, match: { service: 'notify', method: 'GET', path: '/v1/events' } });
    try {
      const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '1m'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain(`Plan: remove from "Clean me" (${sn}) the 1 address that bounced or complained in transactional mail from `);
      expect(r.stderr).toContain('It is not checked against the group\'s members (the API cannot list them); if it is not in the group, the service ignores it.');
    } finally {
      sb.get().sandbox.faults.length = 0;
    }
  });

  it('reads the range one UTC day per lookup, each range starting where the last ended', async () => {
    const mark = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '3d', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    const asked = sb.get().sandbox.requests('notify').slice(mark).filter((q) => q.path === '/v1/events').map((q) => q.query).sort((a, b) => a.from.localeCompare(b.from));
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.length).toBeLessThanOrEqual(4);
    expect(doc.lookups).toBe(asked.length);
    expect(asked[0].from).toBe(doc.from);
    expect(asked.at(-1)!.to).toBe(doc.to);
    for (let i = 0; i < asked.length; i++) {
      expect(asked[i].status).toBe('bounce,complaint');
      expect(Date.parse(asked[i].to) - Date.parse(asked[i].from)).toBeLessThanOrEqual(86_400_000);
      if (i) expect(asked[i].from).toBe(asked[i - 1].to);
      if (i) expect(asked[i].from).toMatch(/T00:00:00Z$/);
    }
  });

  /**
   * The lookups are a UTC day each, so a short range must stay inside one day whatever the hour
   * the suite runs at (at 00:04 UTC, `--since 2h` would span two days and make one lookup more):
   * `midday` for a test whose answers are all injected, `sinceInToday` for one that needs the
   * sandbox's own events (made moments ago, so still inside today).
   */
  const sinceInToday = (ms: number) => new Date(Math.max(Date.now() - ms, Date.parse(new Date().toISOString().slice(0, 10)))).toISOString().replace(/\.\d+Z$/, 'Z');
  const midday = { now: () => Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`), sleep: systemClock.sleep };

  /** A lookup answer of exactly `n` complaint rows (what a capped answer looks like). */
  const roundAnswer = (n: number, prefix: string) => ({
    logs: Array.from({ length: n }, (_, i) => ({ messageId: `${prefix}${i}`, status: 'complaint', mail: { to: `${prefix}${i}@example.com` }, eventTime: new Date().toISOString(), rawEvent: {} })),
  });

  it('a lookup that returns a round count (50) is read again in halves; their events join the plan, no warning when the halves are not round', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: roundAnswer(50, 'cap'), match: { service: 'notify', method: 'GET', path: '/v1/events' } });
    const mark = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', sinceInToday(2 * 3600_000), '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const asked = sb.get().sandbox.requests('notify').slice(mark).filter((q) => q.path === '/v1/events').map((q) => q.query);
    expect(asked).toHaveLength(3);
    const [whole, a, b] = asked;
    expect([a.from, a.to, b.from, b.to]).toEqual([whole.from, a.to, a.to, whole.to]);
    expect(Date.parse(a.to)).toBeGreaterThan(Date.parse(whole.from));
    expect(Date.parse(a.to)).toBeLessThan(Date.parse(whole.to));
    const doc = JSON.parse(r.stdout);
    expect(doc.possiblyCapped).toEqual([]);
    expect(doc.plan).toHaveLength(52);
    expect(r.stderr).not.toContain('row cap');
  });

  it('still round at one minute: reported in words and in --json, not dropped in silence', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: roundAnswer(100, 'full'), times: 7, match: { service: 'notify', method: 'GET', path: '/v1/events' } });
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '3m', '--json'], { sandbox: sb.get(), clock: midday });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.lookups).toBe(7); // 3 minutes → 2 × 90 s → 4 × 45 s
    expect(doc.possiblyCapped).toHaveLength(4);
    expect(doc.possiblyCapped[0]).toMatchObject({ rows: 100 });
    expect(r.stderr).toContain('returned a round number of events for');
    expect(r.stderr).toContain('bounces there may be missing from this plan');
  });
});

describe('contacts clean: batches above 100, and a batch that fails', () => {
  const big = useSandbox({
    expect: [
      'DELETE /campaign/v1/contacts/:listSn',
      'POST /campaign/v1/contacts/imports/:listSn/text',
      'GET /campaign/v1/contacts/imports/result/:importSn',
      'GET /campaign/v1/contacts/lists',
      'POST /campaign/v1/contacts/lists/insert',
      'GET /notify/v1/events',
      'POST /notify/v1/messages',
    ],
  });
  const api = campaignApi(big.get);
  const mail = notifyApi(big.get);
  const members = Array.from({ length: 150 }, (_, i) => `bounce.m${String(i).padStart(3, '0')}@example.com`);
  const strangers = Array.from({ length: 20 }, (_, i) => `bounce.s${String(i).padStart(2, '0')}@example.com`);
  const groups: Record<string, string> = {};
  const deletesOf = (g: string) => big.get().sandbox.requests('campaign').filter((q) => q.method === 'DELETE' && q.path === `/v1/contacts/${g}`);

  beforeAll(async () => {
    for (const name of ['Big A', 'Big B']) {
      groups[name] = (await api.post('/v1/contacts/lists/insert', { name })).json.sn;
      const started = await api.post(`/v1/contacts/imports/${groups[name]}/text`, { contacts: ['EMAIL,NAME', ...members.map((m) => `${m},M`)].join('\n') });
      await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
    }
    const all = [...members, ...strangers];
    for (let i = 0; i < all.length; i += 100) {
      await mail('POST', '/v1/messages', { subject: 'Hi', fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: all.slice(i, i + 100).map((address) => ({ address })) });
    }
    await eventually(async () => (await mail('GET', '/v1/events?status=bounce')).body.logs.length >= all.length, 'every bounce');
  });

  it('170 planned addresses go out as 100 + 70 keys; the service removes the 150 members and ignores the 20 others, and says so', async () => {
    const g = groups['Big A'];
    const r = await runCli(['contacts', 'clean', '--group', g, '--since', '1h', '--yes', '--json'], { sandbox: big.get() });
    expect(r.exitCode).toBe(0);
    const sent = deletesOf(g).map((q) => (q.body as { keys: string[] }).keys);
    expect(sent.map((k) => k.length)).toEqual([100, 70]);
    expect(sent.flat().sort()).toEqual([...members, ...strangers].sort());
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ planned: 170, requested: 170, removed: 150, notInGroup: 20, notDone: [] });
    expect(doc.batches.map((b: { updated_count: number }) => b.updated_count).reduce((x: number, y: number) => x + y)).toBe(150);
    expect((await api.get('/v1/contacts/lists')).json.find((x: { sn: string }) => x.sn === g).subscribedCnt).toBe(0);
    const text = await runCli(['contacts', 'clean', '--group', g, '--since', '1h', '--yes'], { sandbox: big.get() });
    expect(text.stdout).toContain(`Removed 0 of 170 planned addresses from "Big A" (${g}), as the service counted them (updated_count); the other 170 sent were not in the group, and the service ignored them.`);
  });

  it('a batch that fails: exit 5, the addresses not removed named in --json, and the same command again finishes', async () => {
    const g = groups['Big B'];
    big.get().sandbox.injectFault({ kind: 'status', status: 400, body: { code: 40050308, message: 'group to remove from does not exist' }, match: { service: 'campaign', method: 'DELETE', path: `/v1/contacts/${g}`, after: 1 } });
    const r = await runCli(['contacts', 'clean', '--group', g, '--since', '1h', '--yes', '--json'], { sandbox: big.get() });
    expect(r.exitCode).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.notDone).toHaveLength(70);
    // The plan is sorted by address: the first 100 keys are members, all removed.
    expect(doc).toMatchObject({ planned: 170, requested: 100, removed: 100 });
    expect(deletesOf(g)).toHaveLength(2);
    const first = (deletesOf(g)[0].body as { keys: string[] }).keys;
    expect([...first, ...doc.notDone].sort()).toEqual([...members, ...strangers].sort());
    expect(r.stderr).toContain('70 of the 170 addresses were not removed');
    expect(r.stderr).toContain(`mailctl contacts clean --group ${g} --since 1h --yes`);
    const again = await runCli(['contacts', 'clean', '--group', g, '--since', '1h', '--yes', '--json'], { sandbox: big.get() });
    expect(again.exitCode).toBe(0);
    expect((await api.get('/v1/contacts/lists')).json.find((x: { sn: string }) => x.sn === g).subscribedCnt).toBe(0);
  });
});

describe('contacts clean --yes after a lost answer (the batch was removed, its answer never came, the retry removed nothing)', () => {
  it('counts the batch as already gone, never as not in the group; exit 0; --json carries the flag', async () => {
    const lost = (await campaign.post('/v1/contacts/lists/insert', { name: 'Clean lost' })).json.sn as string;
    const started = await campaign.post(`/v1/contacts/imports/${lost}/text`, { contacts: ['EMAIL,NAME', ...people.map((p, i) => `${p},P${i}`)].join('\n') });
    await pollUntil(() => campaign.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
    const match = { service: 'campaign' as const, method: 'DELETE', path: `/v1/contacts/${lost}` };
    const sent = () => sb.get().sandbox.requests('campaign').filter((q) => q.method === 'DELETE' && q.path === match.path).length;

    sb.get().sandbox.injectFault({ kind: 'lose-answer', match });
    const r = await runCli(['contacts', 'clean', '--group', lost, '--since', '1h', '--include-temporary', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(sent()).toBe(2); // the lost one and its retry
    expect(r.stdout).toContain('Removed 0 of 3 planned addresses');
    expect(r.stdout).toContain('3 were already gone (removed by the first attempt, whose answer was lost, or never in the group)');
    expect(r.stdout).not.toContain('not in the group, and the service ignored them');

    // The same run on the emptied group, with a lost answer again, in --json.
    sb.get().sandbox.injectFault({ kind: 'lose-answer', match });
    const j = await runCli(['contacts', 'clean', '--group', lost, '--since', '1h', '--include-temporary', '--yes', '--json'], { sandbox: sb.get() });
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ requested: 3, removed: 0, alreadyGone: 3, notInGroup: 0, retriedAfterLostAnswer: true });
  });
});
