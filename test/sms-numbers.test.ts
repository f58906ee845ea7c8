// `mailctl sms numbers`: the account's exclusive SMS numbers (spec 001).
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({ expect: ['GET /notify/v1/sms/exclusive-number'] });
const last = (p: string) => sb.get().sandbox.requests('notify').filter((r) => r.path === p).at(-1)!;

describe('mailctl sms numbers', () => {
  it('sms numbers lists the exclusive numbers', async () => {
    const r = await runCli(['sms', 'numbers', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).phoneNumbers.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual(['0911000111', '0911000222']);
    expect(last('/v1/sms/exclusive-number').method).toBe('GET');
  });
});
