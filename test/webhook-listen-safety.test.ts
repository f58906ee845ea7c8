// `webhook listen` against a hostile sender and a hostile file system (issue 10.2, 10.3, 10.9):
// a symlink planted at --out is refused (or, with --force, replaced — never appended through);
// the events file is private; what a payload says reaches the terminal only escaped; a genuine
// signature re-split into another id and event name is refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { unusedPort, until } from './helpers/wait.js';
import { sign } from '../src/webhook/signature.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { startConsumer } from './helpers/webhook-consumer.js';

const sb = useSandbox();
const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** Starts `webhook listen` in-process; stop() is Ctrl-C and resolves to the run's result. */
async function listen(args: string[]) {
  const port = await unusedPort();
  const ac = new AbortController();
  const done = runCli(['webhook', 'listen', '--port', String(port), ...args], { sandbox: sb.get(), signal: ac.signal });
  const url = `http://127.0.0.1:${port}/`;
  await until('the listener', () => Promise.race([done.then(() => 'ended'), fetch(url).then((r) => r.ok).catch(() => false)]));
  return { url, stop: () => (ac.abort(), done) };
}

function post(url: string, payload: { event: string; mail: { id: string } & Record<string, unknown> } & Record<string, unknown>) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': sign(SANDBOX_KEYS.notify, payload.mail.id, payload.event) }, body: JSON.stringify(payload) });
}

describe('webhook listen --out and a symlink', () => {
  it('refuses a symlink at --out (exit 2, one sentence naming --force) and leaves its target alone', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'authorized_keys');
    fs.writeFileSync(target, 'ssh-ed25519 AAAA me\n');
    const out = path.join(dir, 'events.jsonl');
    fs.symlinkSync(target, out);
    const r = await runCli(['webhook', 'listen', '--port', '0', '--out', out], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${out} (--out) is a symbolic link; mailctl does not write through links.`);
    expect(r.stderr).toContain('--force');
    expect(fs.readFileSync(target, 'utf8')).toBe('ssh-ed25519 AAAA me\n');
  });

  it('with --force replaces the link by a new private file; the target is never written', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'target.txt');
    fs.writeFileSync(target, 'keep me\n');
    const out = path.join(dir, 'events.jsonl');
    fs.symlinkSync(target, out);
    const l = await listen(['--out', out, '--force']);
    expect((await post(l.url, { event: 'delivery', mail: { id: 'sym-1', to: 'a@example.com' }, delivery: { timestamp: 1 } })).status).toBe(200);
    const r = await l.stop();
    expect(r.exitCode).toBe(0);
    expect(fs.lstatSync(out).isSymbolicLink()).toBe(false);
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).id).toBe('sym-1');
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me\n');
  });
});

describe('webhook listen keeps the events file private', () => {
  it('creates it 0600, and tightens an existing one that others could read', async () => {
    const dir = tempDir();
    const fresh = path.join(dir, 'new.jsonl');
    const a = await listen(['--out', fresh]);
    await a.stop();
    expect(mode(fresh)).toBe(0o600);

    const wide = path.join(dir, 'old.jsonl');
    fs.writeFileSync(wide, '{"old":true}\n');
    fs.chmodSync(wide, 0o644);
    const b = await listen(['--out', wide]);
    const r = await b.stop();
    expect(r.exitCode).toBe(0);
    expect(mode(wide)).toBe(0o600);
    expect(fs.readFileSync(wide, 'utf8')).toBe('{"old":true}\n');
  });
});

describe('webhook listen prints payload text only escaped', () => {
  it('control sequences in event fields are shown visibly, columns hold, --json stays exact', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'events.jsonl');
    const db = `sqlite:${path.join(dir, 'events.db')}`;
    const l = await listen(['--out', out, '--store', db]);
    const hostile = {
      event: 'bounce',
      mail: { id: 'esc-\u001b[2J-1', to: 'victim@example.com\u001b]0;pwned\u0007', subject: 'x' },
      bounce: { timestamp: 1, code: '550', type: 1, reason: 'no such user\u001b[8m hidden\t\u202eevil\r\nnext' },
    };
    expect((await post(l.url, hostile)).status).toBe(200);
    const r = await l.stop();
    expect(r.exitCode).toBe(0);
    const line = r.stdout.trim();
    expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202e]/);
    expect(line).toContain('esc-\\e[2J-1');
    expect(line).toContain('victim@example.com\\e]0;pwned\\x07');
    expect(line).toContain('no such user\\e[8m hidden \\u202eevil\\r\\nnext');
    expect(line.split('\t')).toHaveLength(6);
    // The file keeps the payload exactly as received.
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).payload).toEqual(hostile);

    const j = await listen(['--json', '--out', out, '--store', db]);
    expect((await post(j.url, hostile)).status).toBe(200);
    const rj = await j.stop();
    expect(JSON.parse(rj.stdout)).toMatchObject({ stored: 0, duplicates: 1, out, store: db });
  });
});

describe('webhook listen and a signature re-split (id + event have no separator)', () => {
  it('refuses "M1d"+"elivery" and "M1deliver"+"y" under the signature of "M1"+"delivery" (401, not stored, not forwarded); the genuine event is taken', async () => {
    const out = path.join(tempDir(), 'events.jsonl');
    const app = await startConsumer();
    const l = await listen(['--out', out, '--forward', app.url]);
    const genuine = sign(SANDBOX_KEYS.notify, 'M1', 'delivery');
    const send = (body: unknown) => fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': genuine }, body: JSON.stringify(body) });
    const forged = [
      { event: 'elivery', mail: { id: 'M1d', to: 'a@example.com' }, elivery: { timestamp: 1 } },
      { event: 'y', mail: { id: 'M1deliver', to: 'a@example.com' }, y: { timestamp: 1 } },
    ];
    for (const body of forged) {
      const res = await send(body);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toContain('is not one the service sends for email (delivery, open, click, bounce, complaint, or their type codes 3, 4, 5, 6, 7)');
    }
    expect((await send({ event: 'delivery', mail: { id: 'M1', to: 'a@example.com' }, delivery: { timestamp: 1 } })).status).toBe(200);
    await until('the genuine event forwarded', () => app.got.length >= 1);
    const r = await l.stop();
    await app.close();
    expect(r.exitCode).toBe(0);
    const stored = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((x) => JSON.parse(x));
    expect(stored.map((e) => `${e.id} ${e.event}`)).toEqual(['M1 delivery']);
    expect(app.got.map((g) => JSON.parse(g.raw).mail.id)).toEqual(['M1']);
    expect(r.stderr.match(/rejected \(401\): signature check failed: the event "(elivery|y)" is not one/g)).toHaveLength(2);
  });
});

describe('webhook listen and a body nested thousands deep', () => {
  it('a signed body nested 20,000 levels deep is refused (400) and the listener goes on storing the next event', async () => {
    const l = await listen([]);
    const id = 'deep-1';
    const body = `{"event":"delivery","mail":{"id":"${id}","to":"a@example.com"},"extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const deep = await fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': sign(SANDBOX_KEYS.notify, id, 'delivery') }, body });
    expect(deep.status).toBe(400);
    expect(await deep.text()).toContain('levels deep');
    // Still up, and a real event is stored whole.
    expect((await post(l.url, { event: 'delivery', mail: { id: 'after-deep', to: 'a@example.com' }, delivery: { timestamp: 1 } })).status).toBe(200);
    const r = await l.stop();
    expect(r.exitCode).toBe(0);
  });
});
