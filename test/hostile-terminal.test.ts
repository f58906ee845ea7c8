// What a HOSTILE service's words do on a person's terminal (issue 10 item 2). Every kind of
// string a service returns and mailctl prints — group and template names, event fields, webhook
// URLs, campaign names and subjects, error messages, redirect targets — arrives full of escape
// sequences, bidi overrides, C1 controls and a 200 KB name (test/helpers/hostile-server.ts
// HOSTILE_TEXT). On a terminal and in pipes none of it may reach stdout/stderr raw; a table
// shortens, TSV keeps whole values with controls escaped (one row per record), and --json gives
// back exactly what the service said.
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './helpers/cli.js';
import { HOSTILE_TEXT, reply, TERMINAL_UNSAFE, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();
const WORDS = Object.values(HOSTILE_TEXT);
const HUGE = HOSTILE_TEXT.huge.length;
// Our own colours and spinners off, so any escape seen is the service's.
const TERMINAL = { NO_COLOR: '1', CI: '1' };

type Mode = 'terminal' | 'pipe' | 'json';
const MODES: Mode[] = ['terminal', 'pipe', 'json'];

function run(argv: string[], mode: Mode): Promise<CliResult> {
  return runCli(mode === 'json' ? ['--json', ...argv] : argv, { env: { ...hs.get().env, ...TERMINAL }, tty: mode === 'terminal' });
}

/** Nothing a terminal would act on, in either stream. */
function clean(r: CliResult): void {
  const where = (s: string) => s.search(TERMINAL_UNSAFE);
  expect({ stdoutAt: where(r.stdout), stderrAt: where(r.stderr) }).toEqual({ stdoutAt: -1, stderrAt: -1 });
}

/** Shown visibly instead: the escape of an OSC title change. */
const SHOWN = '\\e]0;owned by the server\\x07';

/** The checks every list makes in each mode: safe everywhere, whole in pipes, shortened on a terminal, exact in JSON. */
function checkList(r: CliResult, mode: Mode, rows: number, exact: (doc: unknown) => unknown[]): void {
  expect(r.exitCode).toBe(0);
  clean(r);
  if (mode === 'json') {
    expect(exact(JSON.parse(r.stdout))).toEqual(expect.arrayContaining(WORDS));
  } else if (mode === 'pipe') {
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(rows + 1); // the header, then a row per record: a tab or newline in a value never breaks a row
    expect(new Set(lines.map((l) => l.split('\t').length)).size).toBe(1);
    expect(r.stdout).toContain('N'.repeat(HUGE - 20)); // whole: scripts get the full value
    expect(r.stdout).toContain(SHOWN);
  } else {
    expect(r.stdout).toContain(SHOWN);
    expect(r.stdout).not.toContain('N'.repeat(5000)); // the 200 KB name is shortened
    expect(r.stdout).toMatch(/more characters\)/);
  }
}

