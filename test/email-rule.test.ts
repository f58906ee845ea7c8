// One rule for an email address across mailctl (src/core/email.ts): an address is accepted or
// refused the same way whether it is a contact, a recipient, a sender or a profile default.
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import fs from 'node:fs';
import path from 'node:path';

const sb = useSandbox(); // every command here is refused locally or a dry run: no request at all

async function verdicts(address: string): Promise<Record<string, number>> {
  const dir = tempDir();
  const csv = path.join(dir, 'c.csv');
  fs.writeFileSync(csv, `EMAIL,NAME\n${address},A\n`);
  const run = async (argv: string[]) => (await runCli(argv, { sandbox: sb.get(), configDir: dir })).exitCode;
  return {
    import: await run(['import', csv, '--group', 'G', '--dry-run', '--strict']),
    send: await run(['send', '--to', address, '--subject', 's', '--html', 'h', '--from', 'noreply@example.com', '--dry-run']),
    sender: await run(['send', '--to', 'a@example.com', '--subject', 's', '--html', 'h', '--from', address, '--dry-run']),
    automation: await run(['automation', 'trigger', '--workflow', 'w', '--to', address, '--dry-run']),
    profile: await run(['config', 'set', 'from-address', address]),
  };
}

describe('one email rule', () => {
  it.each(['ann.o+tag@mail.example.co.uk', 'b_b@example.org', 'user@xn--e1afmkfd.xn--p1ai', 'user@example.XN--P1AI'])('%s is accepted everywhere', async (a) => {
    expect(Object.values(await verdicts(a))).toEqual([0, 0, 0, 0, 0]);
  });
  it.each(['x@example.c', 'x@example.xn--', 'x@example.xn--p1ai-', 'a..b@example.com', 'no-at.example.com', 'two@@example.com'])('%s is refused everywhere (exit 2)', async (a) => {
    expect(Object.values(await verdicts(a))).toEqual([2, 2, 2, 2, 2]);
  });
});
