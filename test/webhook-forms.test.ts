// decisions row 27: a webhook signed the way the vendor's reference shows (header
// x-surenotify-signature, id at the top level, event under eventType, the type code 3–7, the
// signature over id + code) is an event like any other: `webhook trigger --form` sends each form,
// the listener stores every one (a refused webhook is an event lost), `webhook replay` sends each
// on with the signature it arrived with, and `webhook verify` accepts each. A signature moved onto
// another event or id, or onto an event the service does not send, is still refused. Signatures
// here are computed with node:crypto from the documented recipe, not by mailctl's signer.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startConsumer, type Consumer } from './helpers/webhook-consumer.js';
import { unusedPort, until } from './helpers/wait.js';
import { FORM_NAMES, WEBHOOK_FORMS } from '../src/webhook/forms.js';

const KEY = 'notify-key-for-form-tests-5d1c';
const env = { MAILCTL_NOTIFY_API_KEY: KEY };
const CODE: Record<string, number> = { delivery: 3, open: 4, click: 5, bounce: 6, complaint: 7 };
const hmac = (message: string, key = KEY) => crypto.createHmac('sha256', key).update(message).digest('hex');

/** A running `webhook listen` (in-process) on a free loopback port, stopped by stop(). */
async function listen(out: string): Promise<{ url: string; stop: () => Promise<{ exitCode: number; stdout: string; stderr: string }> }> {
  const port = await unusedPort();
  const ac = new AbortController();
  const running = runCli(['webhook', 'listen', '--port', String(port), '--out', out], { env, signal: ac.signal });
  const url = `http://127.0.0.1:${port}/`;
  await until('the listener', () => fetch(url).then((r) => r.ok).catch(() => false));
  return { url, stop: async () => { ac.abort(); return running; } };
}

let consumer: Consumer;
beforeAll(async () => { consumer = await startConsumer(); });
afterAll(async () => { await consumer.close(); });

