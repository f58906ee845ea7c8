// decisions row 26: a variable value that starts with a digit (a verification code, a zip code)
// gets the same treatment in `send`, `send sms` and `automation` — one warning per run naming
// the variables and how many recipients, and the run goes on; `--strict` refuses it before
// any request (exit 2, nothing sent).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({
  expect: [
    'POST /campaign/v1/automation/event',
    'GET /campaign/v1/balance',
    'POST /notify/v1/messages',
    'POST /notify/v1/sms/messages',
  ],
});

function file(header: string, rows: string[]): string {
  const f = path.join(tempDir('mailctl-vars-'), 'r.csv');
  fs.writeFileSync(f, [header, ...rows].join('\n') + '\n');
  return f;
}

const commands: Array<[string, (p: string) => string[], string]> = [
  ['send', (p) => ['send', '--recipients', file('address,code,zip,plan', [`${p}a@example.com,042917,10491,pro`, `${p}b@example.com,A1,2050,pro`, `${p}c@example.com,B2,C3,basic`]), '--subject', 'Code {{code}}', '--html', '<p>{{code}} {{zip}} {{plan}}</p>', '--from', 'noreply@example.com'], '/v1/messages'],
  ['send sms', (p) => ['send', 'sms', '--recipients', file('phone,code,zip,plan', [`09${p}0001,042917,10491,pro`, `09${p}0002,A1,2050,pro`, `09${p}0003,B2,C3,basic`]), '--country-code', '886', '--text', '【Acme】{{code}} {{zip}} {{plan}}'], '/v1/sms/messages'],
  ['automation trigger', (p) => ['automation', 'trigger', '--workflow', 'w', '--recipients', file('email,code,zip,plan', [`${p}a@example.com,042917,10491,pro`, `${p}b@example.com,A1,2050,pro`, `${p}c@example.com,B2,C3,basic`])], '/v1/automation/event'],
];

const posts = (p: string) => sb.get().sandbox.requests().filter((r) => r.method === 'POST' && r.path === p);

describe('values starting with a digit (decisions row 26)', () => {
  it.each(commands)('%s: one warning naming the variables and counting the recipients; sent', async (_name, argv, p) => {
    const before = posts(p).length;
    const r = await runCli(argv(String(Math.floor(Math.random() * 90) + 10)), { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('start with a digit'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('2 recipients have variable values that start with a digit (code, zip)');
    expect(warnings[0]).toContain('--strict');
    expect(posts(p).length).toBe(before + 1);
  });

  it.each(commands)("%s --strict: refused before any request, exit 2", async (_name, argv) => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli([...argv('77'), '--strict'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('2 recipients have variable values that start with a digit (code, zip), and --strict refuses them');
    expect(r.stderr).toContain('Nothing was sent');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});
