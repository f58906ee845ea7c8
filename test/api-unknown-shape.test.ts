// Every command that reads an answer of the services, against a sandbox that wraps every answer in
// a key nobody documents (`sandbox serve --shape unknown`, {"unexpected": …}): each must fail with
// BAD_RESPONSE (exit 1) naming the endpoint, never print "nothing" with exit 0 (decisions row 34;
// issue 19 item 2). The list comes from the command tree: every runnable command is classified
// below, so a new command fails this file until someone says whether, and how, it reads one.
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, campaignBody, pollUntil } from './helpers/campaign-api.js';

const sb = useSandbox({
  shapes: 'unknown',
  expect: [
    'GET /campaign/v1/balance', 'GET /campaign/v1/campaign/normal/:sn', 'POST /campaign/v1/campaign/normal/submit', 'GET /campaign/v1/contacts/imports/result/:importSn',
    'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert',
    'GET /campaign/v1/report/campaigns', 'POST /campaign/v1/report/campaigns/metrics', 'GET /campaign/v1/report/:sn/link',
    'GET /campaign/v1/templates', 'GET /campaign/v1/templates/:id', 'POST /campaign/v1/automation/event',
    'GET /notify/v1/events', 'GET /notify/v1/sms/events', 'GET /notify/v1/webhooks', 'GET /notify/v1/sms/webhooks', 'POST /notify/v1/webhooks',
    'GET /notify/v1/sms/exclusive-number', 'POST /notify/v1/messages', 'POST /notify/v1/domains/:domain', 'PUT /notify/v1/domains/:domain',
  ],
});
const api = campaignApi(sb.get);
let importSn = '';
let campaignSn = '';

/** Reads: what to run so the command reads an answer (argv after `mailctl`). Each must exit 1, BAD_RESPONSE. */
const READS: Record<string, () => string[]> = {
  'import status': () => ['import', 'status', importSn],
  'groups list': () => ['groups', 'list'],
  'campaign status': () => ['campaign', 'status', 'CP_ANY'],
  // --all: the service's finished campaigns (no campaign was created here, so the list has none of its own)
  'campaign list': () => ['campaign', 'list', '--all'],
  'campaign preflight': () => ['campaign', 'preflight', '--name', 'N', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'A', '--template', 'tpl_welcome'],
  'report list': () => ['report', 'list'],
  'report metrics': () => ['report', 'metrics', campaignSn],
  'report links': () => ['report', 'links', campaignSn],
  'template list': () => ['template', 'list'],
  'template show': () => ['template', 'show', 'tpl_welcome'],
  balance: () => ['balance'],
  'webhook list': () => ['webhook', 'list'],
  events: () => ['events', '--recipient', 'a@example.com'],
  'events tail': () => ['events', 'tail', '--recipient', 'a@example.com', '--for', '1m'],
  'sms numbers': () => ['sms', 'numbers'],
};
/** Other ways in to an endpoint a read command reaches: SMS lists and lookups. */
const MORE_READS: string[][] = [
  ['webhook', 'list', '--sms'],
  ['events', '--sms', '--recipient', '0912345678', '--country-code', '886'],
];
/** Writes whose answer is read: never reported done; exit other than 0, the shape named. */
const WRITES_READING: Record<string, () => string[]> = {
  'groups create': () => ['groups', 'create', 'Unknown answers'],
  'domain add': () => ['domain', 'add', 'mail.example.org'],
  'domain verify': () => ['domain', 'verify', 'mail.example.org'],
  'webhook set': () => ['webhook', 'set', 'delivery', 'https://hooks.example.com/d'],
  'send email': () => ['send', '--to', 'a@example.com', '--from', 'news@example.com', '--subject', 'S', '--html', '<p>x</p>'],
  'automation trigger': () => ['automation', 'trigger', '--workflow', 'w', '--to', 'a@example.com'],
  'contacts remove': () => ['contacts', 'remove', '--group', 'G', '--email', 'a@example.com', '--yes'],
  'campaign create': () => ['campaign', 'create', '--name', 'N', '--group', 'G', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'A', '--html', '<p>x</p>'],
};
/** Commands that read no answer of the services, or whose reads are the ones above (with why). */
const NOT_HERE = [
  // local only (the listener's event store: events export and prune)
  'events export', 'events prune', 'campaign timezones', 'webhook verify', 'webhook listen', 'webhook trigger', 'webhook replay', 'config get', 'config list', 'config profiles', 'config path',
  'config set', 'config unset', 'config set-key', 'config use', 'config delete-profile', 'completion', 'sandbox serve', 'sandbox reset',
  // the sandbox's own back office, which no real service has (never wrapped)
  'sandbox field list', 'sandbox field add', 'sandbox balance',
  // checks its keys with balance and webhook list: its own test below
  'doctor',
  // their first read is one of the endpoints above (a group, campaign or template lookup, the balance)
  'import', 'contacts clean', 'campaign pause', 'campaign delete', 'campaign proof', 'report export', 'report sync',
  'automation terminate', 'send sms', 'domain remove', 'webhook delete', 'campaign preview',
  // its tools run the commands above
  'mcp',
];

