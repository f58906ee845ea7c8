// The client against every documented shape of each answer the specs, the vendor's reference or
// the official CLI's stubs show more than one way (decisions rows 8, 13, 29, 34; VENDOR.md): the
// same commands run against a sandbox answering with the spec's primary shapes, one answering with
// every second value and one with every last value (src/sandbox/shapes.ts: between them every
// value of every shape). Each variant reaches one shape of an endpoint's declaration
// (src/api/answers/) or one tolerant branch of src/webhook; without it that run fails.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAST, runCli, scriptedPrompter, tempDir, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import { unusedPort, until } from './helpers/wait.js';
import { Context } from '../src/run/context.js';
import { IO } from '../src/run/io.js';
import { systemClock } from '../src/core/clock.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { campaignError } from '../src/sandbox/campaign/common.js';
import { resolveShapes } from '../src/sandbox/shapes.js';

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
  { name: "the spec's primary shapes", mode: 'spec' as const },
  { name: 'every second documented shape', mode: 'alternate' as const },
  { name: 'every last documented shape', mode: 'last' as const },
])('the client against $name', ({ mode }) => {
  /** The value of each shape this sandbox answers with. */
  const shapes = resolveShapes(mode);
  const sb = useSandbox({
    shapes: mode,
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
      'GET /campaign/v1/report/campaigns',
      'GET /campaign/v1/templates',
      'GET /campaign/v1/templates/:id',
      'POST /campaign/v1/automation/event',
      'DELETE /campaign/v1/contacts/:listSn',
      'GET /notify/v1/events',
      'POST /notify/v1/domains/:domain',
      'DELETE /notify/v1/domains/:domain',
    ],
  });
  const api = campaignApi(sb.get);
  const run = (argv: string[]) => runCli(argv, { sandbox: sb.get() });
  /** The name the sandbox gives the import code in these shapes. */
  const codeKey = shapes.importCode;
  let finished: string;
  /** The campaign refusal in {errorCode, message} (decisions row 6), which names no field in structure. */
  const alt = shapes.campaignError === 'errorCode';

  beforeAll(async () => {
    // A group with members, made over plain HTTP (the client's imports are under test below).
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Readers' })).json.sn;
    const started = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', 'r1@example.org,R1', 'r2@example.org,R2', 'r3@example.org,R3'].join('\n') });
    await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json[codeKey]}`), (x) => x.json?.status === shapes.importDone);
    const c = await run(['campaign', 'create', '--name', 'Monthly', '--group', 'Readers', '--subject', 'News', ...SENDER]);
    expect(c.exitCode).toBe(0);
    finished = c.stdout.trim();
    expect((await run(['campaign', 'status', finished, '--wait'])).exitCode).toBe(0);
  });

  it(`report links: ${shapes.reportLinks} (spec 000 endpoint 17, decisions row 8; the vendor's one link) — export --wait and links list the files`, async () => {
    const w = await run(['report', 'export', finished, '--wait', '--timeout', '5s', '--json']);
    expect(w.stderr).not.toContain('not ready');
    expect(w.exitCode).toBe(0);
    // The vendor's {"link": …} names one file and no type: read as one link of type "report".
    const types = shapes.reportLinks === 'link' ? ['report'] : ['bounce', 'click', 'complain', 'delivery', 'open', 'unsubscribe'];
    expect(JSON.parse(w.stdout).map((l: { reportType: string }) => l.reportType).sort()).toEqual(types);
    const l = await run(['report', 'links', finished]);
    expect(l.exitCode).toBe(0);
    expect(tsvRows(l.stdout).map((x) => x[0]).sort()).toEqual(types);
    // What the sandbox really answered.
    const raw = await api.get(`/v1/report/${finished}/link`);
    if (shapes.reportLinks === 'link') expect(Object.keys(raw.json)).toEqual(['link']);
    else expect(Array.isArray(raw.json)).toBe(shapes.reportLinks === 'bare');
  });

  it(`import --wait: the code as ${codeKey} in the text-import answer and the status, done as ${shapes.importDone} (spec 000 section 9, decisions rows 13 and 29)`, async () => {
    const r = await run(['import', csv('EMAIL,NAME\nann@example.org,Ann\nbob@example.org,Bob\n'), '--group', 'Shapes', '--create-group', '--wait', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ method: 'text', status: 'COMPLETE', importSn: expect.stringMatching(/^IM\w+$/), result: { insertCnt: 2 } });
    expect(doc.result[codeKey]).toBe(doc.importSn);
  });

  it(`import --wait of a file (endpoint 3): the code as ${codeKey} beside the upload url, and in the webhook`, async () => {
    // --webhook-url makes it a file import: endpoint 3's answer (code + upload url), then the PUT.
    const hook = 'http://127.0.0.1:9/import-hook';
    const r = await run(['import', csv('EMAIL,NAME\ncy@example.org,Cy\n'), '--group', 'Shapes', '--create-group', '--webhook-url', hook, '--wait', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ method: 'file', status: 'COMPLETE', importSn: expect.stringMatching(/^IM\w+$/), result: { insertCnt: 1 } });
    const called = await until('the import webhook', () => sb.get().sandbox.webhookLog.find((w) => w.url === hook));
    expect(called.body).toMatchObject({ [codeKey]: doc.importSn, status: shapes.importDone });
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
    expect(Object.keys(raw.json)).not.toContain(codeKey === 'importSn' ? 'import_sn' : 'importSn');
    expect(raw.json.status).toBe(shapes.importDone);
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

  it(`send sms: an answer ${shapes.smsFailure === 'when-any' ? 'without' : 'with'} \`failure\` when nobody failed (decisions row 3) — sent, exit 0`, async () => {
    const r = await run(['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text', '【Acme】Your code is {{code}}', '--var', 'code=A1B2']);
    expect(r.stderr).not.toMatch(/TypeError|Cannot convert/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^recipient\tstatus\tmessage_id\treason\n\+886 0912345678\tsent\t\S+/);
  });

  it(`webhook list: the email listing as ${shapes.webhookList} when one webhook is registered (spec 001 section 4: "not shown"; the official CLI's stub); set answers ${shapes.webhookSet}, delete ${shapes.deleteAnswer}`, async () => {
    expect((await run(['webhook', 'set', 'bounce', 'https://hooks.example.com/bounce'])).exitCode).toBe(0);
    const r = await run(['webhook', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ type: 6, url: 'https://hooks.example.com/bounce' })]);
    const raw = await (await fetch(`${sb.get().notifyUrl}/v1/webhooks`, { headers: { 'x-api-key': SANDBOX_KEYS.notify } })).json();
    if (shapes.webhookList === 'webhooks') expect(raw).toEqual({ webhooks: [expect.objectContaining({ type: 6 })] });
    else expect(Array.isArray(raw)).toBe(shapes.webhookList === 'list');
    // Leave no webhook behind for the listener test below.
    expect((await run(['webhook', 'delete', 'bounce', '--yes'])).exitCode).toBe(0);
    expect((await run(['webhook', 'list', '--json'])).stdout.trim()).toBe('[]');
  });

  it(`webhook listen: signed under ${shapes.signatureHeader}, the event as ${shapes.eventField} (decisions rows 14, 15) — verified and stored`, async () => {
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
    const header = shapes.signatureHeader;
    expect(Object.keys(delivered.headers)).toContain(header);
    expect(Object.keys(delivered.body as object)).toContain(shapes.eventField);
    expect(delivered.status).toBe(200);
    expect(r.exitCode).toBe(0);
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(stored).toEqual([expect.objectContaining({ event: 'delivery', id: messageId, channel: 'email', signatureHeader: header })]);
  });

  it(`webhook registration refused: reasons under ${shapes.webhookRefusal} (spec 001 sections 4 and 7) — the error names them`, async () => {
    // `webhook set` checks the type and URL itself, so no command gets this 400; the client does.
    const client = await contextFor(sb.get()).notify();
    const e = await client.setWebhook(9, 'https://hooks.example.com/x').then(() => undefined, (x: Error) => x);
    expect(e?.message).toContain('type must be 3 (delivery), 4 (open), 5 (click), 6 (bounce) or 7 (complaint).');
  });

  it(`groups list: the groups ${shapes.groupsList === 'groups' ? 'in {"groups":[…],"pageInfo"}' : 'as an array'} (spec 000 endpoint 2; the official CLI's stub)`, async () => {
    const r = await run(['groups', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((g: { name: string }) => g.name)).toContain('Readers');
    const raw = await api.get('/v1/contacts/lists');
    expect(Array.isArray(raw.json)).toBe(shapes.groupsList === 'array');
  });

  it(`campaign status: ${shapes.campaignStatus === 'object' ? 'one object' : 'an array'} (spec 000 endpoint 13; the official CLI's stub)`, async () => {
    const r = await run(['campaign', 'status', finished, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sn: finished, status: 'COMPLETE' });
    expect(Array.isArray((await api.get(`/v1/campaign/normal/${finished}`)).json)).toBe(shapes.campaignStatus === 'array');
  });

  it(`report list: the finished campaigns ${shapes.finishedCampaigns === 'campaigns' ? 'in {"campaigns":[…]}' : 'as an array'} (spec 000 endpoint 14; the official CLI's stub)`, async () => {
    const r = await run(['report', 'list', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((c: { sn: string }) => c.sn)).toContain(finished);
  });

  it(`template list and show: ${shapes.templateList === 'array' ? 'a bare array (no capacity)' : '{capacity, templates}'}, the html in "${shapes.templateHtml}" (spec 000 endpoints 18, 19; the official CLI's stubs)`, async () => {
    const l = await run(['template', 'list', '--json']);
    expect(l.exitCode).toBe(0);
    const doc = JSON.parse(l.stdout);
    expect(doc.templates.map((t: { id: string }) => t.id)).toContain('tpl_welcome');
    // A capacity the service did not give is null, never 0.
    if (shapes.templateList === 'array') expect(doc.capacity).toBeNull();
    else expect(doc.capacity).toEqual(expect.any(Number));
    const out = path.join(tempDir(), 'welcome.html');
    const s = await run(['template', 'show', 'tpl_welcome', '--out', out]);
    expect(s.exitCode).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain('<h1>Welcome, ${NAME}!</h1>');
  });

  it(`contacts remove: the count as ${shapes.contactsRemoved} (spec 000 endpoint 6; the official CLI's stub)`, async () => {
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Leavers' })).json.sn;
    const started = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\nleaver@example.org,L' });
    await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json[codeKey]}`), (x) => x.json?.status === shapes.importDone);
    const r = await run(['contacts', 'remove', '--group', 'Leavers', '--email', 'leaver@example.org', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated_count: 1 });
  });

  it(`automation trigger: an answer ${shapes.automationAnswer === 'triggered' ? '{"status":"triggered"} naming nobody: in doubt (exit 5), never "accepted"' : '{success, failure}: accepted (exit 0)'} (spec 000 endpoint 20; the official CLI's stub)`, async () => {
    const r = await run(['automation', 'trigger', '--workflow', 'welcome', '--to', 'auto@example.org', '--to-name', 'Auto', '--json']);
    if (shapes.automationAnswer === 'triggered') {
      expect(r.exitCode).toBe(5);
      expect(r.stdout).toContain("not listed in the service's answer");
      expect(r.stderr).not.toMatch(/Started 1 of 1/);
    } else {
      expect(r.exitCode).toBe(0);
    }
  });

  it(`events: the lookup as ${shapes.eventList === 'events' ? '{"events":[…],"total"} with id and timestamp' : '{"logs":[…]}'} (spec 001 section 4; the official CLI's stub) — the same rows`, async () => {
    const sent = await run(['send', '--to', 'shapes.events@example.com', '--subject', 'hi', '--html', 'x', '--from', 'noreply@example.com', '--json']);
    expect(sent.exitCode).toBe(0);
    const messageId = JSON.parse(sent.stdout).recipients[0].messageId;
    const rows = await until('the accept event', async () => {
      const r = await run(['events', '--recipient', 'shapes.events@example.com', '--json']);
      const list = (JSON.parse(r.stdout) as { logs: Array<{ messageId: string; status: string; eventTime: string }> }).logs;
      return list.length ? list : undefined;
    });
    expect(rows[0]).toMatchObject({ messageId, status: expect.any(String), eventTime: expect.any(String) });
  });

  it(`domain remove: the answer ${shapes.deleteAnswer === 'no-body' ? '204 with no body' : '{"success":true}'} (vendor reference; the official CLI's stub) — removed, exit 0`, async () => {
    expect((await run(['domain', 'add', 'shapes.example.org'])).exitCode).toBe(0);
    const r = await run(['domain', 'remove', 'shapes.example.org', '--yes', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ domain: 'shapes.example.org', removed: true });
  });
});
