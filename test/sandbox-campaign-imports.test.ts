// The sandbox's contacts half of spec 000 (endpoints 1–6) and its custom-field route, over HTTP.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { systemClock } from '../src/core/clock.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/_sandbox/fields',
    'POST /campaign/_sandbox/fields',
    'DELETE /campaign/v1/contacts/:listSn',
    'POST /campaign/v1/contacts/imports/:listSn/file',
    'POST /campaign/v1/contacts/imports/:listSn/text',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /files/d/:token',
    'PUT /files/u/:token',
  ],
});
const api = campaignApi(sb.get);

async function newGroup(name = 'G'): Promise<string> {
  const r = await api.post('/v1/contacts/lists/insert', { name });
  expect(r.status).toBe(200);
  return r.json.sn;
}

async function group(sn: string) {
  const all = await api.get(`/v1/contacts/lists?size=1000`);
  return all.json.find((g: { sn: string }) => g.sn === sn);
}

const result = (importSn: string) => api.get(`/v1/contacts/imports/result/${importSn}`);
const finished = (importSn: string) => pollUntil(() => result(importSn), (r) => !['UPLOADING', 'PROCESSING'].includes(r.json?.status));

/** Endpoint 3 then the PUT, as a user would: returns the final import result. */
async function importFile(listSn: string, csv: string | Buffer, webhookUrl?: string) {
  const started = await api.post(`/v1/contacts/imports/${listSn}/file`, webhookUrl ? { webhookUrl } : {});
  expect(started.status).toBe(200);
  const put = await fetch(started.json.url, { method: 'PUT', body: csv });
  expect(put.status).toBe(200);
  return (await finished(started.json.importSn)).json;
}

async function importText(listSn: string, contacts: string) {
  const started = await api.post(`/v1/contacts/imports/${listSn}/text`, { contacts });
  expect(started.status).toBe(200);
  return (await finished(started.json.importSn)).json;
}

/**
 * A sandbox of its own whose imports take a minute of sandbox time, moved on only by `pass()`:
 * the PROCESSING phase is seen however slow the machine is (with the shared sandbox's 100 ms
 * it could end before the test looked).
 */
async function withSlowImports(expected: string[], fn: (a: ReturnType<typeof campaignApi>, group: (sn: string) => Promise<any>, pass: () => void, own: RunningSandbox) => Promise<void>) {
  let skew = 0;
  const own = await startTestSandbox({ delays: { importProcessing: 60_000 }, clock: { now: () => Date.now() + skew, sleep: systemClock.sleep }, expect: expected });
  const a = campaignApi(() => own);
  const group = async (sn: string) => (await a.get('/v1/contacts/lists?size=1000')).json.find((g: { sn: string }) => g.sn === sn);
  try {
    await fn(a, group, () => (skew += 60_000), own);
  } finally {
    await own.close();
  }
}

describe('groups (endpoints 1, 2)', () => {
  it('"1. POST /v1/contacts/lists/insert: body name* string. 200: sn string (group code)."', async () => {
    const sn = await newGroup('Newsletter');
    const g = await group(sn);
    expect(g).toMatchObject({ sn, name: 'Newsletter', type: 0, status: 'GENERAL', subscribedCnt: 0, excludeCnt: 0, openedRate: 0, clickedRate: 0 });
    expect(typeof g.segVersion).toBe('number');
    expect(Date.parse(g.createDate)).not.toBeNaN();
    expect((await api.post('/v1/contacts/lists/insert', {})).status).toBe(400);
  });

  it('"2. GET /v1/contacts/lists?size=&page=: … page string (zero-based index)", default size 20 (spec: not shown)', async () => {
    const fresh = await startTestSandbox({ expect: ['POST /campaign/v1/contacts/lists/insert', 'GET /campaign/v1/contacts/lists'] });
    try {
      const a = campaignApi(() => fresh);
      for (let i = 0; i < 25; i++) await a.post('/v1/contacts/lists/insert', { name: `g${i}` });
      expect((await a.get('/v1/contacts/lists')).json).toHaveLength(20);
      expect((await a.get('/v1/contacts/lists?page=1')).json.map((g: { name: string }) => g.name)).toEqual(['g20', 'g21', 'g22', 'g23', 'g24']);
      expect((await a.get('/v1/contacts/lists?size=10&page=2')).json).toHaveLength(5);
    } finally {
      await fresh.close();
    }
  });
});

