// `mailctl domain add|verify|remove` (decisions row 21): zone-file records to paste, verification,
// removal behind a confirmation; `domain verify` of a domain that was never added gives the
// service's reason in one sentence and a hint that names the command that adds it.
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({
  expect: [
    'DELETE /notify/v1/domains/:domain',
    'POST /notify/v1/domains/:domain',
    'PUT /notify/v1/domains/:domain',
  ],
});
const last = (p: string) => sb.get().sandbox.requests('notify').filter((r) => r.path === p).at(-1)!;

describe('domain verify', () => {
  it('a domain never added: exit 1, the reason once, and `mailctl domain add` as the fix', async () => {
    const r = await runCli(['domain', 'verify', 'never.example.org'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: never\.example\.org is not verified: [^\n]*[^.]\.\n/);
    expect(r.stderr).not.toContain('refused PUT');
    expect(r.stderr).toContain('mailctl domain add never.example.org');
  });
});

describe('domain verify reads every record\'s `valid` (decisions row 28, the vendor\'s reference)', () => {
  it('some records not in place: exit 1, "not verified yet", and only those records printed to publish', async () => {
    await runCli(['domain', 'add', 'partial.acme.test'], { sandbox: sb.get() });
    const r = await runCli(['domain', 'verify', 'partial.acme.test'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('partial.acme.test is not verified yet: the service found 2 of its 3 DNS records not in place (listed above).');
    expect(r.stdout).not.toContain('✓');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('; still to publish for partial.acme.test (the service found these not in place)');
    // The first record (the SPF TXT on the domain itself) was found; the other two are listed.
    expect(lines.slice(1)).toHaveLength(2);
    expect(lines.slice(1).some((l) => /^partial\.acme\.test\.\s/.test(l))).toBe(false);
    expect(lines.some((l) => /^track\.partial\.acme\.test\.\s+3600\s+IN\s+CNAME/.test(l))).toBe(true);
  });

  it('--json: one document with every record, those pending, and the error; exit 1', async () => {
    await runCli(['domain', 'add', 'nodns2.acme.test'], { sandbox: sb.get() });
    const r = await runCli(['domain', 'verify', 'nodns2.acme.test', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ domain: 'nodns2.acme.test', verified: false, error: { code: 'REFUSED', exitCode: 1 } });
    expect(doc.records).toHaveLength(3);
    expect(doc.pending).toHaveLength(3);
    expect(doc.error.message).toContain('is not verified yet');
  });

  it('every record valid: verified (exit 0); --json carries the records', async () => {
    await runCli(['domain', 'add', 'ok.acme.test'], { sandbox: sb.get() });
    const r = await runCli(['domain', 'verify', 'ok.acme.test', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ domain: 'ok.acme.test', verified: true });
    expect(doc.records.every((x: { valid: boolean }) => x.valid)).toBe(true);
  });
});

describe('mailctl domain', () => {
  it('domain add prints zone-file records; verify and remove (with --yes or a confirmation)', async () => {
    const add = await runCli(['domain', 'add', 'Mail.Acme.test'], { sandbox: sb.get() });
    expect(add.exitCode).toBe(0);
    expect(last('/v1/domains/mail.acme.test').method).toBe('POST');
    const lines = add.stdout.trim().split('\n');
    expect(lines[0]).toBe('; mailctl domain add mail.acme.test');
    expect(lines[1]).toMatch(/^mail\.acme\.test\.\s+3600\s+IN\s+TXT\s+"v=spf1 [^"]+"$/);
    expect(lines.some((l) => /^track\.mail\.acme\.test\.\s+3600\s+IN\s+CNAME\s+\S+\.$/.test(l))).toBe(true);
    expect((await runCli(['domain', 'add', 'https://x.com'], { sandbox: sb.get() })).exitCode).toBe(2);

    const v = await runCli(['domain', 'verify', 'mail.acme.test'], { sandbox: sb.get() });
    expect(v.exitCode).toBe(0);
    await runCli(['domain', 'add', 'nodns.acme.test'], { sandbox: sb.get() });
    const nv = await runCli(['domain', 'verify', 'nodns.acme.test'], { sandbox: sb.get() });
    expect(nv.exitCode).toBe(1);
    expect(nv.stderr).toContain('nodns.acme.test is not verified');

    expect((await runCli(['domain', 'remove', 'mail.acme.test'], { sandbox: sb.get() })).exitCode).toBe(2);
    const rm = await runCli(['domain', 'remove', 'mail.acme.test'], { sandbox: sb.get(), tty: true, prompter: scriptedPrompter([true]) });
    expect(rm.exitCode).toBe(0);
    expect(last('/v1/domains/mail.acme.test').method).toBe('DELETE');
    const help = await runCli(['domain', 'add', '--help']);
    expect(help.stdout).toContain('public material');
  });
});
