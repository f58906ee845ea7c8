// Import diagnostics in one file (issue 20.7): the rows the service refuses — its failure file
// numbers the lines of the cleaned upload — join the rows rejected locally in the one rejects
// file, each under the line of the user's own file with its reason, when the import ends: in
// `import --wait`, or in a later `import status` for an import that did not wait.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { systemClock } from '../src/core/clock.js';
import { campaignApi, groupWith } from './helpers/campaign-api.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { pendingDir } from '../src/import/pending.js';

const EXPECTED = [
  'POST /campaign/_sandbox/fields',
  'POST /campaign/v1/contacts/imports/:listSn/text',
  'GET /campaign/v1/contacts/imports/result/:importSn',
  'GET /campaign/v1/contacts/lists',
  'POST /campaign/v1/contacts/lists/insert',
  'GET /files/d/:token',
];
const sb = useSandbox({ expect: EXPECTED });
const hs = useHostileServer();
const api = campaignApi(sb.get);

// SCORE is a number field at the service that the CLI was not told about: only the service
// catches "lots" and "many". Line 3 is caught locally; line 4 is blank.
const FILE = [
  'EMAIL,NAME,SCORE', // 1
  'a@example.com,A,1', // 2
  'not-an-email,B,2', // 3: rejected locally
  '', // 4
  'c@example.com,"C, the third",lots', // 5: refused by the service (upload line 3)
  'd@example.com,D,3', // 6
  'e@example.com,E,many', // 7: refused by the service (upload line 5)
].join('\n') + '\n';

function contactsFile(): { file: string; rejects: string } {
  const dir = tempDir('mailctl-merge-');
  const file = path.join(dir, 'scores.csv');
  fs.writeFileSync(file, FILE);
  return { file, rejects: path.join(dir, 'scores.rejects.csv') };
}

const rowsOf = (file: string) => parse(fs.readFileSync(file), { relax_column_count: true }) as string[][];
const downloads = () => sb.get().sandbox.requests('files').filter((q) => q.method === 'GET').length;

beforeAll(async () => {
  await api.post('/_sandbox/fields', { name: 'SCORE', type: 'number' });
});

/** The one rejects file, as the user should see it: their line numbers, in order, every reason. */
function expectMerged(rejects: string): void {
  const rows = rowsOf(rejects);
  expect(rows[0]).toEqual(['LINE', 'REASON', 'EMAIL', 'NAME', 'SCORE']);
  expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4]])).toEqual([
    ['3', 'not-an-email', 'B', '2'],
    ['5', 'c@example.com', 'C, the third', 'lots'],
    ['7', 'e@example.com', 'E', 'many'],
  ]);
  expect(rows[1][1]).toMatch(/^(?!service)/); // mailctl's own reason
  expect(rows[2][1]).toBe('service: SCORE: "lots" is not a number');
  expect(rows[3][1]).toBe('service: SCORE: "many" is not a number');
}

