// "writes take --dry-run" (the shared interface): each write shows the exact request, key
// masked, and the sandbox receives nothing.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

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
    if (body !== undefined) expect(doc.requests[0].body).toEqual(body);
    expect(r.stdout + r.stderr).not.toContain(SANDBOX_KEYS[service]);
    expect(sb.get().sandbox.requests().length).toBe(before);
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
