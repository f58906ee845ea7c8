// `mailctl import FILE --group G` against the sandbox over loopback: what is checked locally,
// what the service receives (spec 000 endpoints 3–5), and that every row read ends up either
// uploaded or in the rejects file.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil, groupWith, IMPORT_BY_TEXT, IMPORT_BY_FILE } from './helpers/campaign-api.js';
import { workRoot } from '../src/import/work-dir.js';

const sb = useSandbox({
  expect: [
    ...IMPORT_BY_TEXT,
    ...IMPORT_BY_FILE,
    'POST /campaign/_sandbox/fields',
    'GET /files/d/:token',
  ],
});
const api = campaignApi(sb.get);

/** An empty group (the fixture's own request, plain HTTP). */
const newGroup = (name: string): Promise<string> => groupWith(api, [], name);

function write(name: string, content: string | Buffer): string {
  const file = path.join(tempDir('mailctl-import-'), name);
  fs.writeFileSync(file, content);
  return file;
}

const rows = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com,Person ${i}`);
const importPosts = (sn: string) => sb.get().sandbox.requests('campaign').filter((r) => r.method === 'POST' && r.path.startsWith(`/v1/contacts/imports/${sn}/`));

describe('a file with every kind of bad row', () => {
  it('uploads only the valid rows, lists the others with line and reason, and its counts match the sandbox judging the raw file', async () => {
    await api.post('/_sandbox/fields', { name: 'AGE', type: 'number' });
    await api.post('/_sandbox/fields', { name: 'JOINED', type: 'date' });
    const good = Array.from({ length: 120 }, (_, i) => `u${i}@example.com,User ${i},${20 + i},2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
    const bad = [
      'not-an-email,Bad Email,30,2024-01-01',
      'U3@Example.com,Duplicate of line 5,30,2024-01-01',
      `long@example.com,${'n'.repeat(101)},30,2024-01-01`,
      'age@example.com,Age,thirty,2024-01-01',
      'date@example.com,Date,30,2024-02-30',
      'short@example.com,Short row',
    ];
    const lines = ['EMAIL,NAME,AGE,JOINED', ...good.slice(0, 60), ...bad, ...good.slice(60)];
    const file = write('contacts.csv', lines.join('\n') + '\n');
    const sn = await newGroup('Every bad row');

    const r = await runCli(['import', file, '--group', sn, '--field', 'AGE:number', '--field', 'JOINED:date', '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5); // ran, but rows were rejected
    const doc = JSON.parse(r.stdout);
    expect(doc.local).toMatchObject({ read: 126, valid: 120, rejected: 6 });
    expect(doc.local.rejectedBy).toEqual({ 'invalid-email': 1, 'duplicate-email': 1, 'name-too-long': 1, 'field-type': 2, 'column-count': 1 });
    expect(doc.method).toBe('file');
    // The service got exactly the valid rows: nothing left for it to refuse.
    expect(doc.result).toMatchObject({ status: 'COMPLETE', fileCnt: 120, insertCnt: 120, duplicateCnt: 0, errCnt: 0 });

    // Nothing lost: uploaded + rejected = read, and the rejects file names the lines.
    const rejects = parse(fs.readFileSync(doc.rejectsPath), { relax_column_count: true }) as string[][];
    expect(path.dirname(doc.rejectsPath)).toBe(path.dirname(file));
    expect(rejects.slice(1).map((x) => Number(x[0]))).toEqual([62, 63, 64, 65, 66, 67]);

    // The sandbox's own verdict on the raw file (text import, straight over HTTP) agrees row for row.
    const raw = await api.post(`/v1/contacts/imports/${await newGroup('Raw')}/text`, { contacts: lines.join('\n') });
    const done = await pollUntil(() => api.get(`/v1/contacts/imports/result/${raw.json.importSn}`), (x) => x.json.status === 'COMPLETE');
    expect(done.json.insertCnt).toBe(doc.local.valid);
    expect(done.json.duplicateCnt).toBe(doc.local.rejectedBy['duplicate-email']);
    expect(done.json.errCnt).toBe(doc.local.rejected - doc.local.rejectedBy['duplicate-email']);
    const failures = parse(Buffer.from(await (await fetch(done.json.errorDownloadLink)).arrayBuffer()), { relax_column_count: true }) as string[][];
    expect(failures.slice(1).map((x) => Number(x[0])).sort((a, b) => a - b)).toEqual(rejects.slice(1).map((x) => Number(x[0])));
  });
});