describe.each(MODES)('lists of hostile words (%s)', (mode) => {
  it('groups list: names, codes and statuses', async () => {
    hs.get().on('GET', '/campaign/v1/contacts/lists', reply.json(WORDS.map((w, i) => ({ sn: `G${i}${HOSTILE_TEXT.clear}`, name: w, status: HOSTILE_TEXT.c1, subscribedCnt: 1, updateDate: '2026-01-01T00:00:00Z' }))));
    const r = await run(['groups', 'list'], mode);
    checkList(r, mode, WORDS.length, (doc) => (doc as Array<{ name: string }>).map((g) => g.name));
    if (mode === 'json') expect((JSON.parse(r.stdout) as Array<{ sn: string }>)[0].sn).toBe(`G0${HOSTILE_TEXT.clear}`);
  });

  it('template list: names and the capacity', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ capacity: 50, templates: WORDS.map((w, i) => ({ id: `T${i}`, name: w, updateDate: '2026-01-01T00:00:00Z' })) }));
    const r = await run(['template', 'list'], mode);
    checkList(r, mode, WORDS.length, (doc) => (doc as { templates: Array<{ name: string }> }).templates.map((t) => t.name));
  });

  it('events: message ids, statuses, recipients, subjects and bounce reasons', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ logs: WORDS.map((w, i) => ({ messageId: `m${i}${HOSTILE_TEXT.bidi}`, status: HOSTILE_TEXT.hidden, eventTime: '2026-01-01T00:00:00Z', mail: { to: HOSTILE_TEXT.rows, subject: w }, rawEvent: { code: '550', reason: HOSTILE_TEXT.osc } })) }));
    const r = await run(['events', '--since', '7d'], mode);
    checkList(r, mode, WORDS.length, (doc) => (doc as { logs: Array<{ mail: { subject: string } }> }).logs.map((e) => e.mail.subject));
    if (mode === 'json') expect((JSON.parse(r.stdout) as { logs: Array<{ rawEvent: { reason: string } }> }).logs[0].rawEvent.reason).toBe(HOSTILE_TEXT.osc);
  });

  it('webhook list: URLs and domains', async () => {
    hs.get().on('GET', '/notify/v1/webhooks', reply.json(WORDS.map((w, i) => ({ type: 3 + (i % 5), url: w, domain: HOSTILE_TEXT.bidi, createDate: '2026-01-01T00:00:00Z' }))));
    const r = await run(['webhook', 'list'], mode);
    checkList(r, mode, WORDS.length, (doc) => (doc as Array<{ url: string }>).map((w) => w.url));
  });

  it('report metrics: campaign names', async () => {
    hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json(WORDS.map((w, i) => ({ campaignSn: `CP${i}`, name: w, subject: HOSTILE_TEXT.osc, reportType: 'TOTAL', channel: 'MAIL', recipientCnt: 1, delivered: 1 }))));
    const r = await run(['report', 'metrics', ...WORDS.map((_w, i) => `CP${i}`)], mode);
    checkList(r, mode, WORDS.length, (doc) => (doc as Array<{ name: string }>).map((m) => m.name));
    if (mode === 'json') expect((JSON.parse(r.stdout) as Array<{ subject: string }>)[0].subject).toBe(HOSTILE_TEXT.osc);
  });
});

describe.each(MODES)('one record of hostile words (%s)', (mode) => {
  it('campaign status: name and an unknown status', async () => {
    hs.get().on('GET', '/campaign/v1/campaign/normal/CP1', reply.json([{ sn: 'CP1', name: HOSTILE_TEXT.huge, status: HOSTILE_TEXT.osc, type: HOSTILE_TEXT.bidi }]));
    const r = await run(['campaign', 'status', 'CP1'], mode);
    expect(r.exitCode).toBe(0);
    clean(r);
    if (mode === 'json') expect(JSON.parse(r.stdout)).toMatchObject({ name: HOSTILE_TEXT.huge, status: HOSTILE_TEXT.osc, type: HOSTILE_TEXT.bidi });
    else expect(r.stdout).toContain(SHOWN);
    if (mode === 'terminal') expect(r.stdout.length).toBeLessThan(5000);
    if (mode === 'pipe') expect(r.stdout).toContain('N'.repeat(HUGE - 20));
  });

  it('template show: id and name', async () => {
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ id: `T1${HOSTILE_TEXT.c1}`, name: HOSTILE_TEXT.osc, template: '<p>x</p>', updateDate: HOSTILE_TEXT.rows }));
    const r = await run(['template', 'show', 'T1'], mode);
    expect(r.exitCode).toBe(0);
    clean(r);
    if (mode === 'json') expect(JSON.parse(r.stdout)).toMatchObject({ id: `T1${HOSTILE_TEXT.c1}`, name: HOSTILE_TEXT.osc, updateDate: HOSTILE_TEXT.rows });
    else expect(r.stdout).toContain(SHOWN);
  });
});

