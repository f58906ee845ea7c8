// Real `kill -9` of the built CLI (bin/mailctl.js): a send killed mid-run is resumed without
// sending anyone the message twice, and a webhook listener killed after acknowledging events
// leaves every one of them as a whole line in its JSONL file.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { unusedPort, until } from './helpers/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const sb = useSandbox();


function start(args: string[]): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const home = tempDir('mailctl-kill-');
  const env = { PATH: process.env.PATH, HOME: home, MAILCTL_CONFIG_DIR: path.join(home, 'config'), MAILCTL_NOTIFY_URL: sb.get().notifyUrl, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify };
  const child = spawn(process.execPath, [bin, ...args], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  child.stdout!.resume();
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, stderr: () => err, exited };
}


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
    sandbox.injectFault({ kind: 'hang', times: 100, match: { after: 3, service: 'notify', method: 'POST', path: '/v1/messages' } });
    const run = start(['send', '--recipients', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '2']);
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

  it('a listener killed after acknowledging events leaves each as a whole JSONL line, and a new listener appends after them', async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const url = `http://127.0.0.1:${port}/`;
    const listener = start(['webhook', 'listen', '--port', String(port), '--out', out]);
    await until('the listener', () => listener.stderr().includes('Listening on'));
    expect((await runCli(['webhook', 'set', 'delivery', url], { sandbox: sb.get() })).exitCode).toBe(0);
    const file = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(file, ['address', ...Array.from({ length: 5 }, (_, i) => `lk-${i}.quiet@example.com`)].join('\n'));
    expect((await runCli(['send', '--recipients', file, '--subject', 's', '--html', 'x', '--from', 'noreply@example.com'], { sandbox: sb.get() })).exitCode).toBe(0);
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
    await runCli(['send', '--recipients', file, '--subject', 's', '--html', 'x', '--from', 'noreply@example.com'], { sandbox: sb.get() });
    await until('the sixth delivery', () => acked().length >= 6);
    ac.abort();
    await again;
    expect(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(6);
  });
});