describe('the service\'s refused rows join the rejects file', () => {
  it('import --wait: downloaded once when the import ends with errors, merged under the input\'s lines; exit 5 naming the one file', async () => {
    const { file, rejects } = contactsFile();
    const group = await groupWith(api, [], 'Merge now');
    const before = downloads();
    const r = await runCli(['import', file, '--group', group, '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(5);
    expectMerged(rejects);
    expect(downloads() - before).toBe(1); // the failure file, keyless
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ rejectsPath: rejects, serviceRejects: { merged: 2, unmapped: 0 }, result: { errCnt: 2 } });
    expect(r.stderr).toContain(`Not every row was imported: 1 rejected locally; 2 refused by the service; each is in ${rejects} with its line and reason.`);
  });

  it('import --no-wait, then import status --wait: the rows are merged by the later run; a second status merges nothing twice', async () => {
    // Its own sandbox, whose imports take a minute of a clock the test moves: the import is
    // certainly still PROCESSING when `import --no-wait` takes its one look.
    let skew = 0;
    const own = await startTestSandbox({ delays: { importProcessing: 60_000 }, clock: { now: () => Date.now() + skew, sleep: systemClock.sleep }, expect: EXPECTED });
    try {
      await campaignApi(() => own).post('/_sandbox/fields', { name: 'SCORE', type: 'number' });
      const group = await groupWith(campaignApi(() => own), [], 'Merge later');
      const { file, rejects } = contactsFile();
      const configDir = tempDir('mailctl-merge-config-');
      const downloadsOf = () => own.sandbox.requests('files').filter((q) => q.method === 'GET').length;
      const started = await runCli(['import', file, '--group', group, '--no-wait', '--json'], { sandbox: own, configDir });
      expect(started.exitCode).toBe(5); // the local reject
      const doc = JSON.parse(started.stdout);
      expect(doc.status).toBe('PROCESSING');
      expect(rowsOf(rejects)).toHaveLength(2); // the header and the local row: the service has not judged yet
      expect(fs.readdirSync(pendingDir(configDir))).toHaveLength(1);

      skew = 61_000; // the minute passes
      const status = await runCli(['import', 'status', doc.importSn, '--wait'], { sandbox: own, configDir });
      expect(status.exitCode, status.stderr).toBe(5);
      expectMerged(rejects);
      expect(status.stdout).toMatch(new RegExp(`^Rejects file\\s+${rejects.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
      expect(fs.readdirSync(pendingDir(configDir))).toEqual([]); // merged: nothing left to do
      expect(downloadsOf()).toBe(1);

      const again = await runCli(['import', 'status', doc.importSn], { sandbox: own, configDir });
      expect(again.exitCode).toBe(5);
      expectMerged(rejects);
      expect(downloadsOf()).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('--download-failures: the saved copy is the one merged (one download), and stays as the service sent it', async () => {
    const { file, rejects } = contactsFile();
    const group = await groupWith(api, [], 'Merge saved');
    const before = downloads();
    const r = await runCli(['import', file, '--group', group, '--wait', '--download-failures'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expectMerged(rejects);
    expect(downloads() - before).toBe(1);
    const saved = rowsOf(path.join(path.dirname(file), 'scores.failures.csv'));
    expect(saved.slice(1).map((x) => [x[0], x[2]])).toEqual([['3', 'c@example.com'], ['5', 'e@example.com']]); // the upload's lines
  });

  it('nothing refused locally: the service\'s rows make the rejects file', async () => {
    const dir = tempDir('mailctl-merge-');
    const file = path.join(dir, 'only-service.csv');
    fs.writeFileSync(file, 'EMAIL,NAME,SCORE\n\nx@example.com,X,1\ny@example.com,Y,lots\n');
    const group = await groupWith(api, [], 'Service only');
    const r = await runCli(['import', file, '--group', group, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    const rows = rowsOf(path.join(dir, 'only-service.rejects.csv'));
    expect(rows).toEqual([['LINE', 'REASON', 'EMAIL', 'NAME', 'SCORE'], ['4', 'service: SCORE: "lots" is not a number', 'y@example.com', 'Y', 'lots']]);
  });
});

describe('a failure file in no documented form (a hostile service)', () => {
  function serve(failures: string): void {
    const h = hs.get();
    h.on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'G1', name: 'G1', status: 'GENERAL' }]));
    h.on('POST', '/campaign/v1/contacts/imports/G1/text', reply.json({ importSn: 'IM1' }));
    h.on('GET', '/campaign/v1/contacts/imports/result/IM1', reply.json({ importSn: 'IM1', status: 'COMPLETE', fileCnt: 2, insertCnt: 1, duplicateCnt: 0, errCnt: 1, errorDownloadLink: `${h.url}/files/failures.csv` }));
    h.on('GET', '/files/failures.csv', reply.text(failures));
  }

  it('no LINE and REASON columns: not merged, the local rejects as they were, a warning with the command that saves it; exit 5', async () => {
    const { file, rejects } = contactsFile();
    serve('EMAIL,NAME,ERROR\nc@example.com,C,bad\n');
    const r = await runCli(['import', file, '--group', 'G1', '--wait'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    expect(rowsOf(rejects).map((x) => x[0])).toEqual(['LINE', '3']);
    expect(r.stderr).toContain("The service's failure file was not added to the rejects file: it has no LINE and REASON columns. Save it as the service sent it with: mailctl import status IM1 --download-failures FILE");
  });

  it('a line the upload did not have: kept at the end with the service\'s line, never dropped, and said', async () => {
    const { file, rejects } = contactsFile();
    serve('LINE,REASON,EMAIL\nabc,odd,"=cmd|x"\n3,bad value,c@example.com\n');
    const r = await runCli(['import', file, '--group', 'G1', '--wait', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    const rows = rowsOf(rejects);
    expect(rows.slice(1).map((x) => [x[0], x[2]])).toEqual([['3', 'not-an-email'], ['5', 'c@example.com'], ['', "'=cmd|x"]]); // a formula from outside stays text
    expect(rows.slice(2).map((x) => x[1])).toEqual(['service: bad value', 'service (line abc of the upload): odd']);
    expect(JSON.parse(r.stdout).serviceRejects).toEqual({ merged: 2, unmapped: 1 });
    expect(r.stderr).toContain('1 of the service\'s rows name a line the upload did not have');
  });
});