function runnable(): string[] {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out: string[] = [];
  const walk = (c: Command, names: string[]) => {
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler) out.push(names.join(' '));
    for (const s of c.commands) walk(s, [...names, s.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

beforeAll(async () => {
  // An import that exists, made over plain HTTP (its answer wrapped too).
  const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Unknown' })).json.unexpected.sn;
  importSn = (await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\na@example.com,A' })).json.unexpected.importSn;
  expect(importSn).toMatch(/^IM/);
  await pollUntil(() => api.get(`/v1/contacts/imports/result/${importSn}`), (x) => x.json?.unexpected?.status === 'COMPLETE');
  // A campaign that exists, so the report endpoints answer (a code with none is refused, 403).
  campaignSn = (await api.post('/v1/campaign/normal/submit', campaignBody([sn]))).json.unexpected.sn;
  expect(campaignSn).toMatch(/^CP/);
});

describe('the command tree is classified', () => {
  it('every runnable command is a read, a write that reads an answer, or named as neither', () => {
    const classified = [...Object.keys(READS), ...Object.keys(WRITES_READING), ...NOT_HERE];
    expect(new Set(classified).size).toBe(classified.length);
    expect(runnable().sort()).toEqual(classified.sort());
  });
});

describe('an answer in a shape nobody documents', () => {
  it.each(Object.keys(READS))('%s: exit 1, BAD_RESPONSE naming the endpoint, nothing on stdout but the error', async (name) => {
    const r = await runCli([...READS[name](), '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; endpoint: string; message: string } };
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.endpoint).toMatch(/^(GET|POST|PUT) \/v1\//);
    expect(error.message).toContain('in a shape mailctl does not know: ');
    expect(error.message).toContain('"unexpected"');
  });

  it.each(MORE_READS)('%s …: exit 1, BAD_RESPONSE', async (...argv) => {
    const r = await runCli([...argv, '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('BAD_RESPONSE');
  });

  it.each(Object.keys(WRITES_READING))('%s: not exit 0, the unknown answer named, nothing said done', async (name) => {
    const r = await runCli(WRITES_READING[name](), { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('in a shape mailctl does not know');
    expect(r.stdout + r.stderr).not.toMatch(/✓|1 of 1 accepted|Started 1 of 1/);
  });

  it('doctor: each key check fails as answered but not as documented (exit 1), not "unreachable"', async () => {
    const r = await runCli(['doctor', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as { checks: Array<{ check: string; status: string; detail: string }> };
    for (const service of ['campaign', 'notify']) {
      expect(doc.checks.find((c) => c.check === `${service} key`)).toMatchObject({ status: 'fail', detail: expect.stringContaining('answered, but not as documented') });
    }
  });
});