describe('file import (endpoints 3, 5) with a real PUT', () => {
  it('UPLOADING → PROCESSING → COMPLETE; "PROCESSING (import running; a PROCESSING group cannot be chosen …)"; the PUT needs no key', async () => {
    const fileImport = ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/file', 'PUT /files/u/:token', 'GET /campaign/v1/contacts/imports/result/:importSn', 'GET /campaign/v1/contacts/lists'];
    await withSlowImports(fileImport, async (a, group, pass, own) => {
      const sn = (await a.post('/v1/contacts/lists/insert', { name: 'G' })).json.sn;
      const started = await a.post(`/v1/contacts/imports/${sn}/file`, {});
      expect(started.json).toEqual({ importSn: expect.any(String), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/u\//) });
      const result = () => a.get(`/v1/contacts/imports/result/${started.json.importSn}`);
      // "UPLOADING (upload file not yet received)"
      expect((await result()).json).toMatchObject({ importSn: started.json.importSn, status: 'UPLOADING' });
      expect((await group(sn)).status).toBe('GENERAL');

      const put = await fetch(started.json.url, { method: 'PUT', body: 'EMAIL,NAME\nann@example.com,Ann\nbob@example.com,Bob\n' });
      expect(put.status).toBe(200);
      const putRec = own.sandbox.requests('files').find((r) => r.method === 'PUT')!;
      expect(putRec.headers['x-api-key']).toBeUndefined();
      expect((await result()).json.status).toBe('PROCESSING');
      expect((await group(sn)).status).toBe('PROCESSING');

      pass();
      const done = (await pollUntil(result, (r) => !['UPLOADING', 'PROCESSING'].includes(r.json?.status))).json;
      expect(done).toMatchObject({ status: 'COMPLETE', fileCnt: 2, insertCnt: 2, duplicateCnt: 0, errCnt: 0 });
      expect(done.errorDownloadLink).toBeUndefined();
      expect(Date.parse(done.completedDate)).toBeGreaterThanOrEqual(Date.parse(done.createDate));
      expect(await group(sn)).toMatchObject({ status: 'GENERAL', subscribedCnt: 2 });
    });
  });

  it('stage 2: "a row fails for: invalid EMAIL format, EMAIL duplicated in the file, custom field value of wrong format or type, NAME over its length limit"', async () => {
    const sn = await newGroup();
    const csv = [
      'EMAIL,NAME,AGE,JOINED,PLAN,UNKNOWN_COL,PHONE',
      'ok1@example.com,One,30,2026-01-31,pro,x,123',
      'not-an-email,Two,31,2026-01-01,pro,x,1',
      'OK1@example.com,Dup,32,2026-01-01,pro,x,1',
      `long@example.com,${'n'.repeat(101)},1,2026-01-01,pro,x,1`,
      'age@example.com,Age,thirty,2026-01-01,pro,x,1',
      'date@example.com,Date,1,2026-02-30,pro,x,1',
      'short@example.com,Short',
      'ok2@example.com,,,,,,',
      '',
      `ok3@example.com,"${'n'.repeat(100)}",-4.5,2026/12/01,"free, forever",x,1`,
    ].join('\n');
    const r = await importFile(sn, csv);
    expect(r).toMatchObject({ status: 'COMPLETE', fileCnt: 9, insertCnt: 3, duplicateCnt: 1, errCnt: 5 });
    // "errorDownloadLink: link to failure file with rows and reasons", served without a key.
    const file = await (await fetch(r.errorDownloadLink)).text();
    const rows: string[][] = parse(file, { relax_column_count: true });
    expect(rows[0]).toEqual(['LINE', 'REASON', 'EMAIL', 'NAME', 'AGE', 'JOINED', 'PLAN', 'UNKNOWN_COL', 'PHONE']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['3', 'invalid EMAIL format', 'not-an-email'],
      ['4', 'EMAIL duplicated in the file', 'OK1@example.com'],
      ['5', 'NAME longer than 100 characters', 'long@example.com'],
      ['6', 'AGE: "thirty" is not a number', 'age@example.com'],
      ['7', 'JOINED: "2026-02-30" is not a date (use YYYY-MM-DD)', 'date@example.com'],
      ['8', 'wrong number of columns: expected 7, found 2', 'short@example.com'],
    ]);
    expect((await group(sn)).subscribedCnt).toBe(3);
  });

  it('stage 1: "duplicate column names reject the whole file" → DUPLICATE_HEADER', async () => {
    const r = await importFile(await newGroup(), 'EMAIL,NAME,PLAN,plan\na@example.com,A,x,y\n');
    expect(r).toMatchObject({ status: 'DUPLICATE_HEADER', fileCnt: 0, insertCnt: 0 });
    expect(await (await fetch(r.errorDownloadLink)).text()).toContain('duplicate column name: plan');
  });

  it('stage 1: "Column 1 is EMAIL, column 2 is NAME (both mandatory, fixed positions)" → MISSING_REQUIRED_DATA, also with no header line', async () => {
    expect((await importFile(await newGroup(), 'NAME,EMAIL\nA,a@example.com\n')).status).toBe('MISSING_REQUIRED_DATA');
    expect((await importFile(await newGroup(), 'a@example.com,A\nb@example.com,B\n')).status).toBe('MISSING_REQUIRED_DATA');
    expect((await importFile(await newGroup(), 'EMAIL\na@example.com\n')).status).toBe('MISSING_REQUIRED_DATA');
  });

  it('ERROR: an empty file, or one that is not CSV (unclosed quote); nothing is imported', async () => {
    const sn = await newGroup();
    expect((await importFile(sn, '')).status).toBe('ERROR');
    const r = await importFile(sn, 'EMAIL,NAME\na@example.com,A\nb@example.com,"B\n');
    expect(r).toMatchObject({ status: 'ERROR', insertCnt: 0 });
    expect((await group(sn)).subscribedCnt).toBe(0);
  });

  it('"Reserved column names … such a column is ignored but the file is processed"; a UTF-8 BOM and CRLF are fine', async () => {
    const sn = await newGroup();
    const r = await importFile(sn, Buffer.from('\uFEFFEMAIL,NAME,GENDER,birthday\r\nzoë@example.com,Zoë,f,2000-01-01\r\n'));
    expect(r).toMatchObject({ status: 'COMPLETE', fileCnt: 1, insertCnt: 1 });
  });

  it('a second PUT to the same upload address is ignored', async () => {
    const sn = await newGroup();
    const started = await api.post(`/v1/contacts/imports/${sn}/file`, {});
    await fetch(started.json.url, { method: 'PUT', body: 'EMAIL,NAME\na@example.com,A\n' });
    expect((await fetch(started.json.url, { method: 'PUT', body: 'EMAIL,NAME\nb@example.com,B\nc@example.com,C\n' })).status).toBe(200);
    expect((await finished(started.json.importSn)).json).toMatchObject({ status: 'COMPLETE', fileCnt: 1 });
  });

  it('"500: no content" when the import cannot start (unknown group)', async () => {
    const r = await api.post('/v1/contacts/imports/LSnope/file', {});
    expect(r.status).toBe(500);
    expect(r.text).toBe('');
  });

  it('thousands of rows stream through; counts stay exact', async () => {
    const sn = await newGroup();
    const rows = ['EMAIL,NAME,AGE'];
    for (let i = 0; i < 5_000; i++) rows.push(`user${i}@example.com,User ${i},${i % 90}`);
    rows.push('user5@example.com,Again,1');
    const r = await importFile(sn, rows.join('\n'));
    expect(r).toMatchObject({ status: 'COMPLETE', fileCnt: 5_001, insertCnt: 5_000, duplicateCnt: 1, errCnt: 0 });
    expect((await group(sn)).subscribedCnt).toBe(5_000);
  });

  it('"webhookUrl … called by POST when the import ends with the body of endpoint 5"', async () => {
    const got: Array<{ body: unknown; headers: http.IncomingHttpHeaders }> = [];
    const server = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c)).on('end', () => {
        got.push({ body: JSON.parse(b), headers: req.headers });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const r = await importFile(await newGroup(), 'EMAIL,NAME\na@example.com,A\n', hook);
      await pollUntil(async () => got.length, (n) => n > 0);
      expect(got[0].body).toEqual(r);
      expect(got[0].headers['x-api-key']).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('endpoint 5 for an unknown code → 400 with a message (spec: body not shown)', async () => {
    const r = await result('IMnope');
    expect(r.status).toBe(400);
    expect(r.json.message).toEqual(expect.any(String));
  });
});

describe('text import (endpoint 4)', () => {
  it('"contacts* string holding the whole list, lines separated by a line-feed" → starts PROCESSING, ends COMPLETE', async () => {
    const textImport = ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn'];
    await withSlowImports(textImport, async (a, _group, pass) => {
      const sn = (await a.post('/v1/contacts/lists/insert', { name: 'G' })).json.sn;
      const started = await a.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\na@example.com,A\nb@example.com,B' });
      expect(started.json).toEqual({ importSn: expect.any(String) });
      const result = () => a.get(`/v1/contacts/imports/result/${started.json.importSn}`);
      expect((await result()).json.status).toBe('PROCESSING');
      pass();
      expect((await pollUntil(result, (r) => r.json?.status !== 'PROCESSING')).json).toMatchObject({ status: 'COMPLETE', insertCnt: 2 });
    });
  });

  it('"Payload at most 10 MB": a bigger body → 413', async () => {
    const sn = await newGroup();
    const r = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\n' + 'x'.repeat(10 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ message: 'Request Too Long' });
  });

  it('"500: no content" without contacts or for an unknown group; a non-JSON body → 400', async () => {
    const sn = await newGroup();
    for (const r of [await api.post(`/v1/contacts/imports/${sn}/text`, {}), await api.post('/v1/contacts/imports/LSnope/text', { contacts: 'EMAIL,NAME' })]) {
      expect(r.status).toBe(500);
      expect(r.text).toBe('');
    }
    expect((await api.call('POST', `/v1/contacts/imports/${sn}/text`, 'not json')).status).toBe(400);
  });

  it('"Re-importing the same EMAIL overwrites values of the same-named columns. Columns not listed in the file are left unchanged."', async () => {
    const sn = await newGroup();
    await importText(sn, 'EMAIL,NAME,AGE,PLAN\na@example.com,A,30,pro\nb@example.com,B,40,free');
    await importText(sn, 'EMAIL,NAME,AGE\nA@EXAMPLE.COM,A2,31');
    // No endpoint reads a contact back; endpoint 6's filters show what is stored: NAME was
    // overwritten, PLAN (not in the second file) kept.
    const r = await api.del(`/v1/contacts/${sn}`, { filters: [{ columnName: 'PLAN', operator: 'EQ', value: 'pro' }, { columnName: 'NAME', operator: 'EQ', value: 'A2' }] });
    expect(r.json).toEqual({ updated_count: 1 });
    expect((await group(sn)).subscribedCnt).toBe(1);
  });
});

describe('removing contacts (endpoint 6)', () => {
  let sn: string;
  let other: string;
  beforeAll(async () => {
    sn = await newGroup('Main');
    other = await newGroup('Other');
    await importText(sn, 'EMAIL,NAME,PLAN,AGE\nann@gmail.com,Ann,pro,30\nbob@corp.example,Bob,free,40\ncat@gmail.com,Cat,free,50\ndan@corp.example,Dan,pro,60');
    await importText(other, 'EMAIL,NAME\nann@gmail.com,Ann');
  });

  it('"40050308 group to remove from does not exist"; "40050305 filters or keys missing"', async () => {
    expect(await api.del('/v1/contacts/LSnope', { keys: ['a@example.com'] })).toMatchObject({ status: 400, json: { code: 40050308, message: expect.any(String) } });
    expect(await api.del(`/v1/contacts/${sn}`, {})).toMatchObject({ status: 400, json: { code: 40050305 } });
    expect(await api.del(`/v1/contacts/${sn}`, { keys: [] })).toMatchObject({ status: 400, json: { code: 40050305 } });
  });

  it('"40050306 wrong column name", "40050304 wrong custom field name", "40050307 wrong operator"', async () => {
    const f = (columnName: string, operator = 'EQ') => api.del(`/v1/contacts/${sn}`, { filters: [{ columnName, operator, value: 'x' }] });
    expect((await f('EMAIL')).json.code).toBe(40050306);
    expect((await f('AGE')).json.code).toBe(40050306); // "Comparison on date or number custom fields is not offered."
    expect((await f('NO_SUCH_FIELD')).json.code).toBe(40050304);
    expect((await f('NAME', 'GT')).json.code).toBe(40050307);
  });

  it('filters: "columnName: NAME, MAIL_ADDRESS, DOMAIN, LISTSN, or a custom field name. operator: EQ, NOT_EQ, LIKE, NOT_LIKE"; only membership goes', async () => {
    const r = await api.del(`/v1/contacts/${sn}`, { filters: [{ columnName: 'DOMAIN', operator: 'EQ', value: 'gmail.com' }, { columnName: 'LISTSN', operator: 'NOT_EQ', value: other }] });
    expect(r).toMatchObject({ status: 200, json: { updated_count: 1 } }); // cat only: ann is also in Other
    expect((await api.del(`/v1/contacts/${sn}`, { filters: [{ columnName: 'MAIL_ADDRESS', operator: 'LIKE', value: '%@corp.%' }, { columnName: 'PLAN', operator: 'NOT_LIKE', value: 'pro' }] })).json).toEqual({ updated_count: 1 });
    // "keys array of email addresses"; case does not matter, unknown ones are not counted.
    expect((await api.del(`/v1/contacts/${sn}`, { keys: ['ANN@gmail.com', 'nobody@example.com'] })).json).toEqual({ updated_count: 1 });
    expect((await group(sn)).subscribedCnt).toBe(1);
    // "Removing a contact from a group … does not delete the contact elsewhere."
    expect((await group(other)).subscribedCnt).toBe(1);
  });
});

describe('custom fields (sandbox-only route, not in the spec)', () => {
  it('defines a field once; "the type is chosen at creation and cannot change"; reserved names are refused; the key is required', async () => {
    expect(await api.post('/_sandbox/fields', { name: 'CITYCODE', type: 'number' })).toMatchObject({ status: 201, json: { name: 'CITYCODE', type: 'number' } });
    expect((await api.post('/_sandbox/fields', { name: 'CITYCODE', type: 'number' })).status).toBe(200);
    expect((await api.post('/_sandbox/fields', { name: 'citycode', type: 'date' })).status).toBe(409);
    expect((await api.post('/_sandbox/fields', { name: 'Birthday', type: 'date' })).status).toBe(400);
    expect((await api.get('/_sandbox/fields')).json.fields.map((f: { name: string }) => f.name)).toEqual(['AGE', 'JOINED', 'PLAN', 'CITYCODE']);
    expect(await campaignApi(sb.get, 'wrong').get('/_sandbox/fields')).toMatchObject({ status: 403, json: { message: 'Forbidden' } });
    const r = await importText(await newGroup(), 'EMAIL,NAME,CITYCODE\na@example.com,A,12\nb@example.com,B,x');
    expect(r).toMatchObject({ insertCnt: 1, errCnt: 1 });
  });
});

describe('time-driven import rules (fake clock)', () => {
  let running: RunningSandbox;
  let now = Date.parse('2026-11-01T00:00:00Z');
  beforeAll(async () => {
    running = await startTestSandbox({
      clock: { now: () => now, sleep: async () => {} },
      expect: ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/file', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn', 'PUT /files/u/:token'],
    });
  });
  afterAll(() => running.close());

  it('an upload never made: UPLOADING until the address expires (1 h, sandbox choice), then MISSING_REQUIRED_DATA ("required file missing")', async () => {
    const a = campaignApi(() => running);
    const sn = (await a.post('/v1/contacts/lists/insert', { name: 'x' })).json.sn;
    const started = await a.post(`/v1/contacts/imports/${sn}/file`, {});
    now += 59 * 60 * 1000;
    expect((await a.get(`/v1/contacts/imports/result/${started.json.importSn}`)).json.status).toBe('UPLOADING');
    now += 60 * 1000;
    expect((await a.get(`/v1/contacts/imports/result/${started.json.importSn}`)).json.status).toBe('MISSING_REQUIRED_DATA');
    expect((await fetch(started.json.url, { method: 'PUT', body: 'EMAIL,NAME\n' })).status).toBe(403);
  });

  it('"Only imports of the last 30 days can be queried."', async () => {
    const a = campaignApi(() => running);
    const sn = (await a.post('/v1/contacts/lists/insert', { name: 'y' })).json.sn;
    const started = await a.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\na@example.com,A' });
    now += 29 * 24 * 3600 * 1000;
    expect((await pollUntil(() => a.get(`/v1/contacts/imports/result/${started.json.importSn}`), (r) => r.json.status === 'COMPLETE')).status).toBe(200);
    now += 2 * 24 * 3600 * 1000;
    expect((await a.get(`/v1/contacts/imports/result/${started.json.importSn}`)).status).toBe(400);
  });
});
