// Waiting for an import (spec 000 endpoint 5; decisions row 13: "Terminal statuses: COMPLETE
// (success), DUPLICATE_HEADER, ERROR, MISSING_REQUIRED_DATA (failures)… don't" poll failures
// until the timeout), the resume command after Ctrl-C, and a PROCESSING group.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil, IMPORT_BY_TEXT } from './helpers/campaign-api.js';
import { shellWords } from './helpers/help-examples.js';

function write(content: string): string {
  const file = path.join(tempDir('mailctl-wait-'), 'contacts.csv');
  fs.writeFileSync(file, content);
  return file;
}

describe('every terminal status ends the wait', () => {
  const sb = useSandbox({
    expect: [
      ...IMPORT_BY_TEXT,
      'GET /files/d/:token',
    ],
  });
  const api = campaignApi(sb.get);

  /** An import started straight over HTTP, as another tool would, with a raw (unchecked) body. */
  async function rawImport(contacts: string): Promise<string> {
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Raw' })).json.sn;
    return (await api.post(`/v1/contacts/imports/${sn}/text`, { contacts })).json.importSn;
  }

  const failures: Array<[string, string, RegExp]> = [
    ['DUPLICATE_HEADER', 'EMAIL,NAME,CITY,city\na@example.com,A,x,y', /duplicate column names \(DUPLICATE_HEADER\)/],
    ['MISSING_REQUIRED_DATA', 'NAME,EMAIL\nA,a@example.com', /missing required data \(MISSING_REQUIRED_DATA\)/],
    ['ERROR', '', /failed on the service \(ERROR\)/],
  ];
  for (const [status, contacts, words] of failures) {
    it(`${status} → exit 1 with its meaning in words`, async () => {
      const importSn = await rawImport(contacts);
      const r = await runCli(['import', 'status', importSn, '--wait'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain(`Status\t${status}`);
      expect(r.stderr).toMatch(words);
    });
  }

  it('COMPLETE → the summary: rows in file, inserted, duplicates, errors, failure file', async () => {
    const importSn = await rawImport('EMAIL,NAME\na@example.com,A\nA@example.com,again\nbad,B');
    const r = await runCli(['import', 'status', importSn, '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5); // the service refused two rows
    const doc = JSON.parse(r.stdout);
    expect(doc.result).toMatchObject({ status: 'COMPLETE', fileCnt: 3, insertCnt: 1, duplicateCnt: 1, errCnt: 1 });
    expect(doc.result.errorDownloadLink).toMatch(/^http/);
  });

  it('the import command itself stops at a failed status instead of polling to the timeout', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Fails' });
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { importSn: 'IMX', status: 'ERROR', fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0 }, match: { path: /^\/v1\/contacts\/imports\/result\// } });
    const r = await runCli(['import', write('EMAIL,NAME\na@example.com,A\n'), '--group', 'Fails', '--wait', '--timeout', '1h'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/failed on the service \(ERROR\)/);
  });

  it('six 503s on the status lookup do not end the wait: it goes on and reports the import complete', async () => {
    const importSn = await rawImport('EMAIL,NAME\nt@example.com,T');
    const lookups = () => sb.get().sandbox.requests('campaign').filter((q) => q.path === `/v1/contacts/imports/result/${importSn}`);
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, times: 6, match: { path: `/v1/contacts/imports/result/${importSn}` } });
    const r = await runCli(['import', 'status', importSn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Status\tCOMPLETE');
    expect(lookups().filter((q) => q.status === 503)).toHaveLength(6);
  });

  it('5xx answers that carry a service code are still passing faults of a read: the wait goes on', async () => {
    const importSn = await rawImport('EMAIL,NAME\ns@example.com,S');
    const lookups = () => sb.get().sandbox.requests('campaign').filter((q) => q.path === `/v1/contacts/imports/result/${importSn}`);
    sb.get().sandbox.injectFault({ kind: 'status', status: 500, body: { code: '40007', message: 'invalid sn' }, times: 6, match: { path: `/v1/contacts/imports/result/${importSn}` } });
    const r = await runCli(['import', 'status', importSn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Status\tCOMPLETE');
    expect(lookups().filter((q) => q.status === 500)).toHaveLength(6);
  });

  it('a status lookup that keeps failing: the state is unknown (exit 4) with the command that resumes the wait, never "failed"', async () => {
    const importSn = await rawImport('EMAIL,NAME\nu@example.com,U');
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, times: 1000, match: { path: `/v1/contacts/imports/result/${importSn}` } });
    const r = await runCli(['import', 'status', importSn, '--wait', '--json'], { sandbox: sb.get(), tuning: { waitThroughFaultsMs: 300 } });
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('state is unknown');
    expect(r.stderr).not.toMatch(/import failed|failed on the service/i);
    expect(r.stderr).toContain(`mailctl import status ${importSn} --wait`);
    // A script reads the same from --json: its own code, not the lookup's SERVICE_FAILED.
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'STATE_UNKNOWN', exitCode: 4 });
  });

  it('the resume line of a lost wait keeps --download-failures and names the file the run would have saved (beside FILE), and pastes cleanly', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Keeps' });
    const file = write('EMAIL,NAME\nk@example.com,K\n');
    const expected = path.join(path.dirname(file), 'contacts.failures.csv');
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, times: 1000, match: { path: /^\/v1\/contacts\/imports\/result\// } });
    const r = await runCli(['import', file, '--group', 'Keeps', '--wait', '--download-failures'], { sandbox: sb.get(), tuning: { waitThroughFaultsMs: 300 } });
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(4);
    const line = /Resume waiting with: (mailctl .*?)(  \(with|$)/m.exec(r.stderr)?.[1];
    // Named outright: `import status` alone would default to import-SN.failures.csv here.
    expect(line).toMatch(new RegExp(`^mailctl import status \\S+ --wait --download-failures ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    const pasted = await runCli(shellWords(line!).slice(1), { sandbox: sb.get() });
    expect(pasted.exitCode).toBe(0);
  });

  it('import status --download-failures FILE: the resume line of a lost wait names the same file', async () => {
    const importSn = await rawImport('EMAIL,NAME\nf@example.com,F');
    const out = path.join(tempDir(), 'mine.csv');
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, times: 1000, match: { path: `/v1/contacts/imports/result/${importSn}` } });
    const r = await runCli(['import', 'status', importSn, '--wait', '--download-failures', out], { sandbox: sb.get(), tuning: { waitThroughFaultsMs: 300 } });
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`mailctl import status ${importSn} --wait --download-failures ${out}`);
  });

  it('an expired failure-file link: the line for a fresh one saves the file too, to the same place', async () => {
    const importSn = await rawImport('EMAIL,NAME\nx@example.com,X\nbad,B');
    const out = path.join(tempDir(), 'fails.csv');
    sb.get().sandbox.injectFault({ kind: 'status', status: 403, match: { service: 'files' } });
    const r = await runCli(['import', 'status', importSn, '--wait', '--download-failures', out], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    const line = /run `(mailctl [^`]*)` for a fresh one/.exec(r.stderr)?.[1];
    expect(line).toBe(`mailctl import status ${importSn} --download-failures ${out}`);
    expect((await runCli(shellWords(line!).slice(1), { sandbox: sb.get() })).exitCode).toBe(5);
    expect(fs.readFileSync(out, 'utf8')).toContain('bad');
  });

  it('an unknown import code is explained', async () => {
    const r = await runCli(['import', 'status', 'IMnope'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/No import IMnope was found; the service keeps import results for 30 days/);
  });
});

describe('a long import', () => {
  const sb = useSandbox({
    delays: { importProcessing: 60_000 },
    expect: IMPORT_BY_TEXT,
  });
  const api = campaignApi(sb.get);

  it('Ctrl-C while waiting exits 130 and prints the command that resumes the wait', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Slow' });
    const ac = new AbortController();
    const run = runCli(['import', write('EMAIL,NAME\na@example.com,A\n'), '--group', 'Slow', '--wait'], { sandbox: sb.get(), signal: ac.signal });
    // Interrupt once the CLI is polling the status.
    await pollUntil(async () => sb.get().sandbox.requests('campaign').some((q) => q.path.startsWith('/v1/contacts/imports/result/')), (polling) => polling, 10_000, 5);
    ac.abort();
    const r = await run;
    expect(r.exitCode).toBe(130);
    const sn = /Import (IM\w+) started/.exec(r.stderr)![1];
    expect(r.stderr).toContain(`mailctl import status ${sn} --wait`);
  });

  it('the resume command carries the global flags in effect, and notes choices made only in the environment', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Flags' });
    const r = await runCli(['--profile', 'ops', 'import', write('EMAIL,NAME\nf@example.com,F\n'), '--group', 'Flags', '--wait', '--timeout', '0.1'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(4);
    const sn = /Import (IM\w+) started/.exec(r.stderr)![1];
    expect(r.stderr).toContain(`mailctl --profile ops import status ${sn} --wait  (with `);
    expect(r.stderr).toContain(`MAILCTL_CAMPAIGN_URL=${sb.get().campaignUrl}`);
  });

  it('refuses to import into a group that is PROCESSING, and says why', async () => {
    const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Busy' })).json.sn;
    const first = await runCli(['import', write('EMAIL,NAME\na@example.com,A\n'), '--group', sn, '--no-wait'], { sandbox: sb.get() });
    expect(first.exitCode).toBe(0);
    const before = sb.get().sandbox.requests('campaign').length;
    const second = await runCli(['import', write('EMAIL,NAME\nb@example.com,B\n'), '--group', sn], { sandbox: sb.get() });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(/is PROCESSING: another import into it is still running/);
    expect(sb.get().sandbox.requests('campaign').slice(before).map((q) => q.method)).toEqual(['GET']); // the group list only

    const status = await runCli(['import', 'status', first.stdout.trim()], { sandbox: sb.get() });
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain('Status\tPROCESSING');
  });

  it('--timeout ends the wait with exit 4 and the resume command', async () => {
    await api.post('/v1/contacts/lists/insert', { name: 'Timeout' });
    const r = await runCli(['import', write('EMAIL,NAME\nc@example.com,C\n'), '--group', 'Timeout', '--wait', '--timeout', '0.1'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/still PROCESSING after/);
    expect(r.stderr).toMatch(/mailctl import status IM\w+ --wait/);
  });
});
