// "writes take --dry-run" (the shared interface): the command runs as usual over the recording
// transport (src/api/recorder.ts), so each write shows exactly the request the client builds —
// every header, key masked — and nothing is sent: no key is needed, and no request of any kind
// is made, not even the reads a write needs (shown as lookups).
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { startConsumer, type Consumer } from './helpers/webhook-consumer.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { NOUNS } from '../commands/index.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { DRY_RUN_KEY, DryRunRecorder } from '../src/api/recorder.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/contacts/lists'] });

const cases: Array<[string[], 'campaign' | 'notify', string, string, unknown?]> = [
  [['groups', 'create', 'Newsletter'], 'campaign', 'POST', '/v1/contacts/lists/insert', { name: 'Newsletter' }],
  [['campaign', 'pause', 'CP1'], 'campaign', 'PATCH', '/v1/campaign/normal/CP1'],
  [['campaign', 'delete', 'CP1', 'CP2'], 'campaign', 'DELETE', '/v1/campaign/normal', { campaignSnList: ['CP1', 'CP2'] }],
  [['report', 'export', 'CP1'], 'campaign', 'POST', '/v1/report/CP1/export', {}],
  [['webhook', 'set', 'open', 'https://hooks.example.com/o'], 'notify', 'POST', '/v1/webhooks', { type: 4, url: 'https://hooks.example.com/o' }],
  [['webhook', 'delete', 'bounce', '--sms'], 'notify', 'DELETE', '/v1/sms/webhooks', { type: 6 }],
  [['domain', 'add', 'mail.example.org'], 'notify', 'POST', '/v1/domains/mail.example.org'],
  [['domain', 'verify', 'mail.example.org'], 'notify', 'PUT', '/v1/domains/mail.example.org'],
  [['domain', 'remove', 'mail.example.org'], 'notify', 'DELETE', '/v1/domains/mail.example.org'],
];

