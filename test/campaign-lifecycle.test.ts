// Following a campaign after it is created: status (endpoint 13) in words and --wait until it
// settles, pause (endpoint 12; section 3 rule 1: "Pause applies to scheduled campaigns", and the
// vendor's reference: a sending one too; decisions row 32: sent whatever the status, the service's
// answer reported) and
// delete (endpoint 11; rule 2: preparing or sending campaigns come back in `sendingCampaign`).
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { GROUP_SETUP, statusOf } from './helpers/campaign-api.js';
import { systemClock } from '../src/core/clock.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import type { RunningSandbox } from '../src/sandbox/server.js';

/** What creating a group and campaigns, then following, pausing and deleting them, asks for. */
const LIFECYCLE = [
  'GET /campaign/v1/balance',
  'DELETE /campaign/v1/campaign/normal',
  'GET /campaign/v1/campaign/normal/:sn',
  'PATCH /campaign/v1/campaign/normal/:sn',
  'POST /campaign/v1/campaign/normal/submit',
  'GET /campaign/v1/contacts/lists',
  ...GROUP_SETUP,
];
const sb = useSandbox({ expect: LIFECYCLE });
/** A sandbox where preparing takes a minute: campaigns stay "preparing" for the whole test. */
const slowSb = useSandbox({ delays: { campaignPrepare: 60_000 }, expect: LIFECYCLE });
/** A sandbox where sending takes a minute: a send-now campaign is SENDING for the whole test. */
const sendingSb = useSandbox({ delays: { campaignPrepare: 0, campaignSending: 60_000 }, expect: LIFECYCLE });
const fx = campaignFixtures(sb.get);
const hs = useHostileServer();
const flags = ['--group', 'Newsletter', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];
let slow: RunningSandbox;

async function create(extra: string[] = [], sandbox: RunningSandbox = sb.get()): Promise<string> {
  const r = await runCli(['campaign', 'create', '--name', 'L', ...flags, ...extra], { sandbox });
  expect(r.exitCode).toBe(0);
  return r.stdout.trim();
}
const scheduled = () => create(['--at', '2035-12-01 09:00', '--timezone', 'TAIPEI']);
const deletes = (s: RunningSandbox) => s.sandbox.requests('campaign').filter((r) => r.method === 'DELETE' && r.path === '/v1/campaign/normal');

beforeAll(async () => {
  await fx.group('Newsletter', 4);
  slow = slowSb.get();
  await campaignFixtures(() => slow).group('Newsletter', 2);
  await campaignFixtures(sendingSb.get).group('Newsletter', 2);
});

