// Every answer is read through its endpoint's declaration (src/api/answers/, decisions row 34):
// an answer in no documented shape is BAD_RESPONSE (exit 1) naming the endpoint and what was
// wrong where, never an empty result with exit 0; a null or wrong-typed item inside a list is
// BAD_RESPONSE, never a crash; JSON nested past any real answer is refused before it is parsed,
// so --json and --query never overflow the stack. The documented variants themselves run in
// test/api-alternate-shapes.test.ts, and every read command against an unknown shape in
// test/api-unknown-shape.test.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import * as campaign from '../src/api/answers/campaign.js';
import * as notify from '../src/api/answers/notify.js';
import { readAs, type Answer } from '../src/api/answers/read.js';
import { MAX_ANSWER_DEPTH } from '../src/api/http.js';
import { nestedDeeperThan } from '../src/core/json-depth.js';

const hs = useHostileServer();
const GROUPS = '/campaign/v1/contacts/lists';
const errorOf = (stdout: string) => (JSON.parse(stdout) as { error: { code: string; message: string; endpoint?: string; exitCode: number } }).error;

describe('an answer in no documented shape', () => {
  it('groups list: a list with a null item is BAD_RESPONSE naming the item (exit 1), not "a bug in mailctl"', async () => {
    hs.get().on('GET', GROUPS, reply.json([{ sn: 'G1', name: 'One' }, null]));
    const r = await runCli(['groups', 'list', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(errorOf(r.stdout)).toMatchObject({ code: 'BAD_RESPONSE', endpoint: 'GET /v1/contacts/lists', exitCode: 1 });
    expect(errorOf(r.stdout).message).toBe('The campaign service answered GET /v1/contacts/lists in a shape mailctl does not know: [1] is null, not an object; mailctl shows no guess in its place.');
    expect(r.stderr).not.toContain('bug in mailctl');
  });

  it('groups list: an item with a wrong-typed field is named by its path', async () => {
    hs.get().on('GET', GROUPS, reply.json([{ sn: 'G1', name: 'One' }, { sn: 7, name: 'Two' }]));
    const r = await runCli(['groups', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('[1].sn is 7, not text');
    expect(r.stdout).toBe('');
  });

  it('groups list: an answer wrapped in a key nobody documents is BAD_RESPONSE, never "no groups" with exit 0', async () => {
    hs.get().on('GET', GROUPS, reply.json({ data: [{ sn: 'G1', name: 'One' }] }));
    const r = await runCli(['groups', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the answer is an object with "data", not a list');
    // The hint says what to check, with the command that shows it.
    expect(r.stderr).toContain('mailctl config list');
  });

  it('events: a lookup answered with no "logs" is BAD_RESPONSE (exit 1) naming GET /v1/events', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ rows: [] }));
    const r = await runCli(['events', '--recipient', 'a@example.com', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(errorOf(r.stdout)).toMatchObject({ code: 'BAD_RESPONSE', endpoint: 'GET /v1/events' });
    expect(errorOf(r.stdout).message).toContain('the answer has no "logs"');
  });

  it('balance: a 204 with no body where the balance belongs is BAD_RESPONSE, not "not given"', async () => {
    hs.get().on('GET', '/campaign/v1/balance', (res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(errorOf(r.stdout).message).toContain('the answer is missing, where an object was expected');
  });

  it('send: a success list holding a non-object is BAD_RESPONSE; what was sent is then in doubt, never "sent"', async () => {
    hs.get().on('POST', '/notify/v1/messages', reply.json({ id: 'R1', success: ['a@example.com'], failure: {} }));
    const r = await runCli(['send', '--to', 'a@example.com', '--from', 'n@example.com', '--subject', 'Hi', '--html', '<p>x</p>', '--json'], { env: hs.get().env });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('"success[0]" is "a@example.com", not an object');
    expect(r.stdout + r.stderr).not.toMatch(/1 of 1 accepted/);
  });
});

describe('JSON nested thousands deep', () => {
  const deep = (n: number) => `[{"sn":"G1","name":"x","extra":${'['.repeat(n)}${']'.repeat(n)}}]`;

  it.each([
    ['--json', ['groups', 'list', '--json']],
    ['--query', ['groups', 'list', '--query', '[0].extra']],
    ['a table', ['groups', 'list']],
  ])('groups list with %s: BAD_RESPONSE (exit 1), no stack overflow', async (_, argv) => {
    hs.get().on('GET', GROUPS, reply.text(deep(20_000), 200, { 'content-type': 'application/json' }));
    const r = await runCli(argv, { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`with JSON nested more than ${MAX_ANSWER_DEPTH} levels deep`);
    expect(r.stdout + r.stderr).not.toMatch(/call stack|bug in mailctl/);
  });

  it('an error answer nested that deep is kept as the start of its text, never parsed: the status is judged', async () => {
    hs.get().on('GET', GROUPS, reply.text(`{"message":${'['.repeat(50_000)}`, 400, { 'content-type': 'application/json' }));
    const r = await runCli(['groups', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The campaign service refused GET /v1/contacts/lists (HTTP 400)');
    expect(r.stderr).not.toMatch(/call stack|bug in mailctl/);
  });

  it('the depth count skips brackets inside strings and escapes', () => {
    expect(nestedDeeperThan('{"a":"[[[[[[","b":"\\"[[["}', 2)).toBe(false);
    expect(nestedDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestedDeeperThan('[[1],[2],[3]]', 2)).toBe(false);
  });
});

describe('the declarations themselves', () => {
  const all = ([...Object.entries(campaign), ...Object.entries(notify)] as Array<[string, unknown]>)
    .filter((e): e is [string, Answer<unknown>] => !!e[1] && typeof e[1] === 'object' && 'shapes' in e[1]);

  it('every endpoint names itself and the source of each shape it accepts', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
    for (const [name, a] of all) {
      expect(a.endpoint, name).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/(v1|_sandbox)\//);
      expect(a.shapes.length, name).toBeGreaterThan(0);
      for (const s of a.shapes) expect(s.source, name).toMatch(/spec 00[01]|decisions row \d+|vendor reference|official CLI stub|the sandbox/);
    }
  });

  it('decisions row 29: an import "COMPLETED" (the official CLI) reads as the spec\'s COMPLETE', () => {
    const r = readAs(campaign.IMPORT_RESULT, { import_sn: 'IM1', status: 'COMPLETED', insertCnt: 2 });
    expect(r).toMatchObject({ ok: true, value: { importSn: 'IM1', status: 'COMPLETE', insertCnt: 2 } });
  });

  it('a figure the service did not give is null, never 0; a numeric string is read', () => {
    expect(readAs(campaign.BALANCE, { email: '12' })).toEqual({ ok: true, value: { email: 12, sms: null } });
    // Neither figure at all is no balance answer (a cron check must not read "not given", exit 0).
    expect(readAs(campaign.BALANCE, {})).toMatchObject({ ok: false });
    expect(readAs(campaign.BALANCE, { result: { email: 1 } })).toMatchObject({ ok: false });
  });
});

describe('import status: an import is done only as far as its counts say', () => {
  it('COMPLETE without errCnt, fewer contacts imported than rows in the file: exit 5, the rows not imported counted', async () => {
    hs.get().on('GET', '/campaign/v1/contacts/imports/result/IM1', reply.json({ importSn: 'IM1', status: 'COMPLETE', fileCnt: 10, insertCnt: 7 }));
    const r = await runCli(['import', 'status', 'IM1'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('3 refused by the service');
    expect(r.stderr).not.toContain('✓ Imported');
  });

  it('COMPLETE with no count of what went in: exit 1 saying so, never "Imported 0 contacts"', async () => {
    hs.get().on('GET', '/campaign/v1/contacts/imports/result/IM2', reply.json({ importSn: 'IM2', status: 'COMPLETE' }));
    const r = await runCli(['import', 'status', 'IM2', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect(JSON.parse(r.stdout).error.message).toContain('gives no count of the contacts it imported');
  });

  it('balance answered {}: exit 1 BAD_RESPONSE, not two "not given" and exit 0', async () => {
    hs.get().on('GET', '/campaign/v1/balance', reply.json({}));
    const r = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('BAD_RESPONSE');
  });
});

describe('import status: COMPLETED is done (decisions row 29)', () => {
  it('import status --wait ends at once, exit 0, on an answer saying COMPLETED', async () => {
    hs.get().on('GET', '/campaign/v1/contacts/imports/result/IM5', reply.json({ importSn: 'IM5', status: 'COMPLETED', fileCnt: 2, insertCnt: 2, duplicateCnt: 0, errCnt: 0 }));
    const r = await runCli(['import', 'status', 'IM5', '--wait', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ importSn: 'IM5', status: 'COMPLETE' });
    expect(hs.get().requests.filter((x) => x.path.endsWith('/IM5'))).toHaveLength(1);
  });
});

describe('email event lookup by id and recipient (decisions row 30)', () => {
  it('sends the id alone, and says the recipient was left out', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ logs: [] }));
    const r = await runCli(['events', '--id', 'M1', '--recipient', 'a@example.com', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const q = hs.get().requests.find((x) => x.path === '/notify/v1/events')!.query;
    expect(q.id).toBe('M1');
    expect(q).not.toHaveProperty('recipient');
    expect(r.stderr).toContain('only --id is sent');
  });
});
