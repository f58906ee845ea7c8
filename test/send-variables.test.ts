// decisions row 26 (revised from the vendor's reference): a variable NAME that starts with a digit
// or holds an operator is refused before any request (exit 2, nothing sent) in `send`, `send sms`
// and `automation` alike; a VALUE is never judged by its first character — 042917 is a login
// code, sent as it is with no warning.
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
  ['send', (p) => ['send', '--recipients-file', file('address,code,zip,plan', [`${p}a@example.com,042917,10491,pro`, `${p}b@example.com,A1,2050,pro`, `${p}c@example.com,B2,C3,basic`]), '--subject', 'Code {{code}}', '--html', '<p>{{code}} {{zip}} {{plan}}</p>', '--from', 'noreply@example.com'], '/v1/messages'],
  ['send sms', (p) => ['send', 'sms', '--recipients-file', file('phone,code,zip,plan', [`09${p}0001,042917,10491,pro`, `09${p}0002,A1,2050,pro`, `09${p}0003,B2,C3,basic`]), '--country-code', '886', '--text', '【Acme】{{code}} {{zip}} {{plan}}'], '/v1/sms/messages'],
  ['automation trigger', (p) => ['automation', 'trigger', '--workflow', 'w', '--recipients-file', file('email,code,zip,plan', [`${p}a@example.com,042917,10491,pro`, `${p}b@example.com,A1,2050,pro`, `${p}c@example.com,B2,C3,basic`])], '/v1/automation/event'],
];

const posts = (p: string) => sb.get().sandbox.requests().filter((r) => r.method === 'POST' && r.path === p);

describe('values starting with a digit are fine (decisions row 26)', () => {
  it.each(commands)('%s: sent as given, with no warning', async (_name, argv, p) => {
    const before = posts(p).length;
    const r = await runCli(argv(String(Math.floor(Math.random() * 90) + 10)), { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toMatch(/digit/);
    expect(posts(p).length).toBe(before + 1);
    const sent = (posts(p).at(-1)!.body as { recipients: Array<{ variables?: Record<string, string> }> }).recipients;
    expect(sent[0].variables).toMatchObject({ code: '042917', zip: '10491' });
  });

  it.each(commands)('%s --strict: no such flag any more (it refused digit-led values); a usage error, nothing sent', async (_name, argv) => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli([...argv('77'), '--strict'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--strict'");
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

// Names the service refuses, from a recipients file (a column) and from --var, in each command.
const badNames: Array<[string, (p: string, col: string) => string[]]> = [
  ['send', (p, col) => ['send', '--recipients-file', file(`address,${col}`, [`${p}n@example.com,x`]), '--subject', 'Hi', '--html', '<p>hi</p>', '--from', 'noreply@example.com']],
  ['send sms', (p, col) => ['send', 'sms', '--recipients-file', file(`phone,${col}`, [`09${p}1111,x`]), '--country-code', '886', '--text', '【Acme】hi']],
  ['automation trigger', (p, col) => ['automation', 'trigger', '--workflow', 'w', '--recipients-file', file(`email,${col}`, [`${p}n@example.com,x`])]],
  ['send --var', (p, col) => ['send', '--to', `${p}v@example.com`, '--var', `${col}=x`, '--subject', 'Hi', '--html', '<p>hi</p>', '--from', 'noreply@example.com']],
  ['automation --var', (p, col) => ['automation', 'terminate', '--workflow', 'w', '--to', `${p}v@example.com`, '--var', `${col}=x`]],
];

describe('names that start with a digit or hold an operator are refused (decisions row 26)', () => {
  it.each(badNames)('%s: exit 2, the name and its fault named, nothing sent', async (_name, argv) => {
    for (const [col, fault] of [['1st', 'starts with a digit'], ['a+b', 'holds an operator'], ['price*2', 'holds an operator']]) {
      const before = sb.get().sandbox.requests().length;
      const r = await runCli(argv(String(Math.floor(Math.random() * 90) + 10), col), { sandbox: sb.get() });
      expect(r.exitCode, col).toBe(2);
      expect(r.stderr).toContain(`"${col}" (${fault})`);
      expect(r.stderr).toContain('Nothing was sent.');
      expect(sb.get().sandbox.requests().length).toBe(before);
    }
  });
});

describe('one --var name given twice is refused, not silently the last (issue 19 item 3)', () => {
  const argvs: Array<[string, string[]]> = [
    ['send', ['send', '--to', 'a@example.com', '--subject', 's', '--html', '<p>{{a}}</p>', '--from', 'noreply@example.com']],
    ['send sms', ['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text', '【Acme】{{a}}']],
    ['automation trigger', ['automation', 'trigger', '--workflow', 'w', '--to', 'a@example.com']],
    ['campaign proof', ['campaign', 'proof', '--to', 'a@example.com', '--subject', 'S ${a}', '--html', '<p>x</p>', '--from', 'news@example.com', '--from-name', 'N']],
  ];
  it.each(argvs)('%s: exit 2 naming it and both values, nothing sent', async (_name, argv) => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli([...argv, '--var', 'a=1', '--var', 'a=2'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--var a is given twice ("1" and "2").');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

describe('a value from the file reaches the terminal only through the sanitiser', () => {
  it('send: the "mathematical expression" warning shows an escape in a value made visible, not raw', async () => {
    const f = file('address,total', ['esc@example.com,1+1\u001b]0;pwned\u0007\u001b[31mRED']);
    const r = await runCli(['send', '--recipients-file', f, '--subject', 'T {{total}}', '--html', '<p>{{total}}</p>', '--from', 'noreply@example.com', '--dry-run'], { sandbox: sb.get() });
    expect(r.stderr).toContain('mathematical expressions');
    expect(r.stderr).not.toMatch(/\u001b|\u0007/);
  });
});
