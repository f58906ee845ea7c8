// Every file (or standard input) mailctl reads as text, other than the import, used to go through
// Node's lenient decoder: a byte that is not UTF-8 became U+FFFD and was sent (a recipient named
// "\ufffd(x"). Each reader now refuses it before any request: exit 2 (3 for the config file, a
// config problem), one sentence naming the file or standard input, the flag and the offset of the
// first bad byte from the start of the file (counting from 0, as Python's decode error does), and
// how to fix it. The sandbox is told to expect no request at all, so a send would fail the test.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { decodeUtf8, firstInvalidUtf8 } from '../src/core/utf8.js';
import { UsageError } from '../src/core/errors.js';

const sb = useSandbox({ expect: [] });

/** `before`, then bytes that are not UTF-8 (C3 28: a lead byte followed by "("), then `after`. */
function damaged(before: string, after: string): { bytes: Buffer; at: number } {
  const head = Buffer.from(before);
  return { bytes: Buffer.concat([head, Buffer.from([0xc3, 0x28]), Buffer.from(after)]), at: head.length };
}

const written: Buffer[] = [];
function file(name: string, bytes: Buffer): string {
  const p = path.join(tempDir('mailctl-utf8-'), name);
  fs.writeFileSync(p, bytes);
  written.push(bytes);
  return p;
}

/** Exit 2, the one sentence with the offset, the file (or standard input) and flag named, the fix, nothing on stdout. */
function refused(r: { exitCode: number; stdout: string; stderr: string }, at: number, named: string, flag: string | undefined, code = 2): void {
  expect(r.exitCode, r.stderr).toBe(code);
  expect(r.stderr).toContain(`is not valid UTF-8 (the first invalid byte is at offset ${at}, counting from 0)`);
  expect(r.stderr).toContain(named);
  if (flag) expect(r.stderr).toContain(`(${flag})`);
  expect(r.stderr).toMatch(/(Save the file|Give standard input) as UTF-8/);
  expect(r.stderr).not.toContain('\ufffd');
  expect(r.stdout).toBe('');
}

const mail = ['--subject', 's', '--from', 'news@example.com'];

