// The client against both shapes of each answer the specs (or docs/spec/decisions.md) show two
// ways: the same commands run against a sandbox answering with the spec's primary shapes and
// against one answering with every documented alternate (src/sandbox/shapes.ts). Each alternate
// reaches one tolerant branch of src/api or src/webhook; without that branch the alternate run
// fails.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAST, runCli, scriptedPrompter, tempDir, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import { unusedPort, until } from './helpers/wait.js';
import { Context } from '../src/cli/context.js';
import { IO } from '../src/cli/io.js';
import { systemClock } from '../src/core/clock.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { campaignError } from '../src/sandbox/campaign/common.js';

const SENDER = ['--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];

function csv(rows: string): string {
  const file = path.join(tempDir('mailctl-shapes-'), 'contacts.csv');
  fs.writeFileSync(file, rows);
  return file;
}

/** A Context over the loopback sandbox, for a client call no command can make (see the refusal test). */
function contextFor(s: RunningSandbox): Context {
  const stream = () => new PassThrough();
  const env = { MAILCTL_CONFIG_DIR: tempDir(), MAILCTL_NOTIFY_URL: s.notifyUrl, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify };
  const io = new IO({ stdin: Readable.from([]), stdout: stream(), stderr: stream(), stdinTTY: false, stdoutTTY: false, stderrTTY: false, env });
  return new Context({
    io, env, globals: { json: false, quiet: false, verbose: false, input: false, sandbox: false },
    clock: systemClock, signal: new AbortController().signal, prompter: scriptedPrompter([]), tuning: FAST,
  });
}

describe.each([
  { name: "the spec's primary shapes", alt: false },
  { name: 'every documented alternate shape', alt: true },
])('the client against $name', ({ alt }) => {
  const sb = useSandbox({
    shapes: alt ? 'alternate' : 'spec',
    expect: [
      'GET /campaign/v1/balance',
      'GET /campaign/v1/campaign/normal/:sn',
      'POST /campaign/v1/campaign/normal/submit',
      'POST /campaign/v1/contacts/imports/:listSn/file',
      'POST /campaign/v1/contacts/imports/:listSn/text',
      'GET /campaign/v1/contacts/imports/result/:importSn',
      'GET /campaign/v1/contacts/lists',
      'POST /campaign/v1/contacts/lists/insert',
      'POST /campaign/v1/report/:sn/export',
      'GET /campaign/v1/report/:sn/link',
      'PUT /files/u/:token',
      'POST /notify/v1/messages',
      'POST /notify/v1/sms/messages',
      'DELETE /notify/v1/webhooks',
      'GET /notify/v1/webhooks',
      'POST /notify/v1/webhooks',
    ],
  });
  const api = campaignApi(sb.get);
  const run = (argv: string[]) => runCli(argv, { sandbox: sb.get() });
  /** The name the sandbox gives the import code in these shapes. */
  const codeKey = alt ? 'import_sn' : 'importSn';
  let finished: string;

  beforeAll(async () => {
    // A group with members, made over plain HTTP (the client's imports are under test below).
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Readers' })).json.sn;
    const started = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', 'r1@example.org,R1', 'r2@example.org,R2', 'r3@example.org,R3'].join('\n') });
    await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json[codeKey]}`), (x) => x.json?.status === 'COMPLETE');
    const c = await run(['campaign', 'create', '--name', 'Monthly', '--group', 'Readers', '--subject', 'News', ...SENDER]);
    expect(c.exitCode).toBe(0);
    finished = c.stdout.trim();
    expect((await run(['campaign', 'status', finished, '--wait'])).exitCode).toBe(0);
  });

  it(`report links: ${alt ? 'a bare array' : '{Reports:[...]}'} (spec 000 endpoint 17, decisions row 8) — export --wait and links list the six files`, async () => {
    const w = await run(['report', 'export', finished, '--wait', '--timeout', '5s', '--json']);
    expect(w.stderr).not.toContain('not ready');
    expect(w.exitCode).toBe(0);
    expect(JSON.parse(w.stdout).map((l: { reportType: string }) => l.reportType).sort()).toEqual(['bounce', 'click', 'complain', 'delivery', 'open', 'unsubscribe']);
    const l = await run(['report', 'links', finished]);
    expect(l.exitCode).toBe(0);
    expect(tsvRows(l.stdout).map((x) => x[0]).sort()).toEqual(['bounce', 'click', 'complain', 'delivery', 'open', 'unsubscribe']);
    // What the sandbox really answered.
    const raw = await api.get(`/v1/report/${finished}/link`);
    expect(Array.isArray(raw.json)).toBe(alt);
  });

  it(`import --wait: the code as ${alt ? 'import_sn' : 'importSn'} in the text-import answer and the status (spec 000 section 9, decisions row 13)`, async () => {
    const r = await run(['import', csv('EMAIL,NAME\nann@example.org,Ann\nbob@example.org,Bob\n'), '--group', 'Shapes', '--create-group', '--wait', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ method: 'text', status: 'COMPLETE', importSn: expect.stringMatching(/^IM\w+$/), result: { insertCnt: 2 } });
    expect(doc.result[codeKey]).toBe(doc.importSn);
  });

  it(`import --wait of a file (endpoint 3): the code as ${alt ? 'import_sn' : 'importSn'} beside the upload url, and in the webhook`, async () => {
    // --webhook-url makes it a file import: endpoint 3's answer (code + upload url), then the PUT.
    const hook = 'http://127.0.0.1:9/import-hook';
    const r = await run(['import', csv('EMAIL,NAME\ncy@example.org,Cy\n'), '--group', 'Shapes', '--create-group', '--webhook-url', hook, '--wait', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ method: 'file', status: 'COMPLETE', importSn: expect.stringMatching(/^IM\w+$/), result: { insertCnt: 1 } });
    const called = await until('the import webhook', () => sb.get().sandbox.webhookLog.find((w) => w.url === hook));
    expect(called.body).toMatchObject({ [codeKey]: doc.importSn, status: 'COMPLETE' });
  });

  it(`import status: an import started elsewhere, its answer naming the code ${codeKey}`, async () => {
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Elsewhere' })).json.sn;
    const importSn = (await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\ndee@example.org,Dee' })).json[codeKey];
    expect(importSn).toMatch(/^IM\w+$/);
    const r = await run(['import', 'status', importSn, '--wait', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ importSn, status: 'COMPLETE' });
    const raw = await api.get(`/v1/contacts/imports/result/${importSn}`);
    expect(Object.keys(raw.json)).toContain(codeKey);
    expect(Object.keys(raw.json)).not.toContain(alt ? 'importSn' : 'import_sn');
  });

  it(`campaign create refused: ${alt ? '{errorCode, message}' : '{code, invalidFields}'} (spec 000 section 7, decisions row 6) — exit 1 with the code's sentence`, async () => {
    const r = await run(['campaign', 'create', '--name', 'U', '--group', 'Readers', '--subject', 'S', '--from', 'someone@unverified-sender.com', '--from-name', 'X', '--html', '<p>x</p>', '--json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The sender address is not verified.');
    expect(r.stderr).toContain('content.fromAddress');
    expect(JSON.parse(r.stdout).error).toMatchObject({ serviceCode: '40011' });
    const raw = await api.post('/v1/campaign/normal/submit', { form: { name: 'raw' } });
    expect(Object.keys(raw.json).sort()).toEqual(alt ? ['errorCode', 'message'] : ['code', 'invalidFields']);
  });

  /** The next campaign submit refused as this sandbox's shape words it: 40001 naming `field`. */
  const refuseNextSubmit = (field: string) => {
    const res = campaignError(sb.get().sandbox.options.shapes, '40001', field);
    sb.get().sandbox.injectFault({ kind: 'status', status: res.status, body: res.json, match: { service: 'campaign', method: 'POST', path: '/v1/campaign/normal/submit' } });
  };
  const NEWS = ['campaign', 'create', '--name', 'No exclusion', '--group', 'Readers', '--subject', 'S', ...SENDER];

  it(`campaign create: the empty form.excludeLists refused (decisions row 25) in ${alt ? '{errorCode, message}: named only in words, so the hint says "if"' : '{code, invalidFields}: named, so the fix is said outright'}`, async () => {
    refuseNextSubmit('form.excludeLists');
    const r = await run(NEWS);
    expect(r.exitCode).toBe(1);
    if (alt) {
      expect(r.stderr).toContain('If the field is form.excludeLists, pass --exclude GROUP (an empty group serves).');
      expect(r.stderr).not.toContain('requires at least one exclusion group'); // the message's words are not read
    } else {
      expect(r.stderr).toContain('The service requires at least one exclusion group (form.excludeLists), and none was given.');
      expect(r.stderr).toContain('Pass --exclude GROUP (an empty group serves)');
    }
  });

  // (the request without --exclude carries excludeLists [] — test/campaign-create.test.ts)
  it('campaign create: no --exclude hint when the refused request named an exclusion group', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Nobody' });
    refuseNextSubmit('form.excludeLists');
    const r = await run([...NEWS, '--exclude', 'Nobody']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(/pass --exclude GROUP|exclusion group/i);
  });

  it(`campaign create: a 40001 over another field ${alt ? 'names no field in structure, so the "if" hint stays' : 'is not taken for the exclusion (invalidFields say otherwise)'}`, async () => {
    refuseNextSubmit('form.name');
    const r = await run(NEWS);
    expect(r.exitCode).toBe(1);
    if (alt) expect(r.stderr).toContain('If the field is form.excludeLists, pass --exclude GROUP');
    else expect(r.stderr).not.toMatch(/--exclude|exclusion group/i);
  });

  it(`campaign create --wizard: the same refusal says what to change (${alt ? 'conditionally' : 'outright'}) and marks the audience answer`, async () => {
    refuseNextSubmit('form.excludeLists');
    const prompter = scriptedPrompter(['none', '', 'en', 'now', false, true, 'stop']);
    const r = await runCli(['campaign', 'create', '--wizard', ...NEWS.slice(2)], { sandbox: sb.get(), tty: true, prompter, env: { NO_COLOR: '1' } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(alt
      ? 'To fix it: If the field it names is form.excludeLists, pick a group to exclude (an empty group serves); otherwise change the answer it names.'
      : 'To fix it: Pick at least one group to exclude: the service requires one (a group nobody is in serves).');
  });

  it(`send sms: an answer ${alt ? 'without' : 'with'} \`failure\` when nobody failed (decisions row 3) — sent, exit 0`, async () => {
    const r = await run(['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text', '【Acme】Your code is {{code}}', '--var', 'code=A1B2']);
    expect(r.stderr).not.toMatch(/TypeError|Cannot convert/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^recipient\tstatus\tmessage_id\treason\n\+886 0912345678\tsent\t\S+/);
  });

  it(`webhook list: the email listing ${alt ? 'as one object' : 'as a list'} when one webhook is registered (spec 001 section 4: "not shown")`, async () => {
    expect((await run(['webhook', 'set', 'bounce', 'https://hooks.example.com/bounce'])).exitCode).toBe(0);
    const r = await run(['webhook', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ type: 6, url: 'https://hooks.example.com/bounce' })]);
    const raw = await (await fetch(`${sb.get().notifyUrl}/v1/webhooks`, { headers: { 'x-api-key': SANDBOX_KEYS.notify } })).json();
    expect(Array.isArray(raw)).toBe(!alt);
    // Leave no webhook behind for the listener test below.
    expect((await run(['webhook', 'delete', 'bounce', '--yes'])).exitCode).toBe(0);
  });

  it(`webhook listen: signed under ${alt ? 'x-surenotify-signature, the event as eventType' : 'x-service-signature, the event as event'} (decisions rows 14, 15) — verified and stored`, async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const ac = new AbortController();
    const listening = runCli(['webhook', 'listen', '--port', String(port), '--out', out], { sandbox: sb.get(), signal: ac.signal });
    const url = `http://127.0.0.1:${port}/`;
    await until('the listener', () => fetch(url).then((x) => x.ok).catch(() => false));
    expect((await run(['webhook', 'set', 'delivery', url])).exitCode).toBe(0);
    const sent = await run(['send', '--to', 'shapes.quiet@example.com', '--subject', 'hi', '--html', 'x', '--from', 'noreply@example.com', '--json']);
    expect(sent.exitCode).toBe(0);
    const messageId = JSON.parse(sent.stdout).recipients[0].messageId;
    const delivered = await until('the signed delivery', () => sb.get().sandbox.webhookLog.find((w) => w.url === url && w.status !== undefined));
    ac.abort();
    const r = await listening;
    const header = alt ? 'x-surenotify-signature' : 'x-service-signature';
    expect(Object.keys(delivered.headers)).toContain(header);
    expect(Object.keys(delivered.body as object)).toContain(alt ? 'eventType' : 'event');
    expect(delivered.status).toBe(200);
    expect(r.exitCode).toBe(0);
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(stored).toEqual([expect.objectContaining({ event: 'delivery', id: messageId, channel: 'email', signatureHeader: header })]);
  });

  it(`webhook registration refused: reasons under ${alt ? 'message' : 'messages'} (spec 001 sections 4 and 7) — the error names them`, async () => {
    // `webhook set` checks the type and URL itself, so no command gets this 400; the client does.
    const client = await contextFor(sb.get()).notify();
    const e = await client.setWebhook(9, 'https://hooks.example.com/x').then(() => undefined, (x: Error) => x);
    expect(e?.message).toContain('type must be 3 (delivery), 4 (open), 5 (click), 6 (bounce) or 7 (complaint).');
  });
});
