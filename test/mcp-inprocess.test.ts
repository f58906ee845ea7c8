// `mailctl mcp` run by main() in this process, with an injected clock, driven by the SDK's
// client over memory streams: a token past its 10 minutes, a destructive write confirmed (the
// confirmation stands for --yes, which no terminal could give), a group named in the
// arguments and looked up by the real run, and a send resumed from its journal.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { inProcessMcp, type McpSession } from './helpers/mcp.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { PLAN_TTL_MS } from '../src/mcp/plan-tokens.js';
import type { Clock } from '../src/core/clock.js';
import type { Recorded } from '../src/sandbox/types.js';
import { journalPlan } from './helpers/journal-plan.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'POST /campaign/v1/contacts/imports/:sn/text',
    'GET /campaign/v1/contacts/imports/result/:sn',
    'GET /campaign/v1/balance',
    'GET /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
    'DELETE /notify/v1/webhooks',
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
    'POST /notify/v1/sms/messages',
    'POST /campaign/v1/automation/event',
  ],
});

function manualClock(): Clock & { advance(ms: number): void } {
  let t = Date.now();
  return { now: () => t, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))), advance: (ms) => (t += ms) };
}

async function received(f: () => Promise<unknown>): Promise<Recorded[]> {
  const before = sb.get().sandbox.recorded.length;
  await f();
  return sb.get().sandbox.recorded.slice(before);
}
const changes = (rs: Recorded[]) => rs.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, path: `/${r.service}${r.path}`, body: r.body }));
const planned = (p: { requests: Array<{ method: string; url: string; body?: unknown }> }) => p.requests.map((r) => ({ method: r.method, path: new URL(r.url).pathname, body: r.body }));