describe('send and automation', () => {
  it('send --recipients-file CSV: the name "\\xc3(x" is refused at its offset, not sent as "\\ufffd(x"', async () => {
    const d = damaged('address,name\na@example.com,', 'x\n');
    const f = file('r.csv', d.bytes);
    const r = await runCli(['send', '--recipients-file', f, ...mail, '--html', '<p>x</p>'], { sandbox: sb.get() });
    refused(r, d.at, `The recipients file ${f}`, '--recipients-file');
    // The same under --dry-run, which used to print the plan with the replaced name.
    refused(await runCli(['send', '--recipients-file', f, ...mail, '--html', '<p>x</p>', '--dry-run'], { sandbox: sb.get() }), d.at, f, '--recipients-file');
  });

  it('send --recipients-file JSON, and a UTF-8 byte-order mark: dropped, yet counted in the offset', async () => {
    const d = damaged('\ufeff[{"address": "a@example.com", "name": "', '"}]');
    const f = file('r.json', d.bytes);
    refused(await runCli(['send', '--recipients-file', f, ...mail, '--html', '<p>x</p>'], { sandbox: sb.get() }), d.at, f, '--recipients-file');
  });

  it('send --recipients-file in UTF-16LE (its byte-order mark) with a lone surrogate: refused, not replaced', async () => {
    const text = Buffer.from('address,name\na@example.com,X\n', 'utf16le');
    text.writeUInt16LE(0xd800, text.length - 4); // "X" → an unpaired high surrogate
    const f = file('r16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), text]));
    const r = await runCli(['send', '--recipients-file', f, ...mail, '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`The recipients file ${f} (--recipients-file) starts with a UTF-16 byte-order mark but is not valid UTF-16 text`);
  });

  it('send --html-file, from a file and from standard input', async () => {
    const d = damaged('<p>Hello ', '</p>');
    const f = file('mail.html', d.bytes);
    refused(await runCli(['send', '--to', 'a@example.com', ...mail, '--html-file', f], { sandbox: sb.get() }), d.at, `The html content file ${f}`, '--html-file');
    refused(await runCli(['send', '--to', 'a@example.com', ...mail, '--html-file', '-'], { sandbox: sb.get(), stdin: d.bytes }), d.at, 'Standard input', '--html-file -');
  });

  it('send sms --text-file', async () => {
    const d = damaged('Your code ', ' is ready');
    const f = file('sms.txt', d.bytes);
    refused(await runCli(['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text-file', f], { sandbox: sb.get() }), d.at, `The SMS text file ${f}`, '--text-file');
    refused(await runCli(['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text-file', '-'], { sandbox: sb.get(), stdin: d.bytes }), d.at, 'Standard input', '--text-file -');
  });

  it('automation trigger --recipients-file', async () => {
    const d = damaged('address,name\na@example.com,', '\n');
    const f = file('r.csv', d.bytes);
    const r = await runCli(['automation', 'trigger', '--workflow', 'welcome', '--recipients-file', f], { sandbox: sb.get() });
    refused(r, d.at, f, '--recipients-file');
  });
});

describe('campaign', () => {
  const html = file('ok.html', Buffer.from('<p>ok</p>'));
  const base = ['--name', 'Dec', '--group', 'Newsletter', '--subject', 'Hi', '--from', 'news@example.com', '--from-name', 'Acme'];

  it('campaign create --file: the campaign JSON', async () => {
    const d = damaged('{"name": "Dec ', '", "group": "Newsletter"}');
    const f = file('c.json', d.bytes);
    refused(await runCli(['campaign', 'create', '--file', f], { sandbox: sb.get() }), d.at, `The campaign file ${f}`, '--file');
  });

  it('--html-file in campaign create, preflight, proof and preview; --html-file-a/-b', async () => {
    const d = damaged('<p>Dear ', '</p>');
    const f = file('bad.html', d.bytes);
    const withBad = [...base, '--html-file', f];
    refused(await runCli(['campaign', 'create', ...withBad, '--no-links'], { sandbox: sb.get() }), d.at, `The html file ${f}`, '--html-file');
    refused(await runCli(['campaign', 'preflight', ...withBad, '--no-links'], { sandbox: sb.get() }), d.at, `The html file ${f}`, '--html-file');
    refused(await runCli(['campaign', 'proof', ...withBad, '--to', 'me@example.com'], { sandbox: sb.get() }), d.at, `The html file ${f}`, '--html-file');
    const out = path.join(tempDir(), 'p.html');
    refused(await runCli(['campaign', 'preview', ...withBad, '--no-links', '--out', out]), d.at, `The html file ${f}`, '--html-file');
    expect(fs.existsSync(out)).toBe(false);
    const ab = [...base, '--ab', 'content', '--html-file-a', html, '--html-file-b', f];
    refused(await runCli(['campaign', 'preflight', ...ab, '--no-links'], { sandbox: sb.get() }), d.at, `The html file ${f}`, '--html-file-b');
  });

  it('campaign create --recipients-file (a one-time list): its bytes would go to the service as they are', async () => {
    const d = damaged('EMAIL,NAME\na@example.com,', '\n');
    const f = file('list.csv', d.bytes);
    const r = await runCli(['campaign', 'create', '--name', 'Once', '--subject', 'Hi', '--from', 'news@example.com', '--from-name', 'Acme', '--html-file', html, '--recipients-file', f, '--no-links'], { sandbox: sb.get() });
    refused(r, d.at, `The list file ${f}`, '--recipients-file');
  });
});

describe('contacts, webhooks and the config file', () => {
  it('contacts remove --emails-file, from a file and from standard input', async () => {
    const d = damaged('a@example.com\nb', '@example.com\n');
    const f = file('emails.txt', d.bytes);
    refused(await runCli(['contacts', 'remove', '--group', 'G1', '--emails-file', f, '--yes'], { sandbox: sb.get() }), d.at, `The emails file ${f}`, '--emails-file');
    refused(await runCli(['contacts', 'remove', '--group', 'G1', '--emails-file', '-', '--yes'], { sandbox: sb.get(), stdin: d.bytes }), d.at, 'Standard input', '--emails-file -');
  });

  it('webhook verify: the payload file and standard input (a replaced byte would verify another body)', async () => {
    const env = { MAILCTL_NOTIFY_API_KEY: 'notify-key-for-utf8-tests' };
    const sig = crypto.createHmac('sha256', env.MAILCTL_NOTIFY_API_KEY).update('m1delivery').digest('hex');
    const d = damaged('{"event": "delivery", "mail": {"id": "m1", "subject": "', '"}}');
    const f = file('payload.json', d.bytes);
    refused(await runCli(['webhook', 'verify', f, '--signature', sig], { env }), d.at, `The payload file ${f}`, undefined);
    refused(await runCli(['webhook', 'verify', '--signature', sig], { env, stdin: d.bytes }), d.at, 'Standard input', undefined);
  });

  it('webhook replay: the events file, checked in chunks, the offset counted over the whole file', async () => {
    const good = JSON.stringify({ event: 'open', mail: { id: 'm1', subject: 'Zoë 王小明 🎉' } }) + '\n';
    const lines = good.repeat(3000); // larger than one read of the stream: the damage is in a later chunk
    const d = damaged(`${lines}{"event": "open", "mail": {"id": "m2", "subject": "`, '"}}\n');
    const f = file('events.jsonl', d.bytes);
    const r = await runCli(['webhook', 'replay', f, '--url', 'http://127.0.0.1:9/hook', '--dry-run'], { env: { MAILCTL_NOTIFY_API_KEY: 'k-utf8-test-1234' } });
    expect(d.at).toBeGreaterThan(1 << 16);
    refused(r, d.at, `The events file ${f}`, undefined);
  });

  it('the config file, hand-edited: exit 3 naming it and the offset, and `config set` leaves it as it was', async () => {
    const configDir = tempDir();
    const d = damaged('{"profiles": {"default": {"fromName": "Acme ', '"}}}');
    const cfg = path.join(configDir, 'config.json');
    fs.writeFileSync(cfg, d.bytes);
    written.push(d.bytes);
    refused(await runCli(['config', 'list'], { configDir }), d.at, `The config file ${cfg}`, undefined, 3);
    refused(await runCli(['config', 'set', 'from-name', 'Acme'], { configDir }), d.at, `The config file ${cfg}`, undefined, 3);
    expect(fs.readFileSync(cfg).equals(d.bytes)).toBe(true);
  });

  it('valid UTF-8 with a byte-order mark is still read: a recipient\'s name arrives as written', async () => {
    sb.expect('POST /notify/v1/messages', { required: true });
    sb.expect('GET /campaign/v1/balance');
    const f = file('ok.csv', Buffer.from('\ufeffaddress,name\na@example.com,Renée 陳\n'));
    const r = await runCli(['send', '--recipients-file', f, ...mail, '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = sb.get().sandbox.requests().filter((q) => q.path.endsWith('/v1/messages')).at(-1);
    expect(JSON.stringify(sent?.body)).toContain('Renée 陳');
  });
});

describe('the offset, against Python\'s decoder', () => {
  it('decodeUtf8 names the first bad byte, drops a BOM, and refuses what Node would replace', () => {
    const at = (b: number[]) => {
      try {
        decodeUtf8(Buffer.from(b), { name: 'standard input' });
        return -1;
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return Number(/offset (\d+)/.exec((e as Error).message)![1]);
      }
    };
    expect(decodeUtf8(Buffer.from('\ufeffabc'), { name: 'x' })).toBe('abc');
    expect(at([0x61, 0xc3, 0x28])).toBe(1);
    expect(at([0xef, 0xbb, 0xbf, 0x61, 0xff])).toBe(4);
    expect(at([0x61, 0x62, 0xe4, 0xb8])).toBe(2); // cut off at the end
  });

  const python = spawnSync('python3', ['-c', 'print(1)'], { encoding: 'utf8' });
  it.skipIf(python.status !== 0)('every file these tests wrote, and random damage: the offset Python reports (UnicodeDecodeError.start)', () => {
    let seed = 8;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const base = Buffer.from('address,name\nann@example.com,Zoë 王小明 🎉 naïve café ✓\n'.repeat(4));
    const cases = [...written, ...Array.from({ length: 200 }, () => {
      const buf = Buffer.from(base);
      for (let k = 0, n = 1 + rand(3); k < n; k++) buf[rand(buf.length)] = rand(256);
      return buf;
    })];
    const script = 'import sys\nfor line in sys.stdin:\n  b = bytes.fromhex(line.strip())\n  try:\n    b.decode("utf-8"); print(-1)\n  except UnicodeDecodeError as e:\n    print(e.start)';
    const r = spawnSync('python3', ['-c', script], { input: cases.map((b) => b.toString('hex')).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    const expected = r.stdout.trim().split('\n').map(Number);
    expect(expected.length).toBe(cases.length);
    for (const [i, buf] of cases.entries()) expect(firstInvalidUtf8(buf), `case ${i}`).toBe(expected[i]);
    expect(expected.filter((x) => x >= 0).length).toBeGreaterThan(100);
  });
});