describe('every form the vendor documents: triggered, stored by the listener, replayed as it came, verified', () => {
  it('each --form, email and SMS', async () => {
    const out = path.join(tempDir('mailctl-forms-'), 'events.jsonl');
    const listener = await listen(out);
    const sent: Array<{ form: string; event: string; channel: string; id: string; signatureHeader: string; signature: string; payload: Record<string, unknown> }> = [];
    for (const form of FORM_NAMES) {
      for (const event of ['open', 'sms-bounce']) {
        const r = await runCli(['webhook', 'trigger', event, '--url', listener.url, '--form', form, '--json'], { env });
        // exit 0: the listener answered 2xx, i.e. verified and stored it.
        expect(r.exitCode, `${form} ${event}: ${r.stderr}`).toBe(0);
        sent.push(JSON.parse(r.stdout));
      }
    }
    const stopped = await listener.stop();
    expect(stopped.stderr).toContain(`Stopped. ${sent.length} events stored`);
    expect(stopped.stderr).not.toContain('rejected (');

    // What each form put on the wire, checked against the documented recipe.
    for (const s of sent) {
      const f = WEBHOOK_FORMS[s.form as keyof typeof WEBHOOK_FORMS];
      const name = s.event;
      const eventValue = s.payload[f.eventField];
      expect(eventValue).toBe(f.eventAs === 'code' ? CODE[name] : name);
      expect(s.payload[f.eventField === 'event' ? 'eventType' : 'event']).toBeUndefined();
      const msg = s.payload[s.channel === 'sms' ? 'sms_data' : 'mail'] as Record<string, unknown>;
      if (f.idAt === 'top') expect([s.payload.id, msg.id]).toEqual([s.id, undefined]);
      else expect([s.payload.id, msg.id]).toEqual([undefined, s.id]);
      expect(s.signatureHeader).toBe(f.header);
      expect(s.signature).toBe(hmac(s.id + (f.signs === 'code' ? String(CODE[name]) : name)));
    }
    expect(new Set(sent.map((s) => s.signatureHeader))).toEqual(new Set(['x-service-signature', 'x-surenotify-signature']));

    // Every one stored, under the event's name whatever form stated it, with the signature as it came.
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(stored.map((e) => [e.id, e.event, e.signatureHeader, e.signature])).toEqual(sent.map((s) => [s.id, s.event, s.signatureHeader, s.signature]));
    expect(stored.map((e) => e.channel)).toEqual(sent.map((s) => s.channel));

    // Replayed: the same body, header and signature as the trigger sent, each of which verifies.
    const from = consumer.got.length;
    const replay = await runCli(['webhook', 'replay', out, '--url', consumer.url, '--rate', '1000/s'], { env });
    expect(replay.exitCode, replay.stderr).toBe(0);
    const got = consumer.got.slice(from);
    expect(got).toHaveLength(sent.length);
    for (const [i, g] of got.entries()) {
      expect(JSON.parse(g.raw)).toEqual(sent[i].payload);
      expect(g.headers[sent[i].signatureHeader]).toBe(sent[i].signature);
      const v = await runCli(['webhook', 'verify', '-', '--signature', sent[i].signature, '--json'], { env, stdin: g.raw });
      expect(v.exitCode, `${sent[i].form} ${sent[i].event}`).toBe(0);
      const signedAs = WEBHOOK_FORMS[sent[i].form as keyof typeof WEBHOOK_FORMS].signs;
      expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, id: sent[i].id, event: sent[i].event, signedAs });
    }

    // --resign signs each in the form its payload states (the code where the payload gives the code).
    const from2 = consumer.got.length;
    const resigned = await runCli(['webhook', 'replay', out, '--url', consumer.url, '--rate', '1000/s', '--resign'], { env });
    expect(resigned.exitCode, resigned.stderr).toBe(0);
    for (const [i, g] of consumer.got.slice(from2).entries()) {
      const f = WEBHOOK_FORMS[sent[i].form as keyof typeof WEBHOOK_FORMS];
      expect(g.headers[sent[i].signatureHeader]).toBe(hmac(sent[i].id + (f.eventAs === 'code' ? String(CODE[sent[i].event]) : sent[i].event)));
    }
  });
});

