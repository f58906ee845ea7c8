// mailctl webhook verify, checked against an HMAC computed independently (openssl when it is
// installed, else node:crypto): spec 001 section 5 — "concatenate the message id and the event
// name … HMAC-SHA256 … with the API key as secret; hex-encode; compare with the header".
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const KEY = 'notify-key-for-verify-tests';
const env = { MAILCTL_NOTIFY_API_KEY: KEY };

function independentHmac(key: string, message: string): string {
  try {
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', key], { input: message, encoding: 'utf8' });
    return /([0-9a-f]{64})\s*$/.exec(out.trim())![1];
  } catch {
    return crypto.createHmac('sha256', key).update(message).digest('hex');
  }
}

function payloadFile(payload: unknown): string {
  const file = path.join(tempDir(), 'payload.json');
  fs.writeFileSync(file, JSON.stringify(payload));
  return file;
}

const emailPayload = { event: 'delivery', mail: { id: 'msg-123', subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: 'b@example.com', variables: {} }, delivery: { timestamp: 1714550400000 } };

describe('mailctl webhook verify', () => {
  it('says valid (exit 0) for an email payload signed over mail.id + event with the profile\'s notification key', async () => {
    const sig = independentHmac(KEY, 'msg-123delivery');
    const r = await runCli(['webhook', 'verify', payloadFile(emailPayload), '--signature', sig], { env });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'valid\n' });
    expect(r.stderr).toContain('mail.id=msg-123, event=delivery');
  });

  it('reads the payload from stdin and accepts an SMS payload (sms_data.id) and upper-case hex', async () => {
    const sms = { event: 'bounce', sms_data: { id: 'sms-9', content: 'x', recipient: '886912345678', address: '0912345678', country_code: '886', variables: {}, alive_mins: 5 }, bounce: { timestamp: 1, code: 'X', reason: 'y' } };
    const sig = independentHmac(KEY, 'sms-9bounce').toUpperCase();
    const r = await runCli(['webhook', 'verify', '--signature', sig], { env, stdin: JSON.stringify(sms) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('valid\n');
  });

  it('decisions row 15: falls back to eventType when there is no event field', async () => {
    const { event: _e, ...rest } = emailPayload;
    const r = await runCli(['webhook', 'verify', payloadFile({ ...rest, eventType: 'open' }), '--signature', independentHmac(KEY, 'msg-123open'), '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, id: 'msg-123', event: 'open', idField: 'mail.id', eventField: 'eventType', signedAs: 'name' });
  });

  it('says invalid (exit 1) for a wrong key, a changed body or a cut signature, and lists the usual causes', async () => {
    const sig = independentHmac(KEY, 'msg-123delivery');
    const wrongKey = await runCli(['webhook', 'verify', payloadFile(emailPayload), '--signature', sig], { env: { MAILCTL_NOTIFY_API_KEY: 'another-key' } });
    expect(wrongKey).toMatchObject({ exitCode: 1, stdout: 'invalid\n' });
    expect(wrongKey.stderr).toContain('The key differs');
    expect(wrongKey.stderr).toContain('The body was changed');

    const changed = await runCli(['webhook', 'verify', payloadFile({ ...emailPayload, event: 'click' }), '--signature', sig], { env });
    expect(changed.exitCode).toBe(1);
    expect(changed.stderr).toContain('event="click"');

    const cut = await runCli(['webhook', 'verify', payloadFile(emailPayload), '--signature', sig.slice(0, 40), '--json'], { env });
    expect(cut.exitCode).toBe(1);
    const doc = JSON.parse(cut.stdout);
    expect(doc.valid).toBe(false);
    expect(doc.causes[0]).toContain('not 64 hex digits');
  });

  it('the signature of "msg-123" + "delivery" does not verify another split of the same text, nor an event the channel never sends', async () => {
    const sig = independentHmac(KEY, 'msg-123delivery');
    for (const [id, event] of [['msg-123d', 'elivery'], ['msg-123deliver', 'y'], ['msg-12', '3delivery']]) {
      const r = await runCli(['webhook', 'verify', payloadFile({ ...emailPayload, event, mail: { ...emailPayload.mail, id } }), '--signature', sig, '--json'], { env });
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ valid: false, reason: `the event "${event}" is not one the service sends for email (delivery, open, click, bounce, complaint, or their type codes 3, 4, 5, 6, 7)` });
    }
    // SMS webhooks carry delivery and bounce only: a correctly computed MAC of an email-only name is still refused.
    const sms = { event: 'open', sms_data: { id: 'sms-9', content: 'x' } };
    const r = await runCli(['webhook', 'verify', '--signature', independentHmac(KEY, 'sms-9open')], { env, stdin: JSON.stringify(sms) });
    expect(r).toMatchObject({ exitCode: 1, stdout: 'invalid\n' });
    expect(r.stderr).toContain('the event "open" is not one the service sends for SMS (delivery, bounce, or their type codes 3, 6)');
  });

  it('a body that is not JSON is bad input (exit 2); no key is a config problem (exit 3)', async () => {
    const file = path.join(tempDir(), 'p.txt');
    fs.writeFileSync(file, 'event=delivery');
    expect((await runCli(['webhook', 'verify', file, '--signature', 'ab'], { env })).exitCode).toBe(2);
    expect((await runCli(['webhook', 'verify', payloadFile(emailPayload), '--signature', 'ab'], {})).exitCode).toBe(3);
  });
});