describe('mailctl mcp in-process', () => {
  const clock = manualClock();
  const configDir = tempDir();
  let s: McpSession & { exit: Promise<number> };
  beforeAll(async () => {
    const sandbox = sb.get();
    s = await inProcessMcp(['mcp'], {
      clock,
      env: {
        PATH: process.env.PATH, HOME: tempDir('mailctl-home-'), MAILCTL_CONFIG_DIR: configDir,
        MAILCTL_CAMPAIGN_URL: sandbox.campaignUrl, MAILCTL_NOTIFY_URL: sandbox.notifyUrl,
        MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify,
      },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a token older than 10 minutes is refused, nothing sent; one just inside them is honoured', async () => {
    const late = (await s.call('webhook_set', { type: 'open', url: 'https://hooks.example.com/late' })).doc.plan;
    const onTime = (await s.call('webhook_set', { type: 'click', url: 'https://hooks.example.com/on-time' })).doc.plan;
    expect(Date.parse(late.expiresAt)).toBe(clock.now() + PLAN_TTL_MS);
    clock.advance(PLAN_TTL_MS);
    const ok = await received(async () => {
      expect((await s.call('webhook_set', { type: 'click', url: 'https://hooks.example.com/on-time', confirm: onTime.token })).isError).toBe(false);
    });
    expect(changes(ok)).toEqual(planned(onTime));
    clock.advance(1);
    const none = await received(async () => {
      const r = await s.call('webhook_set', { type: 'open', url: 'https://hooks.example.com/late', confirm: late.token });
      expect(r.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'expired', exitCode: 2 });
    });
    expect(none).toEqual([]);
  });

  it('a destructive write confirmed is carried out without a terminal (the confirmation is its --yes)', async () => {
    await runCli(['webhook', 'set', 'bounce', 'https://hooks.example.com/b'], { sandbox: sb.get() });
    const person = await runCli(['webhook', 'delete', 'bounce'], { sandbox: sb.get() });
    expect(person.exitCode).toBe(2); // asks first, and there is no terminal
    const plan = (await s.call('webhook_delete', { type: 'bounce' })).doc.plan;
    const got = await received(async () => {
      const r = await s.call('webhook_delete', { type: 'bounce', confirm: plan.token });
      expect(r.isError).toBe(false);
    });
    expect(changes(got)).toEqual(planned(plan));
    expect(changes(got)).toEqual([{ method: 'DELETE', path: '/notify/v1/webhooks', body: { type: 6 } }]);
  });

  it('an import into a group named in the arguments goes to the code the real run looks up', async () => {
    await runCli(['groups', 'create', 'Members'], { sandbox: sb.get() });
    const csv = path.join(tempDir(), 'contacts.csv');
    fs.writeFileSync(csv, 'EMAIL,NAME\nann.lee@example.com,Ann Lee\nbo.chen@example.com,Bo Chen\n');
    const args = { file: csv, group: 'Members', 'no-wait': true };
    const plan = (await s.call('import', args)).doc.plan;
    expect(planned(plan)).toEqual([{ method: 'POST', path: '/campaign/v1/contacts/imports/Members/text', body: expect.anything() }]);
    const got = await received(async () => {
      const r = await s.call('import', { ...args, confirm: plan.token });
      expect(r.isError).toBe(false);
    });
    const code = Object.values(sb.get().sandbox.state.campaign.groups).find((g) => g.name === 'Members')!.sn;
    expect(changes(got)).toEqual([{ method: 'POST', path: `/campaign/v1/contacts/imports/${code}/text`, body: { contacts: 'EMAIL,NAME\nann.lee@example.com,Ann Lee\nbo.chen@example.com,Bo Chen' } }]);
  });

  it('a send stopped part-way resumes from its journal: the plan holds only the recipients never sent, and only they are sent', async () => {
    const message = { subject: 'Order {{code}}', fromAddress: 'news@example.com', content: '<p>{{code}}</p>' };
    const recipients = Array.from({ length: 150 }, (_, i) => ({ address: `res${i}@example.com`, variables: { code: `C${i}` } }));
    const plan = journalPlan({ kind: 'email', message, recipients }, sb.get());
    const first = recipients.slice(0, 100);
    const res = await fetch(`${sb.get().notifyUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': SANDBOX_KEYS.notify, 'content-type': 'application/json' }, body: JSON.stringify({ ...message, recipients: first }) });
    const answer = (await res.json()) as { id: string; success: Array<{ id: string; address: string }> };
    const file = path.join(configDir, 'journals', 'send-email-resume.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const at = new Date().toISOString();
    fs.writeFileSync(file, [plan, { type: 'intent', batch: '1', keys: first.map((r) => r.address), at }, { type: 'result', batch: '1', at, requestId: answer.id, success: Object.fromEntries(answer.success.map((x) => [x.address, x.id])), failure: {} }].map((r) => `${JSON.stringify(r)}\n`).join(''));
    const p = (await s.call('send', { resume: file })).doc.plan;
    expect(p.requests.map((r: { body: { recipients: unknown[] } }) => r.body.recipients.length)).toEqual([50]);
    const got = await received(async () => {
      const r = await s.call('send', { resume: file, confirm: p.token });
      expect(r.doc).toMatchObject({ total: 150, sent: 150 });
    });
    expect(changes(got)).toEqual(planned(p));
  });

  it('a resume whose in-doubt recipients prove not sent sends only what its plan showed; the next resume\'s plan holds them: nobody outside a plan, nobody twice', async () => {
    const message = { subject: 'Doubt {{code}}', fromAddress: 'news@example.com', content: '<p>{{code}}</p>' };
    const recipients = Array.from({ length: 120 }, (_, i) => ({ address: `doubt${i}@example.com`, variables: { code: `D${i}` } }));
    const longAgo = new Date(Date.now() - 3600_000).toISOString();
    const plan = journalPlan({ kind: 'email', createdAt: longAgo, message, recipients }, sb.get());
    const file = path.join(configDir, 'journals', 'send-email-doubt.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Batch 1 went out an hour ago and no answer was recorded; the event log holds nothing of it.
    fs.writeFileSync(file, [plan, { type: 'intent', batch: '1', keys: recipients.slice(0, 100).map((r) => r.address), at: longAgo }].map((r) => `${JSON.stringify(r)}\n`).join(''));
    const p = (await s.call('send', { resume: file })).doc.plan;
    const plannedBodies = p.requests.map((r: { body: unknown }) => r.body);
    expect(plannedBodies.map((b: { recipients: unknown[] }) => b.recipients.length)).toEqual([20]);
    let doc: unknown;
    const got = await received(async () => {
      doc = (await s.call('send', { resume: file, confirm: p.token })).doc;
    });
    const sentBodies = changes(got).map((r) => r.body);
    for (const b of sentBodies) expect(plannedBodies).toContainEqual(b);
    const addresses = sentBodies.flatMap((b) => (b as { recipients: Array<{ address: string }> }).recipients.map((r) => r.address));
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(addresses.every((a) => Number(a.slice('doubt'.length).split('@')[0]) >= 100)).toBe(true);
    expect(doc).toMatchObject({ total: 120, sent: 20, notSent: 100 });
    // Now recorded as not sent, they are in the next resume's plan, and confirming it sends them.
    const next = (await s.call('send', { resume: file })).doc.plan;
    expect(next.requests.map((r: { body: { recipients: unknown[] } }) => r.body.recipients.length)).toEqual([100]);
    const rest = await received(async () => {
      expect((await s.call('send', { resume: file, confirm: next.token })).doc).toMatchObject({ total: 120, sent: 120 });
    });
    expect(changes(rest)).toEqual(planned(next));
    const times = new Map<string, number>();
    for (const m of Object.values(sb.get().sandbox.state.notify.messages)) if (m.address.startsWith('doubt')) times.set(m.address, (times.get(m.address) ?? 0) + 1);
    expect(times.size).toBe(120);
    expect([...times.values()].every((n) => n === 1)).toBe(true);
  });

  it.each([
    // --to is repeatable in send sms and automation, so the tools take a list (src/cli/tool-schema.ts).
    ['send_sms', { to: ['0912345678'], 'country-code': '886', text: '【Acme】Your code is {{code}}', var: ['code=A1B2'] }],
    ['automation_trigger', { workflow: 'welcome', to: ['ann.lee@example.com'], 'to-name': 'Ann Lee', var: ['plan=pro'] }],
  ])('%s, a batch tool, sends exactly its planned bodies when confirmed', async (tool, args) => {
    const p = (await s.call(tool, args)).doc.plan;
    expect(p.requests).toHaveLength(1);
    const got = await received(async () => {
      const r = await s.call(tool, { ...args, confirm: p.token });
      expect(r.isError).toBe(false);
    });
    expect(changes(got)).toEqual(planned(p));
  });

  it('ends when the client closes its side, with exit 0', async () => {
    await s.close();
    expect(await s.exit).toBe(0);
  });
});

describe('mailctl mcp: profiles and --sandbox as for the CLI', () => {
  const bare = (configDir: string, more: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: tempDir('mailctl-home-'), MAILCTL_CONFIG_DIR: configDir, ...more });

  it('--profile (or MAILCTL_PROFILE) picks the profile every call runs under: its URLs and keys', async () => {
    const configDir = tempDir();
    const staging = (argv: string[], stdin?: string) => runCli(['--profile', 'staging', ...argv], { configDir, stdin });
    expect((await staging(['config', 'set', 'campaign-url', sb.get().campaignUrl])).exitCode).toBe(0);
    expect((await staging(['config', 'set-key', '--service', 'campaign', '--with-key-stdin'], SANDBOX_KEYS.campaign)).exitCode).toBe(0);
    for (const [argv, env] of [[['--profile', 'staging', 'mcp'], {}], [['mcp'], { MAILCTL_PROFILE: 'staging' }]] as const) {
      const s = await inProcessMcp([...argv], { env: bare(configDir, env) });
      try {
        const name = `Staging ${argv.length}`;
        const plan = (await s.call('groups_create', { name })).doc.plan;
        expect(plan.requests[0].url).toBe(`${sb.get().campaignUrl}/v1/contacts/lists/insert`);
        const got = await received(() => s.call('groups_create', { name, confirm: plan.token }));
        expect(changes(got)).toEqual(planned(plan));
      } finally {
        await s.close();
      }
    }
  });

  it('--sandbox serves the built-in sandbox: nothing reaches a service, and writes persist between calls', async () => {
    // Paced as the CLI paces itself: the in-process sandbox keeps the service's 2 requests a
    // second, and groups create looks the name up before it creates the group.
    const s = await inProcessMcp(['mcp', '--sandbox'], { env: bare(tempDir()), tuning: { rateLimit: true } });
    try {
      const got = await received(async () => {
        const plan = (await s.call('groups_create', { name: 'Tried' })).doc.plan;
        expect(plan.requests[0].url).toBe('http://sandbox.mailctl.invalid/campaign/v1/contacts/lists/insert');
        expect((await s.call('groups_create', { name: 'Tried', confirm: plan.token })).isError).toBe(false);
        const list = await s.call('groups_list', {});
        expect(JSON.stringify(list.doc)).toContain('Tried');
      });
      expect(got).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