describe('webhook trigger --form with --set', () => {
  it('the form\'s own fields are known to --set (a top-level id, eventType as a number), and the signature follows the payload', async () => {
    const r = await runCli(['webhook', 'trigger', 'delivery', '--url', 'http://127.0.0.1:9/hooks', '--form', 'vendor', '--set', 'id=evt-42', '--set', 'eventType=6', '--dry-run', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('no such field');
    const [req] = JSON.parse(r.stdout).requests as Array<{ headers: Record<string, string>; body: Record<string, unknown> }>;
    expect(req.body).toMatchObject({ id: 'evt-42', eventType: 6 });
    expect(req.headers['x-surenotify-signature']).toBe(hmac('evt-426'));
    const unknown = await runCli(['webhook', 'trigger', 'delivery', '--url', 'http://127.0.0.1:9/hooks', '--form', 'event-type', '--set', 'event=open', '--dry-run'], { env });
    expect(unknown.stderr).toContain("--set event: the event-type form's email delivery payload has no such field; sent anyway.");
  });
});

describe('what the vendor\'s forms do not open: forged or moved signatures are refused', () => {
  // The vendor's troubleshooting example, whole: top-level id, eventType as the code, id + code signed.
  const genuine = { id: 'msg-123', eventType: 3, mail: { subject: 'Hi', to: 'b@example.com' }, delivery: { timestamp: 1 } };
  const sig = hmac('msg-1233');

  const post = (url: string, body: unknown, signature = sig, header = 'x-surenotify-signature') =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', [header]: signature }, body: JSON.stringify(body) });

  const refused: Array<[string, unknown, string?]> = [
    ['the event swapped (3 → 6)', { ...genuine, eventType: 6 }],
    ['the event swapped by name', { ...genuine, eventType: 'bounce' }],
    ['another id', { ...genuine, id: 'msg-124' }],
    ['the signed text split another way (id "msg-12", event "33")', { ...genuine, id: 'msg-12', eventType: '33' }],
    ['the signed text split another way (id "msg-12", event 3)', { ...genuine, id: 'msg-12' }],
    ['a type code the service does not use (8)', { ...genuine, eventType: 8 }],
    ['an event SMS webhooks never carry (open, code 4) on an SMS payload', { id: 'sms-1', eventType: 4, sms_data: { content: 'x' } }, hmac('sms-14')],
    ['signed with another key', genuine, hmac('msg-1233', 'another-key')],
    ['the name signed where the payload states another event', { ...genuine, eventType: 6 }, hmac('msg-123delivery')],
  ];

  it('the listener: 401 for each, stores none; the genuine one is stored', async () => {
    const out = path.join(tempDir('mailctl-forms-'), 'events.jsonl');
    const listener = await listen(out);
    for (const [what, body, signature] of refused) expect((await post(listener.url, body, signature)).status, what).toBe(401);
    expect((await post(listener.url, genuine)).status).toBe(200);
    // Under the spec's header name just as well (decisions row 14): a repeat, acknowledged.
    expect((await post(listener.url, genuine, sig, 'x-service-signature')).status).toBe(200);
    const r = await listener.stop();
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: 'msg-123', event: 'delivery', signatureHeader: 'x-surenotify-signature', signature: sig, payload: genuine });
    expect(r.stderr.match(/rejected \(401\)/g)).toHaveLength(refused.length);
  });

  it('the listener: a request under both header names is stored when either one is the service\'s signature; neither is 401', async () => {
    const out = path.join(tempDir('mailctl-forms-'), 'events.jsonl');
    const listener = await listen(out);
    const both = (spec: string, vendor: string) =>
      fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': spec, 'x-surenotify-signature': vendor }, body: JSON.stringify(genuine) });
    const forged = hmac('msg-1233', 'another-key');
    expect((await both(forged, forged)).status).toBe(401);
    // The genuine one under the vendor's name, behind a forged one under the spec's (checked first).
    expect((await both(forged, sig)).status).toBe(200);
    await listener.stop();
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // Stored with the signature that verified it, so a replay sends that one on.
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: 'msg-123', signatureHeader: 'x-surenotify-signature', signature: sig });
  });

  it('webhook verify: exit 1 for each, naming why; exit 0 for the genuine one', async () => {
    const ok = await runCli(['webhook', 'verify', '--signature', sig], { env, stdin: JSON.stringify(genuine) });
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'valid\n' });
    expect(ok.stderr).toContain('id=msg-123, eventType=delivery (signed over its type code 3)');
    for (const [what, body, signature] of refused) {
      const r = await runCli(['webhook', 'verify', '--signature', signature ?? sig, '--json'], { env, stdin: JSON.stringify(body) });
      expect(r.exitCode, what).toBe(1);
      expect(JSON.parse(r.stdout).valid).toBe(false);
    }
    const split = await runCli(['webhook', 'verify', '--signature', sig, '--json'], { env, stdin: JSON.stringify({ ...genuine, id: 'msg-12', eventType: '33' }) });
    expect(JSON.parse(split.stdout).reason).toBe('the event "33" is not one the service sends for email (delivery, open, click, bounce, complaint, or their type codes 3, 4, 5, 6, 7)');
  });

  it('a payload stating its id in two places is checked against each (a top-level id may be another id than mail.id)', async () => {
    const both = { id: 'evt-77', event: 'click', mail: { id: 'msg-9' }, click: { timestamp: 1 } };
    for (const id of ['evt-77', 'msg-9']) {
      const r = await runCli(['webhook', 'verify', '--signature', hmac(`${id}click`), '--json'], { env, stdin: JSON.stringify(both) });
      expect(r.exitCode).toBe(0);
      // The id reported (and what a listener stores) is the one the signature covers.
      expect(JSON.parse(r.stdout)).toMatchObject({ id, idField: id === 'msg-9' ? 'mail.id' : 'id' });
    }
  });
});
