// mailctl webhook listen: receives the sandbox's signed deliveries, stores them as JSONL,
// forwards them unchanged, and turns away what is not signed right (401) or too big (413); an
// --out it cannot write is bad input (exit 2). Forwarding, limits and safety have their own files
// (test/webhook-listen-*.test.ts).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { unusedPort, until } from './helpers/wait.js';
import { sign } from '../src/webhook/signature.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'POST /notify/v1/messages',
    'POST /notify/v1/webhooks',
  ],
});



/** A stand-in for the developer's local app, recording what the listener forwards. */
async function localApp(): Promise<{ url: string; got: Array<{ body: string; headers: http.IncomingHttpHeaders }>; close: () => Promise<void> }> {
  const got: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`, got, close: () => new Promise((r) => server.close(() => r())) };
}

describe('mailctl webhook listen', () => {
  it('stores signed deliveries (fsync\'d JSONL, appended), forwards them unchanged, rejects tampered (401) and oversized (413) bodies, stops on Ctrl-C', async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    // Left by an earlier listener that was killed mid-write: the whole line kept, the torn one cut
    // off before anything is appended (it was never acknowledged: its sender sent it again).
    fs.writeFileSync(out, '{"old":true}\n{"torn":');
    const app = await localApp();
    const ac = new AbortController();
    const cfg = tempDir();
    const listening = runCli(['webhook', 'listen', '--port', String(port), '--out', out, '--forward', app.url, '--max-body', '2048'], { sandbox: sb.get(), signal: ac.signal, configDir: cfg });
    const url = `http://127.0.0.1:${port}/`;
    await until('the listener', () => fetch(url).then((r) => r.ok).catch(() => false));

    const set = await runCli(['webhook', 'set', 'delivery', url], { sandbox: sb.get() });
    expect(set.exitCode).toBe(0);
    const sent = await runCli(['send', '--to', 'lw-1.quiet@example.com', '--subject', 'hi', '--html', 'x', '--from', 'noreply@example.com', '--json'], { sandbox: sb.get() });
    const messageId = JSON.parse(sent.stdout).recipients[0].messageId;
    const delivered = await until('the signed delivery', () => sb.get().sandbox.webhookLog.find((w) => w.url === url && w.status !== undefined));
    expect(delivered.status).toBe(200);
    expect(delivered.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);

    // The same body with the recipient changed, under the original signature: 401, not stored.
    const body = delivered.body as { mail: Record<string, unknown> };
    const tampered = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': delivered.headers['x-service-signature'] }, body: JSON.stringify({ ...body, event: 'click' }) });
    expect(tampered.status).toBe(401);
    const unsigned = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
    expect(unsigned.status).toBe(401);
    // decisions row 14: the header name public code uses is accepted too (another event of the
    // same message, signed with the profile's key: a repeat of the delivery would not be stored).
    const openBody = { ...body, event: 'open', open: { timestamp: 1, client_headers: 'x' } };
    const openSig = sign(SANDBOX_KEYS.notify, messageId, 'open');
    const other = await fetch(url, { method: 'POST', headers: { 'x-surenotify-signature': openSig }, body: JSON.stringify(openBody) });
    expect(other.status).toBe(200);
    // The delivery again (the service retrying, or a replay): 200, neither stored nor forwarded.
    const again = await fetch(url, { method: 'POST', headers: { 'x-service-signature': delivered.headers['x-service-signature'] }, body: JSON.stringify(body) });
    expect(again.status).toBe(200);
    const big = await fetch(url, { method: 'POST', headers: { 'x-service-signature': 'ab' }, body: 'x'.repeat(4096) });
    expect(big.status).toBe(413);

    await until('two forwards', () => app.got.length >= 2);
    ac.abort();
    const r = await listening;
    await app.close();
    expect(r.exitCode).toBe(0);

    const lines = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(lines[0]).toBe('{"old":true}');
    const stored = lines.slice(1).map((l) => JSON.parse(l));
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({ event: 'delivery', id: messageId, channel: 'email', signatureHeader: 'x-service-signature', payload: delivered.body });
    expect(stored[1]).toMatchObject({ event: 'open', id: messageId, signatureHeader: 'x-surenotify-signature' });
    // Forwarded byte for byte, with the signature header it came with.
    expect(app.got[0].body).toBe(JSON.stringify(delivered.body));
    expect(app.got[0].headers['x-service-signature']).toBe(delivered.headers['x-service-signature']);
    expect(app.got[1].headers['x-surenotify-signature']).toBe(openSig);
    expect(app.got).toHaveLength(2);
    // One line per event on stdout; rejections and the summary on stderr.
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stdout).toContain(`\temail\tdelivery\t${messageId}\tlw-1.quiet@example.com`);
    expect(r.stderr).toContain('rejected (401)');
    expect(r.stderr).toContain('rejected (413)');
    expect(r.stderr).toContain(`2 events stored in sqlite:${path.join(cfg, 'events.db')}`);
    expect(r.stderr).toMatch(/events\.jsonl ended in a torn line \(8 bytes.*cut back to the last whole line/);
    // The store (events.db in the config folder by default), read from outside: the same two.
    const py = spawnSync('python3', ['-c', 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select channel, message_id, event, recipient from events order by seq").fetchall())', path.join(cfg, 'events.db')], { encoding: 'utf8' });
    expect(py.stdout.trim()).toBe(`[('email', '${messageId}', 'delivery', 'lw-1.quiet@example.com'), ('email', '${messageId}', 'open', 'lw-1.quiet@example.com')]`);
    expect(r.stderr).toContain('1 repeat not stored again');
  });

  it('a port already in use is a clear usage error', async () => {
    const s = net.createServer();
    await new Promise<void>((res) => s.listen(0, '127.0.0.1', () => res()));
    const port = (s.address() as net.AddressInfo).port;
    const r = await runCli(['webhook', 'listen', '--port', String(port), '--out', path.join(tempDir(), 'e.jsonl')], { sandbox: sb.get() });
    await new Promise<void>((res) => s.close(() => res()));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  });
});

describe('webhook listen --out that cannot be written', () => {
  // --out naming a folder (or a path in a missing folder) used to end in "unexpected failure:
  // EISDIR … This is a bug in mailctl" with exit 1. It is bad input: one sentence naming the
  // file and the fix, exit 2.
  it('a folder: exit 2 naming the file and how to fix it', async () => {
    const dir = tempDir();
    const r = await runCli(['webhook', 'listen', '--port', '0', '--out', dir], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Cannot write the events file ${dir}: it is a folder.`);
    expect(r.stderr).toContain('--out FILE');
    expect(r.stderr).not.toContain('unexpected failure');
  });

  it('a file in a folder that does not exist: exit 2, nothing created', async () => {
    const missing = path.join(tempDir(), 'no-such-folder', 'events.jsonl');
    const r = await runCli(['--json', 'webhook', 'listen', '--port', '0', '--out', missing], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toBe(`Cannot write the events file ${missing}: its folder does not exist.`);
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  });
});