describe.each(MODES)('service words in errors (%s)', (mode) => {
  it('a refusal whose message and code are escape sequences: shown visibly; --json keeps the words exact', async () => {
    hs.get().on('POST', '/campaign/v1/contacts/lists/insert', reply.json({ code: `X${HOSTILE_TEXT.clear}`, message: HOSTILE_TEXT.osc }, 400));
    const r = await run(['groups', 'create', 'News', '--allow-duplicate'], mode); // the POST's answer is the point, not the name check
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr).toContain(SHOWN);
    if (mode === 'json') expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'REFUSED', serviceCode: `X${HOSTILE_TEXT.clear}`, serviceMessage: HOSTILE_TEXT.osc });
  });

  it('a 5xx with a 50 KB message of escapes: shortened on stderr, whole in --json', async () => {
    const long = HOSTILE_TEXT.huge.slice(-50_000);
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ message: long }, 500));
    const r = await run(['template', 'show', 'T1'], mode);
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr.length).toBeLessThan(3000);
    if (mode === 'json') expect(JSON.parse(r.stdout).error.serviceMessage).toBe(long);
  });

  it('a 200 KB error answer is not read whole: the failure is still one short sentence', async () => {
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ message: HOSTILE_TEXT.huge }, 500));
    const r = await run(['template', 'show', 'T1'], mode);
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr).toContain('failed with HTTP 500');
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it('the notification service\'s {error} and {errors} words', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ error: HOSTILE_TEXT.hidden, errors: HOSTILE_TEXT.bidi }, 400));
    const r = await run(['events', '--since', '7d'], mode);
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr).toContain('\\e[8m hidden');
  });

  it('a redirect whose Location carries 8-bit controls (C1 CSI, NEL: all an HTTP header can carry)', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.redirect('https://evil.example/\u009b2J\u0085x\u009d0;t'));
    const r = await run(['template', 'list'], mode);
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr).toContain('evil.example/\\x9b2J\\x85x\\x9d0;t');
  });

  it('a plain-text error page with a bell, backspaces and C1 controls', async () => {
    hs.get().on('GET', '/campaign/v1/balance', reply.text(`${HOSTILE_TEXT.bell} ${HOSTILE_TEXT.c1}`, 418, { 'content-type': 'text/html' }));
    const r = await run(['balance'], mode);
    expect(r.exitCode).toBe(1);
    clean(r);
    expect(r.stderr).toContain('bell\\x07\\x08\\x7f del');
  });
});

describe('commands that echo what the service named', () => {
  it('groups create: a code with escapes is printed escaped (piped and on a terminal), exact in --json', async () => {
    hs.get().on('POST', '/campaign/v1/contacts/lists/insert', reply.json({ sn: `G1${HOSTILE_TEXT.osc}` }));
    for (const mode of MODES) {
      const r = await run(['groups', 'create', 'News', '--allow-duplicate'], mode); // the POST's answer is the point, not the name check
      expect(r.exitCode).toBe(0);
      clean(r);
      if (mode === 'json') expect(JSON.parse(r.stdout).sn).toBe(`G1${HOSTILE_TEXT.osc}`);
      else expect(r.stdout).toContain(`G1Title${SHOWN}`);
    }
  });

  it('contacts remove: the group\'s name and code in the confirmation line', async () => {
    hs.get().on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'G1', name: HOSTILE_TEXT.osc }]));
    hs.get().on('DELETE', '/campaign/v1/contacts/G1', reply.json({ updated_count: 1 }));
    const r = await run(['contacts', 'remove', '--group', 'G1', '--email', 'ann@example.com', '--yes'], 'terminal');
    expect(r.exitCode).toBe(0);
    clean(r);
    expect(r.stdout).toContain(SHOWN);
  });

  it('campaign delete: codes the service lists back are escaped', async () => {
    hs.get().on('GET', '/campaign/v1/campaign/normal/CP1', reply.json([{ sn: 'CP1', name: 'N', status: 'PREPARE' }]));
    hs.get().on('DELETE', '/campaign/v1/campaign/normal', reply.json({ success: [`CP1${HOSTILE_TEXT.rows}`], sendingCampaign: [], badCampaigns: [] }));
    const r = await run(['campaign', 'delete', 'CP1', '--yes'], 'pipe');
    expect(r.exitCode).toBe(0);
    clean(r);
    expect(r.stdout).toBe('CP1tab\\there\\nnew line\\rcarriage\\u2028sep\tdeleted\n');
  });

  it('domain add: DNS records to paste are whole, with controls shown', async () => {
    const value = `v=DKIM1; p=${'A'.repeat(600)}${HOSTILE_TEXT.clear}`;
    hs.get().on('POST', '/notify/v1/domains/mail.example.com', reply.json([{ record_type: 0, name: `k1._domainkey.mail.example.com${HOSTILE_TEXT.osc}`, value }]));
    const r = await run(['domain', 'add', 'mail.example.com'], 'pipe');
    expect(r.exitCode).toBe(0);
    clean(r);
    expect(r.stdout).toContain('A'.repeat(200));
    expect(r.stdout).toContain('\\e[2J\\e[H screen');
  });
});

describe('service words on the terminal', () => {
  it('template list: a capacity full of escapes is refused as not a number, and the refusal carries no escape sequence', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ capacity: '\u001b]0;owned\u0007\u001b[2J10', templates: [] }));
    const r = await runCli(['template', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/"capacity" is "[^\n]*", not a number/);
    expect(r.stderr).not.toContain('\u001b');
  });
});