describe('text import below 100 rows, file import from 100 (spec section 8)', () => {
  it('99 valid rows go as one text import whose contacts are the cleaned file', async () => {
    const sn = await newGroup('Ninety-nine');
    const file = write('99.csv', ['EMAIL,NAME', ...rows(99, 't')].join('\r\n'));
    const r = await runCli(['import', file, '--group', 'Ninety-nine', '--no-wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const posts = importPosts(sn);
    expect(posts.map((p) => p.path)).toEqual([`/v1/contacts/imports/${sn}/text`]);
    const contacts = (posts[0].body as { contacts: string }).contacts;
    expect(contacts.split('\n')).toHaveLength(100);
    expect(contacts).not.toContain('\r');
    expect(r.stdout.trim()).toMatch(/^IM/); // piped --no-wait: just the import code
  });

  it('100 valid rows go as a file import, then a PUT of the file that carries no API key', async () => {
    const sn = await newGroup('Hundred');
    const file = write('100.csv', ['EMAIL,NAME', ...rows(100, 'h')].join('\n') + '\n');
    const before = sb.get().sandbox.requests('files').length;
    const r = await runCli(['import', file, '--group', sn, '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).result).toMatchObject({ status: 'COMPLETE', fileCnt: 100, insertCnt: 100 });
    expect(importPosts(sn).map((p) => p.path)).toEqual([`/v1/contacts/imports/${sn}/file`]);
    const puts = sb.get().sandbox.requests('files').slice(before).filter((q) => q.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].headers['x-api-key']).toBeUndefined();
    expect(Object.keys(puts[0].headers).join(' ')).not.toMatch(/api-key|authorization/i);
    expect(Number(puts[0].headers['content-length'])).toBe(puts[0].bodyBytes);
    expect(puts[0].headers['transfer-encoding']).toBeUndefined();
  });

  it('a person watching sees the upload size in a unit that fits (a 4 KB file is not "0.0 MB")', async () => {
    const sn = await newGroup('Sized');
    const file = write('sized.csv', ['EMAIL,NAME', ...rows(150, 's')].join('\n') + '\n');
    const r = await runCli(['import', file, '--group', sn, '--wait'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    const size = sb.get().sandbox.requests('files').filter((q) => q.method === 'PUT').at(-1)!.bodyBytes;
    expect(size).toBeGreaterThan(1024);
    expect(size).toBeLessThan(10 * 1024);
    expect(r.stderr).toContain(`Uploaded ${(size / 1024).toFixed(1)} KB.`);
    expect(r.stderr).not.toMatch(/0\.0 MB/);
  });

  it('after everything was imported: one line with what happened and the campaign to create next (the wizard only on a terminal); not under --json', async () => {
    const sn = await newGroup('Next step');
    const file = write('next.csv', ['EMAIL,NAME', ...rows(3, 'n')].join('\n') + '\n');
    const r = await runCli(['--profile', 'x', 'import', file, '--group', sn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    // No terminal: the wizard could not run, so the flags to fill in.
    expect(r.stderr).toContain(`✓ Imported 3 contacts into group "Next step" (${sn}). Next: send them a campaign with mailctl --profile x campaign create --group ${sn} --name NAME --subject SUBJECT --html-file FILE\n`);
    expect(r.stderr).not.toContain('--wizard');
    const atTerminal = await runCli(['--profile', 'x', 'import', file, '--group', sn, '--wait'], { sandbox: sb.get(), tty: true });
    expect(atTerminal.exitCode).toBe(0);
    expect(atTerminal.stderr).toContain(`Next: send them a campaign with mailctl --profile x campaign create --wizard --group ${sn}\n`);
    const json = await runCli(['import', file, '--group', sn, '--wait', '--json'], { sandbox: sb.get() });
    expect(json.exitCode).toBe(0);
    expect(json.stderr).not.toContain('Next:');
  });

  it('not waited for: the line names the status command that follows it', async () => {
    // An import that stays PROCESSING for a minute, so the one look after the start sees it running.
    // The group lookup, its creation, the import start and one look at its result.
    const slow = await startTestSandbox({
      delays: { importProcessing: 60_000 },
      expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn'],
    });
    try {
      const r = await runCli(['--profile', 'x', 'import', write('nw.csv', 'EMAIL,NAME\nnw@example.com,N\n'), '--group', 'Slow', '--create-group', '--no-wait'], { sandbox: slow, tty: true });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(/Follow it with: mailctl --profile x import status IM\w+ --wait/);
      expect(r.stderr).not.toContain('✓ Imported');
    } finally {
      await slow.close();
    }
  });

  it('a failed PUT is sent again (it is idempotent); the import start is not repeated', async () => {
    const sn = await newGroup('Retry');
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, match: { service: 'files', method: 'PUT' } });
    const before = sb.get().sandbox.requests('files').length;
    const r = await runCli(['import', write('r.csv', ['EMAIL,NAME', ...rows(150, 'r')].join('\n')), '--group', sn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/Upload attempt 1 failed \(HTTP 503/);
    expect(sb.get().sandbox.requests('files').slice(before).map((q) => q.status)).toEqual([503, 200]);
    expect(importPosts(sn)).toHaveLength(1);
  });
});

describe('input realities', () => {
  it('BOM, CRLF, quoted commas, quotes and line breaks, blank trailing lines and padded emails arrive intact', async () => {
    const sn = await newGroup('Realities');
    const csv = '\ufeffEMAIL,NAME,NOTE\r\n  lin@example.com ,"Lin, Mei","said ""hi""\r\nthen left"\r\nwu@example.com,Wu,\r\n\r\n\r\n';
    const r = await runCli(['import', write('excel.csv', csv), '--group', sn, '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/2 rows read, 2 valid, 0 rejected/);
    const sent = (importPosts(sn)[0].body as { contacts: string }).contacts;
    expect(parse(sent)).toEqual([['EMAIL', 'NAME', 'NOTE'], ['lin@example.com', 'Lin, Mei', 'said "hi"\r\nthen left'], ['wu@example.com', 'Wu', '']]);
  });

  it('a Big5 file is refused with the flag that converts it, and converted with --encoding big5', async () => {
    const sn = await newGroup('Big5');
    // 中文 in Big5 is A4 A4 A4 E5.
    const file = write('big5.csv', Buffer.concat([Buffer.from('EMAIL,NAME\r\nchen@example.com,'), Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]), Buffer.from('\r\n')]));
    const refused = await runCli(['import', file, '--group', sn], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/Big5/);
    expect(refused.stderr).toMatch(/--encoding big5/);
    expect(importPosts(sn)).toHaveLength(0);

    const ok = await runCli(['import', file, '--group', sn, '--encoding', 'big5', '--wait'], { sandbox: sb.get() });
    expect(ok.exitCode).toBe(0);
    expect((importPosts(sn)[0].body as { contacts: string }).contacts).toBe('EMAIL,NAME\nchen@example.com,中文');
  });

  it('reads standard input when the file is -', async () => {
    const sn = await newGroup('Stdin');
    const r = await runCli(['import', '-', '--group', sn, '--wait', '--json'], { sandbox: sb.get(), stdin: 'EMAIL,NAME\npiped@example.com,Piped\n' });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'standard input', result: { status: 'COMPLETE', insertCnt: 1 } });
  });
});

describe('whole-file refusals: exit 2 and nothing is sent', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an empty file', '', /empty/],
    ['a header-only file', 'EMAIL,NAME\r\n', /no contacts/],
    ['duplicate column names', 'EMAIL,NAME,City,CITY\na@example.com,A,x,y\n', /duplicate column names.*DUPLICATE_HEADER/],
    ['no header line', 'a@example.com,Ann\n', /no header line/],
  ];
  for (const [what, content, message] of cases) {
    it(what, async () => {
      const before = sb.get().sandbox.requests().length;
      const r = await runCli(['import', write('f.csv', content), '--group', 'Anything'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(sb.get().sandbox.requests().length).toBe(before);
    });
  }

  it('every row rejected: nothing is sent (no header-only upload, no group lookup), one sentence, exit 2, the rejects file written', async () => {
    const before = sb.get().sandbox.requests().length;
    const file = write('bad.csv', 'EMAIL,NAME\nnope,No\nalso-bad,Bad\n');
    const r = await runCli(['import', file, '--group', 'Anything'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    const rejects = file.replace(/\.csv$/, '.rejects.csv');
    expect(r.stderr).toContain(`error: All 2 rows of ${file} were rejected, so nothing was sent.\nFix the rows listed with their reasons in ${rejects} and run again.`);
    expect(fs.readFileSync(rejects, 'utf8').split('\n')[1]).toMatch(/^2,/);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('every row rejected in a dry run: it ends as the real run would, exit 2, and shows no request', async () => {
    const file = write('bad-dry.csv', 'EMAIL,NAME\nnope,No\nalso-bad,Bad\n');
    const r = await runCli(['import', file, '--group', 'Anything', '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toBe(`All 2 rows of ${file} were rejected, so a real run would send nothing.`);
    expect(r.stderr).toContain('add --rejects FILE');
    expect(r.stderr).not.toContain('POST');
    expect(fs.existsSync(file.replace(/\.csv$/, '.rejects.csv'))).toBe(false);
  });

  it('--strict uploads nothing when any row is rejected', async () => {
    const sn = await newGroup('Strict');
    const r = await runCli(['import', write('s.csv', 'EMAIL,NAME\nok@example.com,Ok\nnope,No\n'), '--group', sn, '--strict'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/1 row was rejected, and --strict uploads nothing/);
    expect(importPosts(sn)).toHaveLength(0);
  });

  it('--strict uploads nothing while the check warns (a reserved column), as --strict means everywhere', async () => {
    const sn = await newGroup('StrictWarn');
    const r = await runCli(['import', write('w.csv', 'EMAIL,NAME,LINE_UID\nok@example.com,Ok,u1\n'), '--group', sn, '--strict'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Reserved column name LINE_UID');
    expect(r.stderr).toContain('--strict uploads nothing while the check warns (1 warning above).');
    expect(importPosts(sn)).toHaveLength(0);
  });

  it('--dry-run checks and reports with no key and no request at all', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['import', write('d.csv', ['EMAIL,NAME', ...rows(150, 'd'), 'bad,Bad'].join('\n')), '--group', 'Whatever', '--dry-run', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dryRun: true, method: 'file', group: { given: 'Whatever', lookedUp: false }, local: { read: 151, valid: 150, rejected: 1 } });
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('--dry-run shows the group lookup and the import request a real run sends, sends nothing and writes no copy of the rows', async () => {
    const sn = await newGroup('Dry');
    const base = sb.get().campaignUrl;
    const configDir = tempDir('mailctl-dry-import-');
    const before = sb.get().sandbox.requests().length;
    // 150 valid rows: the file import, then the PUT of the cleaned rows.
    const big = await runCli(['import', write('big.csv', ['EMAIL,NAME', ...rows(150, 'dry'), 'bad,Bad'].join('\n')), '--group', sn, '--dry-run'], { sandbox: sb.get(), configDir });
    expect(big.exitCode, big.stderr).toBe(0);
    expect(big.stdout).toContain('Would upload\t150 rows by file import');
    const cleaned = Buffer.byteLength(['EMAIL,NAME', ...rows(150, 'dry')].join('\n') + '\n');
    expect(big.stdout).toContain(`# lookup: the groups, to find the code of "${sn}"`);
    expect(big.stdout).toContain(`GET ${base}/v1/contacts/lists?page=0&size=100\n`);
    expect(big.stdout).toContain(`POST ${base}/v1/contacts/imports/${sn}/file\n`);
    expect(big.stdout).toContain(`PUT (the upload url in the answer)\ncontent-type: text/csv; charset=utf-8\ncontent-length: ${cleaned}\n`);
    // Below 100 rows: the text import, its body naming the rows it would carry.
    const small = await runCli(['import', write('small.csv', 'EMAIL,NAME\nann@example.com,Ann\n'), '--group', sn, '--dry-run', '--json'], { sandbox: sb.get(), configDir });
    expect(small.exitCode, small.stderr).toBe(0);
    const doc = JSON.parse(small.stdout);
    expect(doc.lookups.map((l: { method: string; url: string }) => `${l.method} ${l.url}`)).toEqual([`GET ${base}/v1/contacts/lists?page=0&size=100`]);
    expect(doc.requests).toEqual([expect.objectContaining({ method: 'POST', url: `${base}/v1/contacts/imports/${sn}/text`, body: { contacts: expect.stringContaining('the 1 valid row of') } })]);
    expect(doc.local).toMatchObject({ read: 1, valid: 1 });
    // Nothing reached the sandbox, not even the lookup, and no work folder (cleaned copy) was made.
    expect(sb.get().sandbox.requests().slice(before)).toEqual([]);
    expect(fs.existsSync(workRoot(configDir))).toBe(false);
  });
});

describe('the group, by name or code', () => {
  it('refuses a name shared by two groups, listing their codes', async () => {
    const a = await newGroup('Twins');
    const b = await newGroup('Twins');
    const before = sb.get().sandbox.requests('campaign').length;
    const r = await runCli(['import', write('t.csv', 'EMAIL,NAME\na@example.com,A\n'), '--group', 'twins'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`2 groups are named "twins": ${a}, ${b}`);
    expect(sb.get().sandbox.requests('campaign').slice(before).map((q) => q.method)).toEqual(['GET']); // the group list only
  });

  it('creates a missing group with --create-group, and names the flag without it', async () => {
    const file = write('n.csv', 'EMAIL,NAME\nnew@example.com,New\n');
    const before = sb.get().sandbox.requests('campaign').length;
    const missing = await runCli(['import', file, '--group', 'Brand new'], { sandbox: sb.get() });
    expect(missing.exitCode).toBe(2);
    expect(sb.get().sandbox.requests('campaign').slice(before).map((q) => q.method)).toEqual(['GET']); // no group made, no import
    expect(missing.stderr).toMatch(/No group has the name or code "Brand new"[\s\S]*--create-group/);
    const r = await runCli(['import', file, '--group', 'Brand new', '--create-group', '--wait', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).group).toMatchObject({ name: 'Brand new', created: true });
  });
});

describe('the failure file', () => {
  it('--download-failures saves the service\'s failure file without sending the key', async () => {
    // A type the CLI was not told about: only the service can catch it.
    await api.post('/_sandbox/fields', { name: 'SCORE', type: 'number' });
    const sn = await newGroup('Failures');
    const dir = tempDir();
    const file = path.join(dir, 'scores.csv');
    fs.writeFileSync(file, 'EMAIL,NAME,SCORE\na@example.com,A,1\nb@example.com,B,lots\n');
    const before = sb.get().sandbox.requests('files').length;
    const r = await runCli(['import', file, '--group', sn, '--download-failures'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/1 refused by the service/);
    const saved = path.join(dir, 'scores.failures.csv');
    expect(fs.readFileSync(saved, 'utf8')).toMatch(/lots/);
    const gets = sb.get().sandbox.requests('files').slice(before).filter((q) => q.method === 'GET');
    expect(gets).toHaveLength(1);
    expect(gets[0].headers['x-api-key']).toBeUndefined();
  });
});

describe('--sandbox (the in-process sandbox behind ctx.transport())', () => {
  it('uploads the file through the same transport, with no server and no key', async () => {
    const configDir = tempDir();
    const file = write('inproc.csv', ['EMAIL,NAME', ...rows(120, 'ip')].join('\n'));
    const opts = { configDir, tuning: { rateLimit: true } }; // the in-process sandbox keeps the 2/s limit
    const r = await runCli(['--sandbox', 'import', file, '--group', 'Local', '--create-group', '--no-wait', '--json'], opts);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.method).toBe('file');
    // The file arrived: the import left UPLOADING.
    expect(['PROCESSING', 'COMPLETE']).toContain(doc.status);
  });
});
