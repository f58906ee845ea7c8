// Answers of the wrong type from the campaign service (a hostile or broken server): a figure the
// service did not give is shown as "not given" / null, never as 0; an answer of the wrong shape
// where a command needs it is BAD_RESPONSE (exit 1), naming what was wrong, never NaN,
// "[object Object]" or a raw Node error.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();

describe('balance', () => {
  it('{"email": 12} → sms "not given" (table) and null (--json), never 0; {} gives no figure at all: BAD_RESPONSE', async () => {
    hs.get().on('GET', '/campaign/v1/balance', reply.json({ email: 12 }));
    const table = await runCli(['balance'], { env: hs.get().env, tty: true });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/sms\s+not given/);
    expect(table.stdout).not.toMatch(/\b0\b/);
    const json = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(JSON.parse(json.stdout)).toEqual({ email: 12, sms: null });
    hs.get().on('GET', '/campaign/v1/balance', reply.json({}));
    const none = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(none.exitCode).toBe(1);
    expect(JSON.parse(none.stdout).error.code).toBe('BAD_RESPONSE');
  });

  it('{"email":"lots"} → BAD_RESPONSE naming the figure, not NaN or null', async () => {
    hs.get().on('GET', '/campaign/v1/balance', reply.json({ email: 'lots', sms: 5 }));
    const r = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect(r.stderr).toMatch(/"email" is "lots", not a number/);
    expect(r.stdout + r.stderr).not.toContain('NaN');
  });

  it('a figure given as a number is still shown', async () => {
    hs.get().on('GET', '/campaign/v1/balance', reply.json({ email: 1200, sms: 0 }));
    const r = await runCli(['balance', '--json'], { env: hs.get().env });
    expect(JSON.parse(r.stdout)).toEqual({ email: 1200, sms: 0 });
  });
});

describe('templates', () => {
  it('{"templates":"nope","capacity":{}} → BAD_RESPONSE, no empty rows, no [object Object]', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ templates: 'nope', capacity: {} }));
    const r = await runCli(['template', 'list'], { env: hs.get().env, tty: true });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/"templates" is "nope", not a list/);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('[object Object]');
  });

  it('a capacity that is not a number → BAD_RESPONSE; one not given → said so, not "of undefined"', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ templates: [], capacity: {} }));
    const bad = await runCli(['template', 'list'], { env: hs.get().env, tty: true });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/"capacity" is an empty object, not a number/);
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ templates: [{ id: 'T1', name: 'One' }] }));
    const none = await runCli(['template', 'list'], { env: hs.get().env, tty: true });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toContain('1 templates (the service gave no capacity)');
    expect(JSON.parse((await runCli(['template', 'list', '--json'], { env: hs.get().env })).stdout).capacity).toBeNull();
  });

  it('template show --out with html that is a number → BAD_RESPONSE (exit 1), no file, no Node error', async () => {
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ id: 'T1', name: 'One', template: 42 }));
    const out = path.join(tempDir(), 't.html');
    const r = await runCli(['template', 'show', 'T1', '--out', out], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/"template" is 42, not text/);
    expect(r.stderr).not.toContain('"data" argument');
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('import status ERROR with a failure-file link', () => {
  it('--download-failures saves it and the error says where; without it, the error says how', async () => {
    const h = hs.get();
    h.on('GET', '/campaign/v1/contacts/imports/result/IM9', reply.json({ importSn: 'IM9', status: 'ERROR', fileCnt: 1, insertCnt: 0, duplicateCnt: 0, errCnt: 1, errorDownloadLink: `${h.url}/files/f.csv` }));
    h.on('GET', '/files/f.csv', reply.text('LINE,REASON\n2,bad encoding\n'));
    const out = path.join(tempDir(), 'f.csv');
    const r = await runCli(['import', 'status', 'IM9', '--download-failures', out], { env: h.env });
    expect(r.exitCode).toBe(1);
    expect(fs.readFileSync(out, 'utf8')).toContain('bad encoding');
    expect(r.stderr).toContain(`Its failure file, saved to ${out}, may say why.`);
    const plain = await runCli(['import', 'status', 'IM9'], { env: h.env });
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain('It left a failure file that may say why: mailctl import status IM9 --download-failures FILE');
  });
});
