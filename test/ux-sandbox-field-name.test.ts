// `sandbox field add 'bad name' string` used to reach the sandbox and come back as "the campaign
// service refused … (HTTP 400)", exit 1. A name that cannot be a field is bad input: exit 2,
// nothing sent, with the rule and an example.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('sandbox field add NAME', () => {
  it('a name that is not letters, digits and _ is refused locally, exit 2, nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    for (const name of ['bad name', '9LIVES', 'A'.repeat(65)]) {
      const r = await runCli(['sandbox', 'field', 'add', name, 'string'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`"${name}" is not a field name: it must start with a letter`);
      expect(r.stderr).toContain('sandbox field add TIER string');
    }
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a good name still goes through', async () => {
    const r = await runCli(['--json', 'sandbox', 'field', 'add', 'Tier_2', 'string'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Tier_2', type: 'string' });
  });
});
