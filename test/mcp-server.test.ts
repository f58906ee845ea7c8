// `mailctl mcp` as an MCP client runs it: the built binary spawned, driven over stdio by the
// SDK's own client, against a sandbox on loopback (MAILCTL_CAMPAIGN_URL/NOTIFY_URL, with keys
// the test knows, so it can look for them in every message). One server per describe.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { bin, spawnMcp, type McpSession } from './helpers/mcp.js';
import { catalog } from '../commands/mcp/catalog.js';
import type { Recorded } from '../src/sandbox/types.js';

/** Keys the sandbox accepts here; no message of the server may carry one. */
const KEYS = { campaign: 'mk-campaign-7Hq2V9xLr4Tz8Wp1Kd', notify: 'mk-notify-3Jd8Rk5Ns2Yb6Fc0Qe' };

const sb = useSandbox({
  keys: KEYS,
  expect: [
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'POST /campaign/v1/contacts/imports/:sn/text',
    'GET /campaign/v1/contacts/imports/result/:sn',
    'GET /campaign/v1/campaign/**',
    'GET /campaign/v1/balance',
    'POST /notify/v1/webhooks',
    'POST /notify/v1/messages',
  ],
});

function envFor(configDir: string): Record<string, string> {
  const s = sb.get();
  return {
    PATH: process.env.PATH!, HOME: tempDir('mailctl-home-'), MAILCTL_CONFIG_DIR: configDir,
    MAILCTL_CAMPAIGN_URL: s.campaignUrl, MAILCTL_NOTIFY_URL: s.notifyUrl,
    MAILCTL_CAMPAIGN_API_KEY: KEYS.campaign, MAILCTL_NOTIFY_API_KEY: KEYS.notify,
  };
}

/** The same command, run by a person (in-process), against the same sandbox. */
function cli(argv: string[]) {
  return runCli(argv, { sandbox: sb.get(), env: { MAILCTL_CAMPAIGN_API_KEY: KEYS.campaign, MAILCTL_NOTIFY_API_KEY: KEYS.notify } });
}

/** What the sandbox receives while `f` runs. */
async function received(f: () => Promise<unknown>): Promise<Recorded[]> {
  const before = sb.get().sandbox.recorded.length;
  await f();
  return sb.get().sandbox.recorded.slice(before);
}

interface PlannedRequest { method: string; url: string; body?: unknown }

/** A planned request as the sandbox records one: method, service, path below it, body. */
function asReceived(r: PlannedRequest) {
  const u = new URL(r.url);
  const [, service, ...rest] = u.pathname.split('/');
  return { method: r.method, service, path: `/${rest.join('/')}`, body: r.body };
}
const changes = (rs: Recorded[]) => rs.filter((r) => r.method !== 'GET').map((r) => ({ method: r.method, service: r.service, path: r.path, body: r.body }));

function allText(s: McpSession): string {
  return `${s.messages.join('\n')}\n${s.stderr()}`;
}

