// mailctl send (email): batching, the {{variable}} checks that stop a run before any request,
// per-recipient failures and exit codes, --dry-run — against the sandbox over loopback.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter, tempDir, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance', // the forecast before a real send (a dry run shows it, makes it not)
    'POST /notify/v1/messages',
    'GET /notify/v1/events', // the next-command line's delivery lookup, run to prove it finds the message
  ],
});
const FROM = ['--from', 'noreply@example.com'];

function csv(prefix: string, n: number, extra = ''): string {
  const file = path.join(tempDir('mailctl-send-'), 'people.csv');
  const rows = Array.from({ length: n }, (_, i) => `${prefix}${i}.quiet@example.com,Person ${i},C${i}${extra}`);
  fs.writeFileSync(file, ['address,name,code', ...rows].join('\n'));
  return file;
}

const sends = (prefix: string) => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages' && (JSON.stringify(r.body) ?? '').includes(prefix));

describe('mailctl send (email)', () => {
  it('CI smoke step: one recipient from flags, message id on stdout, exit 0', async () => {
    const r = await runCli(['send', '--to', 'ci-smoke@example.com', '--subject', 'smoke', '--html', '<p>ok</p>', ...FROM], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const [address, status, id] = tsvRows(r.stdout)[0];
    expect([address, status]).toEqual(['ci-smoke@example.com', 'sent']);
    const req = sends('ci-smoke@')[0];
    expect(req.body).toEqual({ subject: 'smoke', fromAddress: 'noreply@example.com', content: '<p>ok</p>', recipients: [{ name: 'ci-smoke', address: 'ci-smoke@example.com' }] });
    expect(req.status).toBe(200);
    expect(Object.values(sb.get().sandbox.state.notify.messages).some((m) => m.id === id)).toBe(true);
  });

  it('--to is repeatable: every recipient is sent and counted (it used to send to the last only, "1 of 1 accepted"); --var goes to each, a repeat is sent once', async () => {
    const r = await runCli(['send', '--to', 'rep-a@example.com', '--to=rep-b@example.com', '--to', 'REP-A@example.com', '--var', 'code=K9', '--subject', 'Hi', '--html', '<p>{{code}}</p>', ...FROM, '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Skipping 1 duplicate recipient so nobody gets the message twice: REP-A@example.com (--to 3, first at --to 1)');
    const sent = sends('rep-').flatMap((q) => (q.body as { recipients: unknown[] }).recipients);
    expect(sent).toEqual([
      { name: 'rep-a', address: 'rep-a@example.com', variables: { code: 'K9' } },
      { name: 'rep-b', address: 'rep-b@example.com', variables: { code: 'K9' } },
    ]);
    const doc = JSON.parse(r.stdout);
    expect(doc.recipients.map((x: { address: string; status: string }) => [x.address, x.status])).toEqual([['rep-a@example.com', 'sent'], ['rep-b@example.com', 'sent']]);
    const text = await runCli(['send', '--to', 'rep-c@example.com', '--to', 'rep-d@example.com', '--subject', 'Hi', '--html', '<p>hi</p>', ...FROM], { sandbox: sb.get() });
    expect(text.stderr).toContain('2 of 2 accepted');
    // --to-name belongs to one recipient: with several it is refused before anything is sent.
    const before = sb.get().sandbox.requests('notify').length;
    const named = await runCli(['send', '--to', 'rep-e@example.com', '--to', 'rep-f@example.com', '--to-name', 'Eve', '--subject', 'Hi', '--html', '<p>hi</p>', ...FROM], { sandbox: sb.get() });
    expect(named.exitCode).toBe(2);
    expect(named.stderr).toContain('--to-name names the one --to recipient, and 2 were given.');
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });

  it('decisions row 31: every recipient is sent with a name — its own (flag, CSV column or JSON field), else its address\'s local part', async () => {
    const dir = tempDir('mailctl-names-');
    fs.writeFileSync(path.join(dir, 'r.csv'), 'address,name\nnm-ann.lee@example.com,Ann Lee\nnm-bob@example.com,\n');
    fs.writeFileSync(path.join(dir, 'r.json'), JSON.stringify([{ address: 'nm-cy@example.com', name: 'Cy' }, { address: 'nm-dee.o@example.com' }]));
    for (const argv of [['--recipients-file', path.join(dir, 'r.csv')], ['--recipients-file', path.join(dir, 'r.json')], ['--to', 'nm-eve@example.com'], ['--to', 'nm-fay@example.com', '--to-name', '  Fay  ']]) {
      const r = await runCli(['send', ...argv, '--subject', 'Hi', '--html', '<p>hi</p>', ...FROM], { sandbox: sb.get() });
      expect(r.exitCode).toBe(0);
    }
    const sent = sends('nm-').flatMap((q) => (q.body as { recipients: Array<{ name?: string; address: string }> }).recipients.map((x) => [x.address, x.name]));
    expect(sent).toEqual([
      ['nm-ann.lee@example.com', 'Ann Lee'], ['nm-bob@example.com', 'nm-bob'],
      ['nm-cy@example.com', 'Cy'], ['nm-dee.o@example.com', 'nm-dee.o'],
      ['nm-eve@example.com', 'nm-eve'], ['nm-fay@example.com', 'Fay'],
    ]);
  });

  it('after a run where all were accepted: one line with the delivery lookup to run next, which finds the message; not under --json or -q', async () => {
    const argv = ['send', '--to', 'next-step@example.com', '--subject', 'next', '--html', '<p>ok</p>', ...FROM];
    const r = await runCli(['--profile', 'x', ...argv], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const id = tsvRows(r.stdout)[0][2];
    const next = r.stderr.split('\n').filter((l) => l.startsWith('Next:'));
    expect(next).toEqual([`Next: follow the email's delivery with mailctl --profile x events --id ${id}`]);
    const lookup = await runCli(['events', '--id', id, '--json'], { sandbox: sb.get() });
    expect(JSON.parse(lookup.stdout).logs.map((l: { messageId: string }) => l.messageId)).toContain(id);
    for (const quiet of [['--json'], ['-q']]) expect((await runCli([...quiet, ...argv], { sandbox: sb.get() })).stderr).not.toContain('Next:');
  });

  it('an accepted recipient the answer gives no message id: shown without one, and no delivery lookup is suggested', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { id: 'req-1', success: [{ address: 'no-id@example.com' }], failure: {} }, match: { service: 'notify', method: 'POST', path: '/v1/messages' } });
    const r = await runCli(['send', '--to', 'no-id@example.com', '--subject', 's', '--html', '<p>ok</p>', ...FROM], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(tsvRows(r.stdout)[0].slice(0, 2)).toEqual(['no-id@example.com', 'sent']);
    expect(r.stdout + r.stderr).not.toContain('undefined');
    expect(r.stderr).not.toContain('Next:');
  });

  it('250 recipients go out as 3 requests of at most 100 ("at most 100 per request"), each recipient once', async () => {
    const r = await runCli(['send', '--recipients-file', csv('b250-', 250), '--subject', 'Hi {{name}}', '--html', '<p>{{code}}</p>', ...FROM, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const reqs = sends('b250-');
    expect(reqs.map((q) => (q.body as { recipients: unknown[] }).recipients.length).sort()).toEqual([100, 100, 50]);
    const addrs = reqs.flatMap((q) => (q.body as { recipients: Array<{ address: string }> }).recipients.map((x) => x.address));
    expect(new Set(addrs).size).toBe(250);
    // Batches may go out in any order: look for the first row in all of them.
    const first = reqs.flatMap((q) => (q.body as { recipients: Array<Record<string, unknown>> }).recipients).find((x) => x.address === 'b250-0.quiet@example.com');
    // The CSV's name column is the recipient's name and, because the subject uses {{name}}, its variable too.
    expect(first).toEqual({ name: 'Person 0', address: 'b250-0.quiet@example.com', variables: { code: 'C0', name: 'Person 0' } });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ total: 250, sent: 250, failed: 0, notSent: 0, unsettled: 0 });
    expect(out.requestIds).toHaveLength(3);
    expect(out.recipients.every((x: { messageId?: string }) => typeof x.messageId === 'string')).toBe(true);
  });

  it('a recipient without a value for a {{variable}} stops the run before any request (exit 2), naming who misses what', async () => {
    const file = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(file, 'email,code,city\nmiss-a@example.com,A1,Taipei\nmiss-b@example.com,,Tainan\nmiss-c@example.com,C3,\n');
    const before = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['send', '--recipients-file', file, '--subject', 'Code {{code}}', '--html', '<p>{{ city }}</p>', ...FROM], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('2 recipients have no value');
    expect(r.stderr).toContain('miss-b@example.com (code)');
    expect(r.stderr).toContain('miss-c@example.com (city)');
    expect(r.stderr).toContain('--allow-missing');
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
    // …and --allow-missing sends anyway, with a warning.
    const ok = await runCli(['send', '--recipients-file', file, '--subject', 'Code {{code}}', '--html', '<p>{{ city }}</p>', ...FROM, '--allow-missing'], { sandbox: sb.get() });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('Sending anyway');
    expect(sends('miss-').flatMap((q) => (q.body as { recipients: Array<{ address: string }> }).recipients.map((x) => x.address))).toEqual(['miss-a@example.com', 'miss-b@example.com', 'miss-c@example.com']);
  });

  it('refuses a value over 100 characters and an invalid {{#name}} before sending; warns about ${FIELD}, never about a value\'s leading digit (decisions row 26)', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    const long = await runCli(['send', '--to', 'v@example.com', '--var', `code=${'x'.repeat(101)}`, '--subject', 's', '--html', '{{code}}', ...FROM], { sandbox: sb.get() });
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toMatch(/100 characters.*v@example\.com code \(101\)/);
    const bad = await runCli(['send', '--to', 'v@example.com', '--subject', '{{#subject}}', '--html', 'x', ...FROM], { sandbox: sb.get() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('{{#subject}}');
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
    const warn = await runCli(['send', '--to', 'warn-v@example.com', '--var', 'code=042917', '--subject', 'Hi ${NAME}', '--html', '{{code}}', ...FROM], { sandbox: sb.get() });
    expect(warn.exitCode).toBe(0);
    expect(warn.stderr).toContain("${NAME} — that is the campaign service's syntax");
    expect(warn.stderr).not.toContain('digit');
  });

  it('refuses a bad address before any request, with its row', async () => {
    const file = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(file, 'address\nok@example.com\nnot-an-address\n');
    const before = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'x', ...FROM], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('row 3: "not-an-address" is not an email address');
    expect(sb.get().sandbox.requests('notify').length).toBe(before); // not even ok@example.com
  });

  it('per-recipient failures are listed with the service\'s reason and exit 5; all failed exits 1', async () => {
    const file = path.join(tempDir(), 'r.json');
    fs.writeFileSync(file, JSON.stringify([{ address: 'pf-ok@example.com' }, { address: 'pf-bad@example.com' }]));
    const reason = 'Invalid: the value of recipient variables should under 100 characters';
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { id: 'req-x', success: [{ id: 'm-1', address: 'pf-ok@example.com' }], failure: { 'pf-bad@example.com': reason } }, match: { service: 'notify', path: '/v1/messages' } });
    const r = await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'x', ...FROM], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toContain('pf-ok@example.com\tsent\tm-1\t');
    expect(r.stdout).toContain(`pf-bad@example.com\tfailed\t\t${reason}`);
    expect(r.stderr).toContain('1 of 2 recipients were accepted; 1 failed');

    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { id: 'req-y', success: [], failure: { 'pf-ok@example.com': 'Invalid: address is not a valid email format', 'pf-bad@example.com': reason } }, match: { service: 'notify', path: '/v1/messages' } });
    const none = await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'x', ...FROM, '--json'], { sandbox: sb.get() });
    expect(none.exitCode).toBe(1);
    const doc = JSON.parse(none.stdout);
    expect(doc.recipients).toEqual([
      { address: 'pf-ok@example.com', status: 'failed', reason: 'Invalid: address is not a valid email format' },
      { address: 'pf-bad@example.com', status: 'failed', reason },
    ]);
  });

  it('a request refused as a whole (unverified sender domain) exits 1: nothing sent, the refusal named, and the fixes that work — not --resume', async () => {
    const r = await runCli(['--profile', 'ci', 'send', '--to', 'x@example.com', '--subject', 's', '--html', 'x', '--from', 'news@unverified.example.net'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/Nothing was sent: the service refused the request as a whole\..*unverified\.example\.net is not verified/);
    expect(r.stdout).toMatch(/^recipient\tstatus\tmessage_id\treason\nx@example\.com\tnot sent\t\t.*not verified/);
    // The one request was made (and refused): the summary counts it.
    expect(r.stderr).toContain('! 0 of 1 accepted, 1 not sent (1 request made).');
    expect(r.stderr).not.toContain('--resume');
    // Pasted, each suggestion reaches the same profile.
    expect(r.stderr).toContain('mailctl --profile ci config set from-address ADDRESS');
    expect(r.stderr).toContain('mailctl --profile ci domain add unverified.example.net');
    expect(r.stderr).toContain('mailctl --profile ci domain verify unverified.example.net');
    expect(r.stderr).toContain('--from ADDRESS');
  });

  it('whether --resume is suggested is read from the error\'s facts, not its words', async () => {
    const onSend = { service: 'notify' as const, method: 'POST', path: '/v1/messages' };
    // A 400 in other words is still a refusal of the whole request.
    sb.get().sandbox.injectFault({ kind: 'status', status: 400, body: { errors: 'please resume later, network ECONNREFUSED' }, match: onSend });
    const refused = await runCli(['send', '--to', 'facts-a@example.com', '--subject', 's', '--html', 'x', ...FROM], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).not.toContain('--resume');
    expect(refused.stderr).toContain('Nothing was sent');
    // Forbidden is the key, not the request: fix the key, then the same send can continue.
    sb.get().sandbox.injectFault({ kind: 'status', status: 403, body: { message: 'Forbidden' }, match: onSend });
    const key = await runCli(['send', '--to', 'facts-b@example.com', '--subject', 's', '--html', 'x', ...FROM], { sandbox: sb.get() });
    expect(key.exitCode).toBe(3);
    expect(key.stderr).toContain('send --resume');
  });

  it('--dry-run prints every request with the key masked and sends nothing', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['send', '--recipients-file', csv('dry-', 150), '--subject', 'Hi', '--html', '<p>{{code}}</p>', ...FROM, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dryRun).toBe(true);
    expect(doc.requests).toHaveLength(2);
    expect(doc.requests[0]).toMatchObject({ method: 'POST', url: `${sb.get().notifyUrl}/v1/messages` });
    expect(doc.requests[1].body.recipients).toHaveLength(50);
    expect(r.stdout).not.toContain(SANDBOX_KEYS.notify);
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });

  it('takes the sender from the profile when --from is absent, and says how to set one when there is none', async () => {
    const none = await runCli(['send', '--to', 'x@example.com', '--subject', 's', '--html', 'x'], { sandbox: sb.get() });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('mailctl config set from-address');
    const dir = tempDir();
    await runCli(['config', 'set', 'from-address', 'noreply@example.com'], { configDir: dir });
    await runCli(['config', 'set', 'from-name', 'Acme'], { configDir: dir });
    const r = await runCli(['send', '--to', 'prof@example.com', '--subject', 's', '--html', 'x'], { sandbox: sb.get(), configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(sends('prof@')[0].body).toMatchObject({ fromAddress: 'noreply@example.com', fromName: 'Acme' });
  });

  it('on a terminal: a progress bar on stderr, and only the recipients that were not accepted in the table', async () => {
    const r = await runCli(['send', '--recipients-file', csv('tty-', 150), '--subject', 'Hi', '--html', '<p>{{code}}</p>', ...FROM, '--yes'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/Sending .*█.* 150\/150 \(100%\)/);
    expect(r.stderr).toContain('150 accepted recipients not listed');
    expect(r.stdout).toBe('');
  });
});

describe('send to more than 100 recipients asks first, on a terminal only', () => {
  it('shows how many, the first few, subject, sender and when; no is exit 2 with nothing sent and no journal', async () => {
    const configDir = tempDir();
    const p = scriptedPrompter([false]);
    const r = await runCli(['send', '--recipients-file', csv('ask-', 101), '--subject', 'Hi {{name}}', '--html', '<p>{{code}}</p>', ...FROM, '--from-name', 'Acme'], { sandbox: sb.get(), tty: true, prompter: p, configDir });
    expect(r.exitCode).toBe(2);
    expect(p.asked).toEqual(['Send to all 101 recipients now?']);
    expect(r.stderr).toContain('This send goes out now to 101 recipients: ask-0.quiet@example.com, ask-1.quiet@example.com, ask-2.quiet@example.com and 98 more.');
    expect(r.stderr).toContain('  Subject:  "Hi {{name}}"');
    expect(r.stderr).toContain('  Sender:   Acme <noreply@example.com>');
    expect(r.stderr).toMatch(/ {2}When: {5}now: .* your time \(.*\) = .*Z UTC/);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(sends('ask-')).toEqual([]);
    expect(fs.existsSync(path.join(configDir, 'journals')) ? fs.readdirSync(path.join(configDir, 'journals')) : []).toEqual([]);
  });

  it('yes sends to all of them', async () => {
    const r = await runCli(['send', '--recipients-file', csv('yes-', 101), '--subject', 'Hi', '--html', '<p>{{code}}</p>', ...FROM], { sandbox: sb.get(), tty: true, prompter: scriptedPrompter([true]) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sends('yes-').flatMap((q) => (q.body as { recipients: unknown[] }).recipients)).toHaveLength(101);
  });

  it('no question for 100 recipients, with --yes, or without a terminal', async () => {
    const none = () => scriptedPrompter([]); // fails the test on any question
    for (const [prefix, n, extra, tty] of [['hundred-', 100, [], true], ['flag-', 150, ['--yes'], true], ['piped-', 150, [], false]] as const) {
      const r = await runCli(['send', '--recipients-file', csv(prefix, n), '--subject', 'Hi', '--html', '<p>{{code}}</p>', ...FROM, ...extra], { sandbox: sb.get(), tty, prompter: none() });
      expect(r.exitCode, `${prefix}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('goes out now');
    }
  });
});

describe('a JSON recipients file with the address under another key', () => {
  it('names the key it found and the one the service wants: exit 2, nothing sent', async () => {
    const dir = tempDir();
    const file = `${dir}/r.json`;
    (await import('node:fs')).writeFileSync(file, JSON.stringify([{ email: 'a@example.com', name: 'A' }]));
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'h', '--from', 'a@example.com'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('item 1 has "email" but no "address"');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});
