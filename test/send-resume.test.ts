// `mailctl send --resume`: a journal left by a run that died at each step — before a batch was
// sent, while it was in flight, after the service took it but before the answer was recorded —
// is replayed so that nobody gets the message twice. Crashes are simulated by writing the
// journal states a dead run leaves, and by faults ('hang', 'drop') injected into the sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { snapshot } from './helpers/fs-snapshot.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import type { JournalRecord, PlanRecord, WireRecipient } from '../src/send/journal.js';
import { journalPlan, journalText } from './helpers/journal-plan.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance', // the forecast before a real resume (a dry run shows it, makes it not)
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
  ],
});

const MESSAGE = { subject: 'Order {{code}}', fromAddress: 'noreply@example.com', content: '<p>{{code}}</p>' };

function plan(prefix: string, n: number): PlanRecord {
  const recipients = Array.from({ length: n }, (_, i) => ({ address: `${prefix}${i}.quiet@example.com`, variables: { code: `C${i}` } }));
  return journalPlan({ kind: 'email', message: MESSAGE, recipients }, sb.get());
}

function writeJournal(records: JournalRecord[], tail = ''): string {
  const file = path.join(tempDir('mailctl-journal-'), 'send.jsonl');
  fs.writeFileSync(file, journalText(records) + tail);
  return file;
}