describe('campaign status', () => {
  it('--wait follows a send-now campaign to COMPLETE and explains it', async () => {
    const sn = await create();
    const r = await runCli(['campaign', 'status', sn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/status\tCOMPLETE/);
    expect(r.stdout).toContain('sent: every recipient has been handled');
    // It really polled: more than one status lookup reached the sandbox.
    expect(sb.get().sandbox.requests('campaign').filter((x) => x.path === `/v1/campaign/normal/${sn}`).length).toBeGreaterThan(1);
  });

  it('--timeout that runs out: exit 4 ("timed out", like every wait) with the command that keeps waiting', async () => {
    const sn = await create([], slow);
    const r = await runCli(['campaign', 'status', sn, '--wait', '--timeout', '200ms'], { sandbox: slow });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`Campaign ${sn} is still PREPARE_TO_SENT`);
    expect(r.stderr).toContain(`mailctl campaign status ${sn} --wait`);
  });

  it('--wait stops at once on a campaign scheduled for later', async () => {
    const sn = await scheduled();
    const r = await runCli(['campaign', 'status', sn, '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sn, status: 'PREPARE', sendTimeType: 'SCHEDULED', scheduledDate: '2035-12-01T01:00:00.000Z' });
  });

  it('--wait exits 1 with the reason in words when the campaign stops unsent (EMPTY_RECIPIENT)', async () => {
    // Preparing takes a minute of sandbox time, which the test moves on by hand: the removal
    // below lands inside the preparation however slow the machine is.
    let skew = 0;
    const quick = await startTestSandbox({ delays: { campaignPrepare: 60_000 }, clock: { now: () => Date.now() + skew, sleep: systemClock.sleep }, expect: LIFECYCLE });
    try {
      const q = campaignFixtures(() => quick);
      const group = await q.group('Newsletter', 2);
      const sn = await create([], quick);
      // Everyone leaves the group while the list is being turned into recipients.
      quick.expect('DELETE /campaign/v1/contacts/:listSn', { required: true });
      const gone = await q.api.del(`/v1/contacts/${group}`, { keys: ['newsletter0@example.org', 'newsletter1@example.org'] });
      expect(gone.status).toBe(200);
      expect(await statusOf(q.api, sn)).toBe('PREPARE_TO_SENT');
      skew += 60_000;
      const r = await runCli(['campaign', 'status', sn, '--wait'], { sandbox: quick });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`Campaign ${sn} ended EMPTY_RECIPIENT: stopped: there was nobody to send to`);
    } finally {
      await quick.close();
    }
  });

  it('an unknown code exits 1; --json says NOT_FOUND (the service answered an empty list)', async () => {
    const r = await runCli(['campaign', 'status', 'CP_NOPE'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('There is no campaign CP_NOPE.');
    const json = await runCli(['campaign', 'status', 'CP_NOPE', '--json'], { sandbox: sb.get() });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'NOT_FOUND', exitCode: 1 });
  });
});

describe('campaign pause', () => {
  it('pauses a scheduled campaign: PATCH, then its status is STOP', async () => {
    const sn = await scheduled();
    // The API has no resume, so without a terminal it needs --yes and sends nothing.
    const refused = await runCli(['campaign', 'pause', sn], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(sb.get().sandbox.requests('campaign').some((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`)).toBe(false);
    const dry = await runCli(['campaign', 'pause', sn, '--dry-run'], { sandbox: sb.get() });
    expect(dry.stdout).toContain(`PATCH ${sb.get().campaignUrl}/v1/campaign/normal/${sn}`);
    expect(sb.get().sandbox.requests('campaign').some((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`)).toBe(false);
    const r = await runCli(['campaign', 'pause', sn, '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(sb.get().sandbox.requests('campaign').some((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`)).toBe(true);
    const s = await runCli(['campaign', 'status', sn, '--json'], { sandbox: sb.get() });
    expect(JSON.parse(s.stdout).status).toBe('STOP');
  });

  it('the answer to the PATCH is lost after the pause took effect: one PATCH, then the status lookup reports it paused (not "not scheduled")', async () => {
    const sn = await scheduled();
    const patches = () => sb.get().sandbox.requests('campaign').filter((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`).length;
    sb.get().sandbox.injectFault({ kind: 'lose-answer', match: { service: 'campaign', method: 'PATCH' } });
    const r = await runCli(['campaign', 'pause', sn, '--yes'], { sandbox: sb.get() });
    expect(r.stderr).toContain('answer to the pause');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`${sn}\tpaused`);
    expect(patches()).toBe(1);
  });

  it('an unknown code: NOT_FOUND, exit 1, no PATCH sent', async () => {
    const r = await runCli(['campaign', 'pause', 'CP_NOPE', '--yes', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'NOT_FOUND', exitCode: 1 });
    expect(sb.get().sandbox.requests('campaign').some((x) => x.method === 'PATCH' && x.path === '/v1/campaign/normal/CP_NOPE')).toBe(false);
  });

  it('a campaign the service will not pause (preparing): the PATCH goes out, and the service\'s refusal is reported with what the campaign was (exit 1)', async () => {
    const sn = await create([], slow);
    const r = await runCli(['campaign', 'pause', sn, '--yes'], { sandbox: slow });
    expect(r.exitCode).toBe(1);
    expect(slow.sandbox.requests('campaign').filter((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`)).toHaveLength(1);
    expect(r.stderr).toContain(`The service refused to pause campaign ${sn} (HTTP 400, code 40015); it was PREPARE_TO_SENT (preparing`);
    expect(r.stderr).not.toMatch(/cannot be paused|probably/);
  });

  it('a SENDING campaign is not refused locally (decisions row 32): the PATCH goes out and the service\'s answer, paused, is reported', async () => {
    const s = sendingSb.get();
    const sn = await create([], s);
    await expect.poll(async () => JSON.parse((await runCli(['campaign', 'status', sn, '--json'], { sandbox: s })).stdout).status).toBe('SENDING');
    const r = await runCli(['campaign', 'pause', sn, '--yes', '--json'], { sandbox: s });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sn, status: 'STOP', result: 'paused' });
    expect(s.sandbox.requests('campaign').filter((x) => x.method === 'PATCH' && x.path === `/v1/campaign/normal/${sn}`)).toHaveLength(1);
  });

  it('statuses the vendor names (SENT, QUEUED) are described as known ones, not as "a status the spec does not describe"', async () => {
    for (const status of ['SENT', 'QUEUED']) {
      hs.get().on('GET', '/campaign/v1/campaign/normal/CP_V', reply.json([{ sn: 'CP_V', name: 'V', status }]));
      const r = await runCli(['campaign', 'status', 'CP_V'], { env: hs.get().env });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`status\t${status}`);
      expect(r.stdout).not.toContain('does not describe');
      expect(r.stdout).toContain("vendor's reference");
    }
  });
});

describe('campaign delete', () => {
  it('without a terminal and without --yes: refused, nothing sent', async () => {
    const sn = await scheduled();
    const before = deletes(sb.get()).length;
    const r = await runCli(['campaign', 'delete', sn], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(deletes(sb.get()).length).toBe(before);
  });

  it('on a terminal it asks first; yes deletes (body campaignSnList, decisions row 22)', async () => {
    const sn = await scheduled();
    const prompter = scriptedPrompter([true]);
    const r = await runCli(['campaign', 'delete', sn], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect(prompter.asked[0]).toContain(`Delete campaign ${sn}?`);
    expect(deletes(sb.get()).at(-1)!.body).toEqual({ campaignSnList: [sn] });
  });

  it('some deleted, one still preparing, one unknown: each reported, exit 5', async () => {
    const busy = await create([], slow);
    const later = await create(['--at', '2035-12-01 09:00', '--timezone', 'TAIPEI'], slow);
    const r = await runCli(['campaign', 'delete', later, busy, 'CP_NOPE', '--yes'], { sandbox: slow });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toContain(`${later}\tdeleted`);
    expect(r.stdout).toContain(`${busy}\tnot deleted: preparing or sending`);
    expect(r.stdout).toContain('CP_NOPE\tnot deleted: no such campaign');
    expect(r.stderr).toContain('Deleted 1 of 3 campaigns');
  });

  it('the answer to the DELETE is lost after the delete took effect: one DELETE, then the lookup reports it deleted (not "no such campaign")', async () => {
    const sn = await scheduled();
    const before = deletes(sb.get()).length;
    sb.get().sandbox.injectFault({ kind: 'lose-answer', match: { service: 'campaign', method: 'DELETE' } });
    const r = await runCli(['campaign', 'delete', sn, '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`${sn}\tdeleted`);
    expect(r.stdout).not.toContain('no such campaign');
    expect(deletes(sb.get()).length - before).toBe(1);
  });

  it('a lost answer with a code that never existed: only existing campaigns go to the DELETE, so the unknown one is reported as such (exit 5), never as deleted', async () => {
    const sn = await scheduled();
    const before = deletes(sb.get()).length;
    sb.get().sandbox.injectFault({ kind: 'lose-answer', match: { service: 'campaign', method: 'DELETE' } });
    const r = await runCli(['campaign', 'delete', sn, 'CP_NEVER', '--yes', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: [sn], badCampaigns: ['CP_NEVER'] });
    const sent = deletes(sb.get()).slice(before);
    expect(sent.map((d) => d.body)).toEqual([{ campaignSnList: [sn] }]);
  });

  it('none deleted: exit 1', async () => {
    const r = await runCli(['campaign', 'delete', 'CP_X', 'CP_Y', '--yes', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ success: [], sendingCampaign: [], badCampaigns: ['CP_X', 'CP_Y'] });
  });

  describe('the lookup before the delete, against a service that refuses an unknown code', () => {
    const exists = () => hs.get()
      .on('GET', '/campaign/v1/campaign/normal/CP_OK', reply.json([{ sn: 'CP_OK', status: 'SCHEDULED' }]))
      .on('DELETE', '/campaign/v1/campaign/normal', reply.json({ success: ['CP_OK'], sendingCampaign: [], badCampaigns: [] }));
    const deleted = () => hs.get().requests.filter((q) => q.method === 'DELETE').map((q) => JSON.parse(q.body));

    for (const [why, answer] of [['400 code 40007 (invalid sn)', reply.json({ code: '40007', message: 'invalid sn' }, 400)], ['HTTP 404', reply.json({}, 404)]] as const) {
      it(`${why} counts as no such campaign: the existing one is deleted, the unknown one reported, exit 5`, async () => {
        exists().on('GET', '/campaign/v1/campaign/normal/CP_BAD', answer);
        const r = await runCli(['campaign', 'delete', 'CP_OK', 'CP_BAD', '--yes', '--json'], { env: hs.get().env });
        expect(r.exitCode).toBe(5);
        expect(JSON.parse(r.stdout)).toMatchObject({ success: ['CP_OK'], badCampaigns: ['CP_BAD'] });
        expect(deleted()).toEqual([{ campaignSnList: ['CP_OK'] }]);
      });
    }

    it.each([['400 code 40007 (invalid sn)', 40007], ['HTTP 404', 404]] as const)('%s is "no such campaign" in campaign status and campaign pause too, exit 1, nothing paused', async (_why, kind) => {
      hs.get().on('GET', '/campaign/v1/campaign/normal/CP_BAD', kind === 404 ? reply.json({}, 404) : reply.json({ code: '40007', message: 'invalid sn' }, 400));
      const status = await runCli(['campaign', 'status', 'CP_BAD', '--json'], { env: hs.get().env });
      expect(status.exitCode).toBe(1);
      expect(JSON.parse(status.stdout).error).toMatchObject({ code: 'NOT_FOUND', message: 'There is no campaign CP_BAD.' });
      const pause = await runCli(['campaign', 'pause', 'CP_BAD', '--yes'], { env: hs.get().env });
      expect(pause.exitCode).toBe(1);
      expect(pause.stderr).toContain('CP_BAD');
      expect(pause.stderr).not.toContain('template list');
      expect(hs.get().requests.filter((q) => q.method === 'PATCH')).toEqual([]);
    });

    it('any other refusal of the lookup (the key refused) stops before anything is deleted', async () => {
      exists().on('GET', '/campaign/v1/campaign/normal/CP_BAD', reply.json({ message: 'Forbidden' }, 403));
      const r = await runCli(['campaign', 'delete', 'CP_OK', 'CP_BAD', '--yes'], { env: hs.get().env });
      expect(r.exitCode).toBe(3);
      expect(deleted()).toEqual([]);
    });
  });
});
