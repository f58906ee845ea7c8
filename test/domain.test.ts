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
