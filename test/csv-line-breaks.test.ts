// Every CSV mailctl writes keeps one record to one row however a value breaks its line — LF, CRLF
// or a lone CR — read back by Python's csv module (a reader nobody here wrote; Excel and
// LibreOffice, like it, end a row at a lone CR outside quotes), and the formula guard still applies.
// A lone CR used to go out unquoted: the row split in two, and a formula after the CR became the
// first cell of a row of its own. The cleaned upload the import sends keeps its data unchanged and
// its rows whole too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvLine, toCsv } from '../src/run/output/csv.js';
import { validateContacts } from '../src/import/validate.js';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const python = spawnSync('python3', ['-c', 'import csv'], { encoding: 'utf8' });
const PYTHON = python.status === 0;
if (!PYTHON) console.warn(`csv-line-breaks: python3 with its csv module is not available here (${python.error?.message ?? python.stderr}); these tests are skipped.`);

/** The rows Python's csv module reads from `data` (UTF-8), as a spreadsheet would split them. */
function pythonRows(data: string | Buffer): string[][] {
  const script = 'import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.buffer.read().decode("utf-8"), newline="")))))';
  const r = spawnSync('python3', ['-c', script], { input: data, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[][];
}

const BREAKS: Array<[string, string]> = [
  ['a lone CR', 'first\rsecond'],
  ['LF', 'first\nsecond'],
  ['CRLF', 'first\r\nsecond'],
  // No quote or comma in it: nothing else makes a writer quote it.
  ['a formula after a lone CR', "Ann\r=cmd|' /C calc'!A0"],
  ['a formula after LF', 'Ann\n@SUM(1+1)*cmd|\' /C calc\'!A0'],
  ['a lone CR at the end', 'trailing\r'],
];

describe.skipIf(!PYTHON)('src/run/output/csv.ts: one row per record for Python\'s csv module', () => {
  it.each(BREAKS)('%s inside a cell: quoted, the value exact', (_what, value) => {
    const text = toCsv([['x', value, 7], ['y', 'plain', 8]], ['key', 'value', 'n']);
    expect(pythonRows(text)).toEqual([['key', 'value', 'n'], ['x', value, '7'], ['y', 'plain', '8']]);
    expect(pythonRows(csvLine([value, 'z']))).toEqual([[value, 'z']]);
  });

  it('the formula guard still applies to a cell that starts like one, with or without a break in it', () => {
    const rows = [['=1+1'], ['\r=1+1'], ['-2+3\rx'], ['＝HYPERLINK("x")\n']];
    expect(pythonRows(toCsv(rows)).map((r) => r[0])).toEqual(["'=1+1", "'\r=1+1", "'-2+3\rx", "'＝HYPERLINK(\"x\")\n"]);
  });
});

describe.skipIf(!PYTHON)('--csv output of a command, piped', () => {
  const hs = useHostileServer();
  it('groups list --csv: a group name holding a lone CR (and a formula after it) stays in its row', async () => {
    const names = BREAKS.map(([, v]) => v);
    hs.get().on('GET', '/campaign/v1/contacts/lists', reply.json(names.map((name, i) => ({ sn: `L${i}`, name, status: 'GENERAL', subscribedCnt: i }))));
    const r = await runCli(['groups', 'list', '--csv'], { env: hs.get().env });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = pythonRows(r.stdout);
    expect(rows).toHaveLength(1 + names.length);
    expect(rows.slice(1).map((row) => [row[0], row[1]])).toEqual(names.map((n, i) => [`L${i}`, n]));
  });
});

describe.skipIf(!PYTHON)('the import\'s files', () => {
  async function check(content: string) {
    const dir = tempDir('mailctl-csv-breaks-');
    const result = await validateContacts({
      input: Readable.from([Buffer.from(content)]), source: 'contacts.csv', nameMaxLength: 100,
      cleanedPath: path.join(dir, 'clean.csv'), rejects: { path: path.join(dir, 'rejects.csv') },
    });
    return { result, cleaned: fs.readFileSync(path.join(dir, 'clean.csv')), rejects: result.rejectsPath ? fs.readFileSync(result.rejectsPath) : undefined };
  }

  it('the rejects file: a rejected row whose NAME holds a lone CR is one row, the value as it was', async () => {
    const name = "Ann\r=cmd|' /C calc'!A0";
    const { result, rejects } = await check(`EMAIL,NAME\nann@example.com,"${name.replace(/"/g, '""')}"\nbob@example.com,Bob\n`);
    expect(result).toMatchObject({ read: 2, valid: 1, rejected: 1 });
    const rows = pythonRows(rejects!);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['LINE', 'REASON', 'EMAIL', 'NAME']);
    expect([rows[1][0], rows[1][2], rows[1][3]]).toEqual(['2', 'ann@example.com', name]);
  });

  it('the cleaned upload: a custom field holding a lone CR, LF or CRLF is sent unchanged and stays one record', async () => {
    const notes = ['one\rtwo', 'three\nfour', 'five\r\nsix'];
    const file = ['EMAIL,NAME,NOTE', ...notes.map((n, i) => `p${i}@example.com,P${i},"${n}"`)].join('\n') + '\n';
    const { result, cleaned } = await check(file);
    expect(result).toMatchObject({ read: 3, valid: 3, rejected: 0 });
    expect(pythonRows(cleaned)).toEqual([['EMAIL', 'NAME', 'NOTE'], ...notes.map((n, i) => [`p${i}@example.com`, `P${i}`, n])]);
  });
});