describe('mailctl mcp over stdio', () => {
  let s: McpSession;
  const configDir = tempDir();
  beforeAll(async () => {
    s = await spawnMcp(['mcp'], envFor(configDir));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists one tool per read and write command, writes and destructive ones annotated', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(catalog().map((t) => t.name));
    expect(tools).toHaveLength(24);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('groups_list')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('campaign_delete')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('send')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('send')!.inputSchema.properties).toMatchObject({ to: { type: 'array' }, var: { type: 'array' }, resume: { type: ['string', 'boolean'] }, confirm: { type: 'string' } });
    expect(byName.get('campaign_status')!.inputSchema.required).toEqual(['code']);
  });

  it('a read returns the command\'s --json document, as a person gets it', async () => {
    await cli(['groups', 'create', 'Newsletter']);
    const r = await s.call('groups_list', { all: true });
    expect(r.isError).toBe(false);
    const person = await cli(['groups', 'list', '--all', '--json']);
    expect(r.doc).toEqual(JSON.parse(person.stdout));
    expect(r.structured).toMatchObject({ exitCode: 0, document: r.doc });
  });

  it('a failing read carries the same error code and exit code as the command', async () => {
    const r = await s.call('campaign_status', { code: 'CP-NONE' });
    const person = await cli(['campaign', 'status', 'CP-NONE', '--json']);
    expect(r.isError).toBe(true);
    expect(r.doc).toEqual(JSON.parse(person.stdout));
    expect(r.doc.error).toMatchObject({ code: 'NOT_FOUND', exitCode: person.exitCode });
    expect(r.structured.exitCode).toBe(person.exitCode);
  });

  it('arguments the tool does not take are refused with one sentence, nothing sent', async () => {
    const got = await received(async () => {
      const r = await s.call('groups_list', { pages: '2' });
      expect(r.isError).toBe(true);
      expect(r.doc.error).toMatchObject({ code: 'USAGE', exitCode: 2 });
      expect(r.doc.error.message).toContain('No parameter named "pages"');
    });
    expect(got).toEqual([]);
  });

  let planned: { token: string; requests: PlannedRequest[] };
  const HOOK = { type: 'delivery', url: 'https://hooks.example.com/mail' };

  it('a write without confirmation sends nothing and returns the requests a real run makes, with a token', async () => {
    const got = await received(async () => {
      const r = await s.call('webhook_set', HOOK);
      expect(r.isError).toBe(false);
      planned = r.doc.plan;
      expect(r.doc.next).toEqual({ tool: 'webhook_set', arguments: { ...HOOK, confirm: planned.token } });
    });
    expect(got).toEqual([]);
    expect(planned.requests.map(asReceived)).toEqual([{ method: 'POST', service: 'notify', path: '/v1/webhooks', body: { type: 3, url: HOOK.url } }]);
    expect(planned.token).toMatch(/^[\w-]{16}\.[\w-]{43}$/);
  });

  it('confirmed with its token, it makes exactly the planned requests and returns the command\'s document', async () => {
    let doc: unknown;
    const got = await received(async () => {
      const r = await s.call('webhook_set', { ...HOOK, confirm: planned.token });
      expect(r.isError).toBe(false);
      doc = r.doc;
    });
    expect(changes(got)).toEqual(planned.requests.map(asReceived));
    expect(doc).toEqual({ success: true, channel: 'email', type: 3, event: 'delivery', url: HOOK.url });
  });

  it('the same token again is refused: nothing is sent twice', async () => {
    const got = await received(async () => {
      const r = await s.call('webhook_set', { ...HOOK, confirm: planned.token });
      expect(r.isError).toBe(true);
      expect(r.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'used', exitCode: 2 });
    });
    expect(got).toEqual([]);
  });

  it('planning the same write again gives a new token, and the used one stays refused: nothing is sent twice', async () => {
    const got = await received(async () => {
      const again = (await s.call('webhook_set', HOOK)).doc.plan;
      expect(again.token).not.toBe(planned.token);
      expect(again.requests).toEqual(planned.requests);
      const r = await s.call('webhook_set', { ...HOOK, confirm: planned.token });
      expect(r.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'used', exitCode: 2 });
    });
    expect(got).toEqual([]);
  });

  it('a token is refused for other arguments and for another tool; it still carries out its own plan', async () => {
    const other = { type: 'delivery', url: 'https://attacker.example.com/steal' };
    const plan = (await s.call('webhook_set', { ...HOOK, type: 'open' })).doc.plan;
    const got = await received(async () => {
      const a = await s.call('webhook_set', { ...other, confirm: plan.token });
      expect(a.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'other-arguments' });
      const b = await s.call('webhook_delete', { type: 'open', confirm: plan.token });
      expect(b.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'other-arguments' });
      const c = await s.call('webhook_set', { ...HOOK, type: 'nope', confirm: 'not-a-token' });
      expect(c.isError).toBe(true);
    });
    expect(got).toEqual([]);
    const ok = await received(() => s.call('webhook_set', { ...HOOK, type: 'open', confirm: plan.token }));
    expect(changes(ok)).toEqual(plan.requests.map(asReceived));
  });

  it('a plan whose file changed before confirmation is refused with the new plan, nothing sent; the new token sends the new content', async () => {
    const dir = tempDir();
    const html = path.join(dir, 'mail.html');
    fs.writeFileSync(html, '<p>first version</p>');
    const args = { to: ['ann.lee@example.com'], subject: 'Hello', 'html-file': html, from: 'news@example.com' };
    const first = (await s.call('send', args)).doc.plan;
    fs.writeFileSync(html, '<p>second version</p>');
    let fresh: { token: string; requests: PlannedRequest[] } | undefined;
    const none = await received(async () => {
      const r = await s.call('send', { ...args, confirm: first.token });
      expect(r.isError).toBe(true);
      expect(r.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'plan-changed' });
      fresh = r.doc.plan;
    });
    expect(changes(none)).toEqual([]);
    expect(fresh!.requests[0].body).toMatchObject({ content: '<p>second version</p>' });
    const sent = await received(async () => {
      const r = await s.call('send', { ...args, confirm: fresh!.token });
      expect(r.isError).toBe(false);
      expect(r.doc).toMatchObject({ total: 1, sent: 1 });
    });
    expect(changes(sent)).toEqual(fresh!.requests.map(asReceived));
  });

  it('an import whose file changed at the same size is refused as a changed plan (the plan names rows by count): nothing uploaded', async () => {
    const made = (await s.call('groups_create', { name: 'McpImport' })).doc.plan;
    await s.call('groups_create', { name: 'McpImport', confirm: made.token });
    const file = path.join(tempDir(), 'contacts.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nann@example.com,Ann\n');
    const args = { file, group: 'McpImport', 'no-wait': true };
    const first = (await s.call('import', args)).doc.plan;
    fs.writeFileSync(file, 'EMAIL,NAME\nzed@example.com,Zed\n'); // same size, another address
    let fresh: { token: string } | undefined;
    const none = await received(async () => {
      const r = await s.call('import', { ...args, confirm: first.token });
      expect(r.doc.error).toMatchObject({ code: 'PLAN_REFUSED', reason: 'plan-changed' });
      fresh = r.doc.plan;
    });
    expect(changes(none)).toEqual([]);
    const sent = await received(async () => {
      expect((await s.call('import', { ...args, confirm: fresh!.token })).isError).toBe(false);
    });
    expect(JSON.stringify(changes(sent))).toContain('zed@example.com');
  });

  it('a "-" (standard input) is refused in one sentence, exit 2, nothing sent: the server\'s stdin is the protocol', async () => {
    const got = await received(async () => {
      const r = await s.call('send', { to: ['ann.lee@example.com'], subject: 'Hello', 'html-file': '-', from: 'news@example.com' });
      expect(r.doc.error).toMatchObject({ code: 'USAGE', exitCode: 2, message: 'A tool cannot read standard input ("-"): the server\'s standard input is the protocol.' });
    });
    expect(got).toEqual([]);
  });

  it('a batch send keeps its journal where `mailctl send --resume` finds it', async () => {
    const dir = tempDir();
    const list = path.join(dir, 'recipients.csv');
    fs.writeFileSync(list, 'address,name\nj1@example.com,One\nj2@example.com,Two\n');
    const args = { 'recipients-file': list, subject: 'Hi {{name}}', html: '<p>Hi</p>', from: 'news@example.com' };
    const plan = (await s.call('send', args)).doc.plan;
    const r = await s.call('send', { ...args, confirm: plan.token });
    expect(r.doc).toMatchObject({ total: 2, sent: 2 });
    const journals = fs.readdirSync(path.join(configDir, 'journals'));
    expect(journals.length).toBeGreaterThan(0);
    // Finished: a resume, planned through the server as through the CLI, has nothing to send.
    const again = await s.call('send', { resume: true });
    expect(again.doc.error).toMatchObject({ code: 'USAGE' });
    expect(again.doc.error.message).toContain('no unfinished send');
  });

  it('stdout carried protocol messages only, and no message or stderr line carried a key', () => {
    expect(s.errors).toEqual([]);
    expect(s.messages.length).toBeGreaterThan(20);
    const text = allText(s);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
  });
});

