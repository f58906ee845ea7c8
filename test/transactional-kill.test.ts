// Real `kill -9` of the built CLI (bin/mailctl.js): a send or automation run killed at each step
// (a request in flight not carried out, a request carried out but not answered) is resumed with
// nobody receiving it twice and nobody lost — asserted on what the sandbox received — and a
// webhook listener killed after acknowledging events leaves each as a whole line in its file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { unusedPort, until } from './helpers/wait.js';

const sb = useSandbox({
  expect: [
    'POST /campaign/v1/automation/event',
    'GET /campaign/v1/balance',
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
    'POST /notify/v1/webhooks',
  ],
});


/** The built CLI on its own home and config folder, against the sandbox. */
const start = (args: string[]) => spawnCli(args, { sandbox: sb.get(), prefix: 'mailctl-kill-' });

/** Where a run is when it dies: the faults that hold it there, armed after the first batches. */
const STEPS = [
  // The request reached the service and was never carried out (nothing delivered).
  ['a request in flight, not carried out', 'hang'],
  // The service carried the request out; the run died waiting for the answer.
  ['a request carried out, its answer not yet received', 'hold-answer'],
] as const;

const SEND_PATH = { service: 'notify' as const, method: 'POST', path: '/v1/messages' };
const AUTOMATION_PATH = { service: 'campaign' as const, method: 'POST', path: '/v1/automation/event' };