describe('--dry-run on every write', () => {
  it.each(cases)('%j shows %s %s %s and sends nothing', async (argv, service, method, path, body) => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli([...argv, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    const base = service === 'campaign' ? sb.get().campaignUrl : sb.get().notifyUrl;
    expect(doc.requests).toEqual([expect.objectContaining({ method, url: `${base}${path}` })]);
    // The headers the client sends, accept included; content-type only with a body.
    const headers = { accept: 'application/json', 'x-api-key': `${SANDBOX_KEYS[service].slice(0, 4)}…${SANDBOX_KEYS[service].slice(-2)}` };
    expect(doc.requests[0].headers).toEqual(body === undefined ? headers : { ...headers, 'content-type': 'application/json' });
    if (body !== undefined) expect(doc.requests[0].body).toEqual(body);
    expect(r.stdout + r.stderr).not.toContain(SANDBOX_KEYS[service]);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

/** Every runnable command that declares --dry-run, as "noun verb". */
function dryRunCommands(): string[] {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out: string[] = [];
  const walk = (c: Command, names: string[]) => {
    const runnable = (c as unknown as { _actionHandler?: unknown })._actionHandler;
    if (runnable && c.options.some((o) => o.long === '--dry-run')) out.push(names.join(' '));
    for (const sub of c.commands) walk(sub, [...names, sub.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out.sort();
}

describe('every write with --dry-run: no key, and not one request', () => {
  let failing: RunningSandbox;
  let consumer: Consumer;
  const dir = tempDir('mailctl-dry-all-');
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const contacts = file('contacts.csv', 'EMAIL,NAME\nann@example.com,Ann\nbob@example.com,Bob\n');
  const stored = { receivedAt: '2024-05-01T12:00:00.000Z', event: 'delivery', id: 'm1', channel: 'email', signatureHeader: 'x-service-signature', payload: { event: 'delivery', mail: { id: 'm1', subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: 'b@example.com', variables: {} }, delivery: { timestamp: 1714564800000 } } };
  const events = file('events.jsonl', `${JSON.stringify(stored)}\n`);
  const message = ['--name', 'N', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme'];
  const campaign = [...message, '--html', '<p>x <a href="https://example.com/x">x</a></p>'];

  /** Each write as a user would run it; `api` when it goes to a service (not a local change or a consumer). */
  const cases: Record<string, { argv: () => string[]; api: boolean }> = {
    'automation terminate': { argv: () => ['automation', 'terminate', '--workflow', 'w1', '--to', 'ann@example.com'], api: true },
    'automation trigger': { argv: () => ['automation', 'trigger', '--workflow', 'w1', '--to', 'ann@example.com', '--var', 'plan=gold'], api: true },
    'campaign create': { argv: () => ['campaign', 'create', ...campaign, '--group', 'Newsletter', '--exclude', 'LS9'], api: true },
    'campaign delete': { argv: () => ['campaign', 'delete', 'CP1', 'CP2'], api: true },
    'campaign pause': { argv: () => ['campaign', 'pause', 'CP1'], api: true },
    'campaign proof': { argv: () => ['campaign', 'proof', ...message, '--template', 'tpl_welcome', '--to', 'me@example.com'], api: true },
    'config delete-profile': { argv: () => ['config', 'delete-profile', 'ops'], api: false },
    'config set': { argv: () => ['config', 'set', 'from-address', 'news@example.com'], api: false },
    'config set-key': { argv: () => ['config', 'set-key', '--with-key-stdin'], api: false },
    'config unset': { argv: () => ['--profile', 'ops', 'config', 'unset', 'from-name'], api: false },
    'config use': { argv: () => ['config', 'use', 'ops'], api: false },
    'contacts clean': { argv: () => ['contacts', 'clean', '--group', 'Newsletter', '--since', '3d'], api: true },
    'contacts remove': { argv: () => ['contacts', 'remove', '--group', 'Newsletter', '--email', 'ann@example.com'], api: true },
    'domain add': { argv: () => ['domain', 'add', 'mail.example.org'], api: true },
    'domain remove': { argv: () => ['domain', 'remove', 'mail.example.org'], api: true },
    'domain verify': { argv: () => ['domain', 'verify', 'mail.example.org'], api: true },
    'events prune': { argv: () => ['events', 'prune', '--older-than', '400d', '--store', `sqlite:${path.join(dir, 'events.db')}`], api: false }, // counts in a local store
    'groups create': { argv: () => ['groups', 'create', 'Newsletter'], api: true },
    import: { argv: () => ['import', contacts, '--group', 'Newsletter'], api: true }, // the file checked, then the group lookup and the import shown
    'report export': { argv: () => ['report', 'export', 'CP1', '--webhook-url', 'https://hooks.example.com/r'], api: true },
    'report links': { argv: () => ['report', 'links', 'CP1', '--out-dir', path.join(dir, 'links')], api: false }, // a lookup, then downloads: listed, not made
    'report sync': { argv: () => ['report', 'sync', '--out-dir', path.join(dir, 'reports')], api: false }, // nothing known in DIR: only the listing lookup
    'sandbox balance': { argv: () => ['sandbox', 'balance', '--set-email', '5'], api: true },
    'sandbox field add': { argv: () => ['sandbox', 'field', 'add', 'TIER', 'string'], api: true },
    'sandbox reset': { argv: () => ['sandbox', 'reset'], api: false },
    'send email': { argv: () => ['send', '--to', 'ann@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>', '--from', 'noreply@example.com'], api: true },
    'send sms': { argv: () => ['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text', '[Acme] your code 1234'], api: true },
    'webhook delete': { argv: () => ['webhook', 'delete', 'open'], api: true },
    'webhook replay': { argv: () => ['webhook', 'replay', events, '--url', consumer.url], api: false },
    'webhook set': { argv: () => ['webhook', 'set', 'open', 'https://hooks.example.com/o'], api: true },
    'webhook trigger': { argv: () => ['webhook', 'trigger', 'click', '--url', consumer.url], api: false },
  };

  beforeAll(async () => {
    failing = await startTestSandbox({ expect: [] }); // a dry run sends nothing: any request fails the file
    // Any request that reached it would fail the command as well as the count below.
    failing.sandbox.injectFault({ kind: 'status', status: 500, times: Number.POSITIVE_INFINITY });
    consumer = await startConsumer(() => ({ status: 500 }));
    // An event store for events prune to count in (made as webhook listen makes it).
    await (await openStore(storeLocation(`sqlite:${path.join(dir, 'events.db')}`, dir), { create: true })).close();
  });
  afterAll(async () => {
    await failing.close();
    await consumer.close();
  });

  it('the table covers every command that declares --dry-run', () => {
    expect(Object.keys(cases).sort()).toEqual(dryRunCommands());
  });

  it.each(Object.keys(cases))('%s', async (name) => {
    const configDir = tempDir('mailctl-dry-cfg-');
    // A profile to name (config use / unset / delete-profile), and no API key anywhere.
    expect((await runCli(['--profile', 'ops', 'config', 'set', 'from-name', 'Ops'], { configDir })).exitCode).toBe(0);
    const env = { MAILCTL_CAMPAIGN_URL: failing.campaignUrl, MAILCTL_NOTIFY_URL: failing.notifyUrl };
    const r = await runCli([...cases[name].argv(), '--dry-run', '--json'], { configDir, env, stdin: 'a-key-for-the-dry-run\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(failing.sandbox.requests()).toEqual([]);
    expect(consumer.got).toEqual([]);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(true);
    if (cases[name].api) {
      expect(doc.requests.length).toBeGreaterThan(0);
      for (const q of [...doc.requests, ...doc.lookups]) {
        expect(q.url).toMatch(new RegExp(`^(${failing.campaignUrl}|${failing.notifyUrl})/|^\\(`));
        if (!q.url.startsWith('(')) expect(q.headers).toMatchObject({ accept: 'application/json', 'x-api-key': '(your key)' });
      }
    }
    // With --sandbox too: the in-process emulator is not even created.
    const inProcess = await runCli(['--sandbox', ...cases[name].argv(), '--dry-run', '--json'], { configDir, stdin: 'a-key-for-the-dry-run\n' });
    expect(inProcess.exitCode, inProcess.stderr).toBe(0);
    expect(fs.existsSync(path.join(configDir, 'sandbox'))).toBe(false);
  });
});

describe('reads a write needs: shown as lookups, answered by marked placeholders', () => {
  const dir = tempDir('mailctl-dry-reads-');
  const list = path.join(dir, 'list.csv');
  fs.writeFileSync(list, 'EMAIL,NAME\nann@example.com,Ann\n');
  const message = ['--name', 'N', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme'];

  it('campaign create --template: the template lookup, then the submit with a placeholder for its html', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['campaign', 'create', ...message, '--group', 'LS1', '--template', 'tpl_welcome', '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.lookups.map((l: { url: string }) => l.url)).toEqual([
      `${sb.get().campaignUrl}/v1/templates/tpl_welcome`,
      `${sb.get().campaignUrl}/v1/contacts/lists?page=0&size=100`,
      `${sb.get().campaignUrl}/v1/balance`,
    ]);
    expect(doc.lookups[0].why).toContain('template tpl_welcome');
    expect(doc.requests[0].body.content.htmlContent).toBe('(dry run: the html of template tpl_welcome, which a real run reads first)');
    expect(doc.requests[0].body.form.selectedLists).toEqual(['LS1']);
    expect(r.stderr).toContain("the template's html is not read");
    expect(sb.get().sandbox.requests()).toHaveLength(before);
  });

  it('campaign create --recipients-file: the submit, then the upload to the address only its answer gives, with the headers a real upload sends', async () => {
    const r = await runCli(['campaign', 'create', ...message, '--html', '<p>x</p>', '--recipients-file', list, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.requests.map((q: { method: string; url: string }) => `${q.method} ${q.url}`)).toEqual([
      `POST ${sb.get().campaignUrl}/v1/campaign/normal/once`,
      'PUT (the preSignedUrl in the answer)',
    ]);
    expect(doc.requests[1].headers).toEqual({ 'content-type': 'text/csv; charset=utf-8', 'content-length': String(fs.statSync(list).size) });
    expect(doc.lookups).toEqual([]);
  });

  it('--wizard with --dry-run is refused (exit 2): the wizard offers groups it would have to read', async () => {
    const r = await runCli(['campaign', 'create', '--wizard', '--dry-run'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--dry-run makes no request');
  });

  it('-v traces nothing under --dry-run (no answer ever comes); the dry run itself shows the requests', async () => {
    const r = await runCli(['-v', 'groups', 'create', 'Traced', '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toMatch(/[→←]/);
    expect(r.stdout).toContain(`POST ${sb.get().campaignUrl}/v1/contacts/lists/insert`);
  });
});

describe('the dry run\'s header', () => {
  it('reads the same whether the requests were recorded, built by the command, or follow lookups', async () => {
    const first = async (argv: string[]) => {
      const r = await runCli([...argv, '--dry-run'], { sandbox: sb.get() });
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stderr.split('\n')[0];
    };
    const header = 'Dry run: nothing was sent. A real run would make these requests, in order:';
    expect(await first(['groups', 'create', 'Header', '--allow-duplicate'])).toBe(header);
    expect(await first(['webhook', 'trigger', 'open', '--url', 'http://127.0.0.1:9/hooks'])).toBe(header);
    // Lookups add their sentence, and only that.
    expect(await first(['campaign', 'pause', 'CP1'])).toBe('Dry run: nothing was sent, lookups included (marked "#": their answers are unknown here). A real run would make these requests, in order:');
  });
});

describe('the recording transport', () => {
  it('shows a keyless link without its signature, and a file body by its size', async () => {
    const rec = new DryRunRecorder(() => 'masked');
    const body = new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode('EMAIL,NAME\n')); c.close(); } });
    const res = await rec.fetch('https://uploads.example.com/b/k?X-Amz-Signature=secret&X-Amz-Expires=60', { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream', 'content-length': '11' }, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(204);
    expect(rec.requests).toEqual([{ method: 'PUT', url: 'https://uploads.example.com/b/k?(signature hidden)', headers: { 'content-type': 'application/octet-stream', 'content-length': '11' }, body: '(11 bytes)' }]);
    expect(JSON.stringify(rec.requests)).not.toContain('secret');
  });

  it('masks a configured key and shows the placeholder key as "(your key)"; GETs are lookups', async () => {
    const rec = new DryRunRecorder((k) => `${k.slice(0, 2)}…`);
    await rec.fetch('https://api.example.com/v1/x', { method: 'POST', headers: { 'x-api-key': 'real-key-123', 'content-type': 'application/json' }, body: '{"a":1}' });
    await rec.lookup('why', () => rec.fetch('https://api.example.com/v1/y', { headers: { 'x-api-key': DRY_RUN_KEY } }));
    expect(rec.requests).toEqual([{ method: 'POST', url: 'https://api.example.com/v1/x', headers: { 'content-type': 'application/json', 'x-api-key': 're…' }, body: { a: 1 } }]);
    expect(rec.lookups).toEqual([{ method: 'GET', url: 'https://api.example.com/v1/y', headers: { 'x-api-key': '(your key)' }, why: 'why' }]);
  });
});

describe('an unknown group', () => {
  it('contacts remove names the fix it has (no --create-group, which only import offers)', async () => {
    const r = await runCli(['contacts', 'remove', '--group', 'Nope', '--email', 'a@example.com', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('No group has the name or code "Nope"');
    expect(r.stderr).not.toContain('--create-group');
    const imp = await runCli(['import', '-', '--group', 'Nope', '--no-wait'], { sandbox: sb.get(), stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(imp.exitCode).toBe(2);
    expect(imp.stderr).toContain('--create-group');
  });
});