/** What a run that died right after the service answered would have sent. */
async function postDirect(recipients: WireRecipient[]): Promise<{ id: string; success: Array<{ id: string; address: string }> }> {
  const res = await fetch(`${sb.get().notifyUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': SANDBOX_KEYS.notify, 'content-type': 'application/json' }, body: JSON.stringify({ ...MESSAGE, recipients }) });
  expect(res.status).toBe(200);
  return res.json() as never;
}

/** Accepted messages per address, from the sandbox's own records. */
function timesSent(prefix: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const msg of Object.values(sb.get().sandbox.state.notify.messages)) if (msg.channel === 'email' && msg.address.startsWith(prefix)) m.set(msg.address, (m.get(msg.address) ?? 0) + 1);
  return m;
}

function expectEachOnce(prefix: string, n: number): void {
  const m = timesSent(prefix);
  expect(m.size).toBe(n);
  expect([...m.values()].filter((c) => c !== 1)).toEqual([]);
}

const posts = (prefix: string) => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages' && (JSON.stringify(r.body) ?? '').includes(prefix));

describe('send --resume', () => {
  it('killed between batches (batch 1 answered and recorded): sends only batches 2 and 3', async () => {
    const p = plan('kb-', 250);
    const first = p.recipients.slice(0, 100);
    const res = await postDirect(first);
    const success = Object.fromEntries(res.success.map((s) => [s.address.toLowerCase(), s.id]));
    const file = writeJournal([p, { type: 'intent', batch: '1', keys: first.map((r) => r.address), at: new Date().toISOString() }, { type: 'result', batch: '1', at: new Date().toISOString(), requestId: res.id, success, failure: {} }]);
    const before = posts('kb-').length;
    const r = await runCli(['send', '--resume', file, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const resumed = posts('kb-').slice(before);
    expect(resumed.map((q) => (q.body as { recipients: unknown[] }).recipients.length).sort()).toEqual([100, 50]);
    expectEachOnce('kb-', 250);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 250, sent: 250 });
    // Done: a further resume sends nothing.
    const again = await runCli(['send', '--resume', file], { sandbox: sb.get() });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('nothing to do');
    expect(posts('kb-').length).toBe(before + 2);
  });

  it('killed after the service took a batch but before its answer was recorded: the event lookup proves it was sent', async () => {
    const p = plan('ks-', 250);
    const first = p.recipients.slice(0, 100);
    const file = writeJournal([p, { type: 'intent', batch: '1', keys: first.map((r) => r.address), at: new Date().toISOString() }]);
    const res = await postDirect(first); // the request that was in flight when the run died
    const before = posts('ks-').length;
    const r = await runCli(['send', '--resume', file, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Checking 100 recipients in doubt against the event log');
    const resumedAddrs = posts('ks-').slice(before).flatMap((q) => (q.body as { recipients: Array<{ address: string }> }).recipients.map((x) => x.address));
    expect(resumedAddrs).toHaveLength(150);
    expect(resumedAddrs.some((a) => first.some((f) => f.address === a))).toBe(false);
    expectEachOnce('ks-', 250);
    // The message ids reported for batch 1 are the ones the service gave out, found through the lookup.
    const doc = JSON.parse(r.stdout);
    const ids = new Map(doc.recipients.map((x: { address: string; messageId: string }) => [x.address, x.messageId]));
    for (const s of res.success) expect(ids.get(s.address)).toBe(s.id);
    expect(sb.get().sandbox.requests('notify').some((q) => q.method === 'GET' && q.path === '/v1/events' && q.query.recipient === first[0].address)).toBe(true);
  });

  it('killed while a request was in flight that never arrived: reported as in doubt until --settle-after has passed, then sent once', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'j.jsonl');
    const file = path.join(dir, 'r.csv');
    fs.writeFileSync(file, ['address,code', ...Array.from({ length: 250 }, (_, i) => `kf-${i}.quiet@example.com,C${i}`)].join('\n'));
    sb.get().sandbox.injectFault({ kind: 'hang', match: { service: 'notify', method: 'POST', path: '/v1/messages' } });
    const ac = new AbortController();
    const watch = setInterval(() => {
      if (sb.get().sandbox.requests('notify').some((q) => q.status === -1 && q.path === '/v1/messages')) ac.abort();
    }, 5);
    const killed = await runCli(['send', '--recipients-file', file, '--subject', MESSAGE.subject, '--html', MESSAGE.content, '--from', MESSAGE.fromAddress, '--journal', journal, '--concurrency', '1'], { sandbox: sb.get(), signal: ac.signal });
    clearInterval(watch);
    expect(killed.exitCode).toBe(130);
    expect(killed.stderr).toContain(`mailctl send --resume ${journal}`);
    expect(timesSent('kf-').size).toBe(0);

    // Too early to tell: batch 1 stays in doubt (reported, not sent); batches 2 and 3 go out.
    const early = await runCli(['send', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(early.exitCode).toBe(5);
    expect(JSON.parse(early.stdout)).toMatchObject({ total: 250, sent: 150, unsettled: 100, notSent: 0 });
    expect(JSON.parse(early.stdout).recipients[0].reason).toMatch(/no event yet/);
    expect(timesSent('kf-').size).toBe(150);

    const late = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(late.exitCode).toBe(0);
    expectEachOnce('kf-', 250);
  });

  it('a dropped connection mid-run leaves its batch in doubt (exit 5); the resume settles and sends it once', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'j.jsonl');
    const file = path.join(dir, 'r.json');
    fs.writeFileSync(file, JSON.stringify(Array.from({ length: 120 }, (_, i) => ({ address: `kd-${i}.quiet@example.com`, variables: { code: `C${i}` } }))));
    sb.get().sandbox.injectFault({ kind: 'drop', match: { service: 'notify', method: 'POST', path: '/v1/messages' } });
    const r = await runCli(['--profile', 'p1', 'send', '--recipients-file', file, '--subject', MESSAGE.subject, '--html', MESSAGE.content, '--from', MESSAGE.fromAddress, '--journal', journal, '--concurrency', '1'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toMatch(/kd-0\.quiet@example\.com\tunsettled/);
    // A hint that works when pasted: it carries the profile this run used.
    expect(r.stderr).toContain(`mailctl --profile p1 send --resume ${journal}`);
    const resumed = await runCli(['send', '--resume', journal, '--settle-after', '0s'], { sandbox: sb.get() });
    expect(resumed.exitCode).toBe(0);
    expectEachOnce('kd-', 120);
  });

  it('a journal whose last line was cut short by the kill is cut back to its last whole line, so it resumes again and again until done', async () => {
    const p = plan('kt-', 150);
    const first = p.recipients.slice(0, 100);
    // Batch 1 was in flight (never arrived) when the run died writing batch 2's intent.
    const file = writeJournal([p, { type: 'intent', batch: '1', keys: first.map((r) => r.address.toLowerCase()), at: new Date().toISOString() }], '{"type":"intent","batch":"2","keys":["kt-1');
    // First resume: too early to settle batch 1 (reported, not sent); batch 2 goes out.
    const r = await runCli(['send', '--resume', file, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('was cut short');
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 150, sent: 50, unsettled: 100 });
    // Second resume of the same journal: it is still whole, batch 1 is settled and sent once.
    const again = await runCli(['send', '--resume', file, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(again.stderr).not.toContain('damaged');
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 150, sent: 150 });
    expectEachOnce('kt-', 150);
    const done = await runCli(['send', '--resume', file], { sandbox: sb.get() });
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toContain('nothing to do');
    // Every line of the journal is a whole record: the fragment is gone from the file.
    const text = fs.readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').filter(Boolean).filter((l) => { try { JSON.parse(l); return false; } catch { return true; } })).toEqual([]);
  });

  // A resume killed in its turn: it had recorded what the event lookup proved about batch 1, and
  // was sending batch 2 (the request carried out, or never arrived) when it died. The next
  // resume settles batch 2 and sends only what is proved unsent.
  it.each([
    ['carried out', true],
    ['never arrived', false],
  ])('a resume killed while its own batch was in flight (%s) is resumed again: nobody twice, nobody lost', async (_what, carriedOut) => {
    const prefix = `krr-${carriedOut ? 'c' : 'n'}-`;
    const p = plan(prefix, 150);
    const first = p.recipients.slice(0, 100);
    const second = p.recipients.slice(100);
    const startedAt = new Date(Date.now() - 1000).toISOString();
    const res = await postDirect(first); // batch 1 of the first run: carried out, then the run died
    const resumedAt = new Date().toISOString();
    const file = writeJournal([
      p,
      { type: 'intent', batch: '1', keys: first.map((r) => r.address.toLowerCase()), at: startedAt },
      // The first resume's settlement, and its batch 2 in flight when it was killed.
      { type: 'settled', at: resumedAt, sent: Object.fromEntries(res.success.map((x) => [x.address.toLowerCase(), { id: x.id }])), unsent: [], unknown: {} },
      { type: 'intent', batch: '2', keys: second.map((r) => r.address.toLowerCase()), at: resumedAt },
    ]);
    if (carriedOut) await postDirect(second);
    const before = posts(prefix).length;
    const r = await runCli(['send', '--resume', file, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 150, sent: 150, unsettled: 0, notSent: 0 });
    // Batch 1 is never looked up again (settled); batch 2 is sent again only if it never arrived.
    const lookedUp = sb.get().sandbox.requests('notify').filter((q) => q.method === 'GET' && q.path === '/v1/events' && String(q.query.recipient).startsWith(prefix));
    expect(lookedUp.some((q) => first.some((f) => f.address === q.query.recipient))).toBe(false);
    expect(posts(prefix).length - before).toBe(carriedOut ? 0 : 1);
    expectEachOnce(prefix, 150);
  });

  it('refuses a journal another live mailctl holds, and message flags next to --resume', async () => {
    const p = plan('kl-', 3);
    const file = writeJournal([p]);
    // The lock a live mailctl (vitest's parent stands in) holds on the journal.
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'other.1' }));
    const held = await runCli(['send', '--resume', file, '--json'], { sandbox: sb.get() });
    expect(held.exitCode).toBe(6);
    expect(JSON.parse(held.stdout).error).toMatchObject({ code: 'LOCKED', exitCode: 6 });
    expect(held.stderr).toContain(`in use by another mailctl (process ${process.ppid} on ${os.hostname()})`);
    fs.rmSync(`${file}.lock`);
    const flags = await runCli(['send', '--resume', file, '--subject', 'x'], { sandbox: sb.get() });
    expect(flags.exitCode).toBe(2);
    expect(flags.stderr).toContain('leave out --subject');
    expect(timesSent('kl-').size).toBe(0);
  });

  it('a bare --resume picks the latest unfinished journal in the config directory', async () => {
    const configDir = tempDir();
    const file = path.join(configDir, 'journals', 'send-email-x.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(plan('kr-', 5)) + '\n');
    const r = await runCli(['send', '--resume'], { sandbox: sb.get(), configDir });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(file);
    expectEachOnce('kr-', 5);
    const none = await runCli(['send', '--resume'], { sandbox: sb.get(), configDir });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no unfinished send');
  });
  it('--resume --dry-run shows what would be sent and changes no file: no repair of a torn line, no lock file', async () => {
    const p = plan('kdry-', 150);
    const first = p.recipients.slice(0, 100);
    const res = await postDirect(first);
    const success = Object.fromEntries(res.success.map((s) => [s.address.toLowerCase(), s.id]));
    const file = writeJournal([p, { type: 'intent', batch: '1', keys: first.map((r) => r.address), at: new Date().toISOString() }, { type: 'result', batch: '1', at: new Date().toISOString(), requestId: res.id, success, failure: {} }], '{"type":"intent","batch":"2","keys":["kdry-1');
    const before = snapshot(path.dirname(file));
    const r = await runCli(['send', '--resume', file, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).requests.map((q: { body: { recipients: unknown[] } }) => q.body.recipients.length)).toEqual([50]);
    expect(snapshot(path.dirname(file))).toEqual(before);
    expect(timesSent('kdry-').size).toBe(100);
  });

  it('a new run of the same message to the same recipients as an unfinished one warns, naming the journal and the resume command; it still runs', async () => {
    const configDir = tempDir();
    const msg = ['--to', 'again.quiet@example.com', '--subject', 'Again', '--html', '<p>x</p>', '--from', MESSAGE.fromAddress];
    sb.get().sandbox.injectFault({ kind: 'drop', match: { service: 'notify', method: 'POST', path: '/v1/messages' } });
    expect((await runCli(['--profile', 'p2', 'send', ...msg], { sandbox: sb.get(), configDir })).exitCode).toBe(5); // unfinished: in doubt
    const [name] = fs.readdirSync(path.join(configDir, 'journals'));
    const journal = path.join(configDir, 'journals', name);

    const again = await runCli(['--profile', 'p2', 'send', ...msg], { sandbox: sb.get(), configDir });
    expect(again.exitCode).toBe(0); // only a warning: a deliberate second send goes ahead
    expect(again.stderr).toContain(`warning: An unfinished send of this same message to the same recipients is recorded in ${journal}`);
    expect(again.stderr).toContain(`To finish that one instead: mailctl --profile p2 send --resume ${journal}`);
    // Another message, or a finished run: no warning.
    const other = await runCli(['send', ...msg.slice(0, 2), '--subject', 'Something else', ...msg.slice(4)], { sandbox: sb.get(), configDir });
    expect(other.stderr).not.toContain('unfinished');
    expect((await runCli(['send', '--resume', journal, '--settle-after', '0s'], { sandbox: sb.get(), configDir })).exitCode).toBe(0);
    expect((await runCli(['send', ...msg], { sandbox: sb.get(), configDir })).stderr).not.toContain('unfinished');
  });

  it('a journal is created readable by its owner only (0600), the default folder 0700', async () => {
    const configDir = tempDir();
    const given = path.join(tempDir(), 'mine.jsonl');
    expect((await runCli(['send', '--to', 'perm-a.quiet@example.com', '--subject', 's', '--html', 'x', '--from', MESSAGE.fromAddress, '--journal', given], { sandbox: sb.get() })).exitCode).toBe(0);
    expect(fs.statSync(given).mode & 0o777).toBe(0o600);
    expect((await runCli(['send', '--to', 'perm-b.quiet@example.com', '--subject', 's', '--html', 'x', '--from', MESSAGE.fromAddress], { sandbox: sb.get(), configDir })).exitCode).toBe(0);
    const dir = path.join(configDir, 'journals');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const [name] = fs.readdirSync(dir);
    expect(name).toMatch(/^send-email-.*\.jsonl$/);
    expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['a folder that does not exist', (d: string) => path.join(d, 'missing', 'j.jsonl'), /The folder .*missing of the journal .* \(--journal\) does not exist\./],
    ['a file, not a folder', (d: string) => { fs.writeFileSync(path.join(d, 'plain'), 'x'); return path.join(d, 'plain', 'j.jsonl'); }, /is a file, not a folder/],
    ['below a file', (d: string) => { fs.writeFileSync(path.join(d, 'plain'), 'x'); return path.join(d, 'plain', 'sub', 'j.jsonl'); }, /is a file, not a folder/],
    ['an empty path', () => '', /^error: --journal is empty; give the path of a new journal file\./m],
    ['an existing folder (not a journal to resume)', (d: string) => d, /--journal .* is a folder; give the path of a new journal file in it, such as .*run\.jsonl\./],
  ])('--journal in %s: one sentence, exit 2, nothing sent', async (_what, where, sentence) => {
    const journal = where(tempDir());
    const before = sb.get().sandbox.requests('notify').length;
    const r = await runCli(['send', '--to', 'jpath.quiet@example.com', '--subject', 's', '--html', 'x', '--from', MESSAGE.fromAddress, '--journal', journal], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(sentence);
    expect(r.stderr).not.toMatch(/unexpected|EEXIST|ENOENT|ENOTDIR|--resume|\n\s+at /);
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });
});
