// `domain verify` of a domain that was never added: the service's reason in one sentence, and
// a hint that names the command that adds it.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('domain verify', () => {
  it('a domain never added: exit 1, the reason once, and `mailctl domain add` as the fix', async () => {
    const r = await runCli(['domain', 'verify', 'never.example.org'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: never\.example\.org is not verified: [^\n]*[^.]\.\n/);
    expect(r.stderr).not.toContain('refused PUT');
    expect(r.stderr).toContain('mailctl domain add never.example.org');
  });
});