describe('mailctl mcp --read-only', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await spawnMcp(['mcp', '--read-only'], envFor(tempDir()));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists the reads only and refuses a write, nothing sent', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(catalog().filter((t) => !t.write).map((t) => t.name));
    expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
    const got = await received(async () => {
      const r = await s.call('webhook_set', { type: 'delivery', url: 'https://hooks.example.com/x' });
      expect(r.isError).toBe(true);
      expect(r.doc.error).toMatchObject({ code: 'READ_ONLY', exitCode: 2 });
    });
    expect(got).toEqual([]);
    const read = await s.call('balance');
    expect(read.isError).toBe(false);
    expect(read.doc).toHaveProperty('email');
  });

  it('an unknown tool is a protocol error naming it', async () => {
    await expect(s.client.callTool({ name: 'rm_rf' })).rejects.toThrow(/No tool named "rm_rf"/);
  });
});

describe('a plain JSON-RPC client', () => {
  it('gets an answer to every request before the server ends on the end of stdin (exit 0), and only protocol lines on stdout', async () => {
    const child = spawn(process.execPath, [bin, 'mcp'], { env: envFor(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'balance', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'groups_create', arguments: { name: 'Raw' } } },
    ];
    const got = await received(async () => {
      child.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      expect(await exited).toBe(0);
    });
    expect(changes(got)).toEqual([]); // the write was planned, not made
    // Calls run side by side: their answers come in the order they finish.
    const answers = out.trimEnd().split('\n').map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: { isError?: boolean; structuredContent?: { plan?: unknown } } });
    expect(answers.every((a) => a.jsonrpc === '2.0')).toBe(true);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4]);
    const byId = new Map(answers.map((a) => [a.id, a.result]));
    expect(byId.get(3)?.isError).toBe(false);
    expect(byId.get(4)?.structuredContent?.plan).toBeDefined();
    expect(err).toContain('mailctl MCP server on stdin/stdout: 24 tools');
    for (const key of Object.values(KEYS)) expect(out + err).not.toContain(key);
  });

  it('a line that is not JSON, or not JSON-RPC, gets the protocol\'s error answer (id null); the next request is still answered', async () => {
    const child = spawn(process.execPath, [bin, 'mcp'], { env: envFor(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    child.stdin.end(`not json\n{"hello":1}\n${JSON.stringify(init)}\n`);
    expect(await exited).toBe(0);
    const answers = out.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: number | null; error?: { code: number }; result?: unknown });
    expect(answers.map((a) => [a.id, a.error?.code ?? 'result'])).toEqual([[null, -32700], [null, -32600], [1, 'result']]);
  });

  it('Ctrl-C ends it with exit 0 while the client still holds stdin open', async () => {
    const child = spawn(process.execPath, [bin, 'mcp'], { env: envFor(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    for (let i = 0; i < 400 && !err.includes('MCP server'); i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    child.stdin.end();
  });

  it('a call the client cancels gets no answer, and the server still ends on the end of stdin', async () => {
    sb.get().sandbox.injectFault({ kind: 'hang', match: { service: 'campaign', path: '/v1/balance' } });
    const balanceBefore = sb.get().sandbox.recorded.filter((r) => r.path === '/v1/balance').length;
    const child = spawn(process.execPath, [bin, 'mcp'], { env: envFor(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'balance', arguments: {} } });
    // Cancelled once the request hangs at the sandbox.
    const balanceReads = () => sb.get().sandbox.recorded.filter((r) => r.path === '/v1/balance').length;
    for (let i = 0; i < 400 && balanceReads() === balanceBefore; i++) await new Promise((r) => setTimeout(r, 25));
    expect(balanceReads()).toBe(balanceBefore + 1);
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user moved on' } });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1]);
  });
});