describe('kill -9', () => {
  it('a 2,000-recipient send killed mid-run is finished by --resume with every recipient sent exactly once', async () => {
    const dir = tempDir();
    const csv = path.join(dir, 'r.csv');
    fs.writeFileSync(csv, ['address,code', ...Array.from({ length: 2000 }, (_, i) => `kill-${i}.quiet@example.com,C${i}`)].join('\n'));
    const journal = path.join(dir, 'send.jsonl');
    const sandbox = sb.get().sandbox;
    const posts = () => sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    // After three batches requests hang at the service, so the kill lands with batches in
    // flight (armed before the start: no race with a fast send).
    sandbox.injectFault({ kind: 'hang', times: 100, match: { after: 3, ...SEND_PATH } });
    const run = start(['send', '--recipients-file', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '2']);
    await until('a request in flight', () => posts().some((r) => r.status === -1));
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);

    const before = new Set(Object.values(sandbox.state.notify.messages).map((m) => m.address));
    expect(before.size).toBeGreaterThan(0);
    expect(before.size).toBeLessThan(2000);
    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 2000, sent: 2000 });
    const counts = new Map<string, number>();
    for (const m of Object.values(sandbox.state.notify.messages)) if (m.address.startsWith('kill-')) counts.set(m.address, (counts.get(m.address) ?? 0) + 1);
    expect(counts.size).toBe(2000);
    expect([...counts.entries()].filter(([, c]) => c > 1)).toEqual([]);
  });

  // Every recipient already had a message with the SAME subject minutes before (a login code,
  // sent again): the resume must tell this run's message from that one by its content.
  it.each(STEPS)('send killed with %s, every recipient holding an earlier message of the same subject: --resume delivers each new code exactly once', async (step, kind) => {
    const prefix = `ksame-${kind}-`;
    const n = 450;
    const dir = tempDir();
    const csv = path.join(dir, 'r.csv');
    fs.writeFileSync(csv, ['address,code', ...Array.from({ length: n }, (_, i) => `${prefix}${i}.quiet@example.com,NEW${i}`)].join('\n'));
    const journal = path.join(dir, 'send.jsonl');
    const sandbox = sb.get().sandbox;
    const subject = 'Your login code';
    for (let i = 0; i < n; i += 100) {
      const recipients = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ address: `${prefix}${i + j}.quiet@example.com`, variables: { code: `OLD${i + j}` } }));
      const res = await fetch(`${sb.get().notifyUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': SANDBOX_KEYS.notify, 'content-type': 'application/json' }, body: JSON.stringify({ subject, fromAddress: 'noreply@example.com', content: '<p>{{code}}</p>', recipients }) });
      expect(res.status).toBe(200);
    }
    const mark = sandbox.requests('notify').length;
    const posts = () => sandbox.requests('notify').slice(mark).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    sandbox.injectFault({ kind, times: 100, match: { after: 2, ...SEND_PATH } });
    const run = start(['send', '--recipients-file', csv, '--subject', subject, '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '2']);
    // Two batches answered, two held at the service: the kill lands on ${step}.
    await until(step, () => posts().length >= 4);
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);

    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: n, sent: n });
    const byAddress = new Map<string, string[]>();
    for (const m of Object.values(sandbox.state.notify.messages)) {
      if (m.channel === 'email' && m.address.startsWith(prefix)) byAddress.set(m.address, [...(byAddress.get(m.address) ?? []), m.content]);
    }
    expect(byAddress.size).toBe(n);
    const wrong = [...byAddress.entries()].filter(([a, contents]) => {
      const i = Number(a.slice(prefix.length).split('.')[0]);
      return contents.filter((c) => c === `<p>NEW${i}</p>`).length !== 1 || contents.filter((c) => c === `<p>OLD${i}</p>`).length !== 1 || contents.length !== 2;
    });
    expect(wrong).toEqual([]);
    // Each recipient is reported with the id of this run's message, never the earlier one.
    const newId = new Map(Object.values(sandbox.state.notify.messages).filter((m) => m.address.startsWith(prefix) && m.content.includes('NEW')).map((m) => [m.address, m.id]));
    const reported = JSON.parse(r.stdout).recipients as Array<{ address: string; messageId: string }>;
    expect(reported.filter((x) => x.messageId !== newId.get(x.address))).toEqual([]);
  });

  /** A send of `n` recipients killed with two batches answered and two carried out but not answered; one batch never sent. */
  async function killedSend(prefix: string, n: number): Promise<string> {
    const dir = tempDir();
    const csv = path.join(dir, 'r.csv');
    fs.writeFileSync(csv, ['address,code', ...Array.from({ length: n }, (_, i) => `${prefix}${i}.quiet@example.com,C${i}`)].join('\n'));
    const journal = path.join(dir, 'send.jsonl');
    const sandbox = sb.get().sandbox;
    const mark = sandbox.requests('notify').length;
    sandbox.injectFault({ kind: 'hold-answer', times: 100, match: { after: 2, ...SEND_PATH } });
    const run = start(['send', '--recipients-file', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '2']);
    await until('two answered, two held', () => sandbox.requests('notify').slice(mark).filter((r) => r.method === 'POST' && r.path === SEND_PATH.path).length >= 4);
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);
    return journal;
  }

  /** Every recipient of `prefix` received exactly one message (zero duplicates, zero lost). */
  function expectEachOnce(prefix: string, n: number): void {
    const counts = new Map<string, number>();
    for (const m of Object.values(sb.get().sandbox.state.notify.messages)) if (m.address.startsWith(prefix)) counts.set(m.address, (counts.get(m.address) ?? 0) + 1);
    expect(counts.size).toBe(n);
    expect([...counts.entries()].filter(([, c]) => c !== 1)).toEqual([]);
  }

  it('send --resume killed during its settle step (event lookups in flight): nothing was sent by it, and the next resume finishes with everyone once', async () => {
    const prefix = 'ksettle-';
    const n = 450;
    const journal = await killedSend(prefix, n);
    const sandbox = sb.get().sandbox;
    const mark = sandbox.requests('notify').length;
    const since = () => sandbox.requests('notify').slice(mark);
    sandbox.injectFault({ kind: 'hang', times: 1000, match: { service: 'notify', method: 'GET', path: '/v1/events' } });
    const resume = start(['send', '--resume', journal, '--settle-after', '0s']);
    await until('the settle step under way', () => since().some((r) => r.method === 'GET' && r.path === '/v1/events' && r.status === -1));
    resume.child.kill('SIGKILL');
    await resume.exited;
    sandbox.faults.splice(0);
    expect(since().filter((r) => r.method === 'POST')).toEqual([]); // nothing is sent before the doubts are settled

    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: n, sent: n });
    expectEachOnce(prefix, n);
  });

  it('a resume killed -9 while its own batches were in flight, resumed again: everyone once', async () => {
    const prefix = 'krr-';
    const n = 650;
    const journal = await killedSend(prefix, n);
    const sandbox = sb.get().sandbox;
    const mark = sandbox.requests('notify').length;
    const sent = () => sandbox.requests('notify').slice(mark).filter((r) => r.method === 'POST' && r.path === SEND_PATH.path);
    // The first resume settles the two held batches (carried out) and sends the rest: one batch
    // is answered, the next two are carried out and held when it is killed.
    sandbox.injectFault({ kind: 'hold-answer', times: 100, match: { after: 1, ...SEND_PATH } });
    const resume = start(['send', '--resume', journal, '--settle-after', '0s', '--concurrency', '2']);
    await until('the resume\'s batches in flight', () => sent().length >= 3);
    resume.child.kill('SIGKILL');
    await resume.exited;
    sandbox.faults.splice(0);
    expect(sent().length).toBeLessThan(5); // the kill landed before the resume was done

    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: n, sent: n });
    expectEachOnce(prefix, n);
  });

  it.each(STEPS)('automation killed with %s: --resume sends the rest; nobody twice, and nobody lost (each received or reported in doubt)', async (step, kind) => {
    const prefix = `kauto-${kind}-`;
    const n = 450;
    const dir = tempDir();
    const csv = path.join(dir, 'r.csv');
    fs.writeFileSync(csv, ['email,plan', ...Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org,pro`)].join('\n'));
    const journal = path.join(dir, 'auto.jsonl');
    const sandbox = sb.get().sandbox;
    const mark = sandbox.requests('campaign').length;
    const events = () => sandbox.requests('campaign').slice(mark).filter((r) => r.method === 'POST' && r.path === AUTOMATION_PATH.path);
    sandbox.injectFault({ kind, times: 100, match: { after: 2, ...AUTOMATION_PATH } });
    const run = start(['automation', 'trigger', '--workflow', 'onboard', '--recipients-file', csv, '--journal', journal]);
    await until(step, () => events().length >= 3);
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);

    const r = await runCli(['automation', 'trigger', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5); // the batch that was in flight stays in doubt: nothing can prove it either way
    const doc = JSON.parse(r.stdout);
    const inDoubt = new Set(doc.inDoubt.map((x: { address: string }) => x.address));
    expect(inDoubt.size).toBe(100);
    expect(doc.accepted).toHaveLength(n - 100);
    const received = new Map<string, number>();
    for (const q of events()) {
      if (q.status !== 200) continue;
      for (const x of (q.body as { recipients: Array<{ address: string }> }).recipients) received.set(x.address, (received.get(x.address) ?? 0) + 1);
    }
    const all = Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org`);
    expect(all.filter((a) => (received.get(a) ?? 0) > 1)).toEqual([]); // zero duplicates
    expect(all.filter((a) => !received.has(a) && !inDoubt.has(a))).toEqual([]); // zero lost
    expect(doc.accepted.filter((a: string) => received.get(a) !== 1)).toEqual([]);
    // The in-doubt batch went in only if the service carried it out before the kill.
    expect([...inDoubt].filter((a) => received.has(a as string)).length).toBe(kind === 'hold-answer' ? 100 : 0);
  });

  it('a listener killed after acknowledging events leaves each as a whole JSONL line, and a new listener appends after them', async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const url = `http://127.0.0.1:${port}/`;
    const listener = start(['webhook', 'listen', '--port', String(port), '--out', out]);
    await until('the listener', () => listener.stderr().includes('Listening on'));
    expect((await runCli(['webhook', 'set', 'delivery', url], { sandbox: sb.get() })).exitCode).toBe(0);
    const file = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(file, ['address', ...Array.from({ length: 5 }, (_, i) => `lk-${i}.quiet@example.com`)].join('\n'));
    expect((await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'x', '--from', 'noreply@example.com'], { sandbox: sb.get() })).exitCode).toBe(0);
    const acked = () => sb.get().sandbox.webhookLog.filter((w) => w.url === url && w.status === 200);
    await until('five acknowledged deliveries', () => acked().length >= 5);
    listener.child.kill('SIGKILL');
    await listener.exited;

    const lines = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id).sort()).toEqual(acked().map((w) => (w.body as { mail: { id: string } }).mail.id).sort());

    const ac = new AbortController();
    const again = runCli(['webhook', 'listen', '--port', String(port), '--out', out], { sandbox: sb.get(), signal: ac.signal });
    await until('the second listener', () => fetch(url).then((r) => r.ok).catch(() => false));
    fs.writeFileSync(file, 'address\nlk-5.quiet@example.com\n');
    await runCli(['send', '--recipients-file', file, '--subject', 's', '--html', 'x', '--from', 'noreply@example.com'], { sandbox: sb.get() });
    await until('the sixth delivery', () => acked().length >= 6);
    ac.abort();
    await again;
    expect(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(6);
  });
});
