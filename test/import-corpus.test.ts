// Nothing lost, nobody twice (issue 9): every file of a generated hostile corpus goes through
// `mailctl import` against the sandbox, and each data record in it must come out exactly once,
// either in the bytes the sandbox received (fields unchanged but the trimmed EMAIL) or in the
// rejects file under its physical line with its fields as written. A whole-file refusal is
// exit 2 with nothing sent and nothing left behind.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, IMPORT_BY_TEXT, IMPORT_BY_FILE } from './helpers/campaign-api.js';
import { hostileCorpus, type HostileCsv } from './helpers/hostile-csv.js';
import { isValidEmail } from '../src/core/email.js';

// Imports stay PROCESSING (their data file kept) long enough to read what was uploaded.
const sb = useSandbox({
  delays: { importProcessing: 600_000 },
  expect: [
    ...IMPORT_BY_TEXT,
    ...IMPORT_BY_FILE,
  ],
});
const api = campaignApi(sb.get);

const corpus = hostileCorpus();
const figures = { files: 0, refused: 0, rowsIn: 0, uploaded: 0, rejected: 0, accounted: 0, duplicates: 0, lost: 0 };

afterAll(() => {
  console.info(`hostile CSV corpus: ${JSON.stringify(figures)}`);
});

/** A value as the rejects file writes it: csv-stringify's formula guard puts a ' before a formula start. */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const asWritten = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

/** Upload order and columns: the EMAIL trimmed, columns without a name left out. */
function expectedUpload(f: HostileCsv, kept: HostileCsv['records']): string[][] {
  const names = f.header.map((n) => n.trim());
  const keep = names.map((n, i) => i).filter((i) => i < 2 || names[i] !== '');
  return [keep.map((i) => names[i]), ...kept.map((r) => keep.map((i) => (i === 0 ? r.fields[0].trim() : r.fields[i])))];
}

/** What the sandbox received: the text import's contacts or the PUT body, both kept as the import's data file. */
function uploadedBytes(importSn: string): string {
  return fs.readFileSync(path.join(sb.get().sandbox.options.dataDir, 'files', `import-${importSn}.csv`), 'utf8');
}

describe(`a corpus of ${corpus.length} hostile CSVs`, () => {
  it('has at least 40 files, with every kind the issue lists', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((f) => f.name)).size).toBe(corpus.length);
  });

  it.each(corpus.map((f) => [f.name, f] as const))('%s: every record uploaded or rejected, exactly once', async (_name, f) => {
    figures.files++;
    const dir = tempDir('mailctl-corpus-');
    const configDir = tempDir('mailctl-corpus-config-');
    const file = path.join(dir, `${f.name}.csv`);
    fs.writeFileSync(file, f.bytes);
    const sn = (await api.post('/v1/contacts/lists/insert', { name: f.name })).json.sn as string;
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['import', file, '--group', sn, '--no-wait', '--json'], { sandbox: sb.get(), configDir });

    const leftovers = fs.readdirSync(dir).filter((n) => n !== `${f.name}.csv` && n !== `${f.name}.rejects.csv`);
    expect(leftovers).toEqual([]);
    expect(fs.existsSync(path.join(configDir, 'work')) ? fs.readdirSync(path.join(configDir, 'work')) : []).toEqual([]);

    if (f.refusal) {
      figures.refused++;
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(f.refusal);
      expect(sb.get().sandbox.requests().length).toBe(before);
      expect(fs.readdirSync(dir)).toEqual([`${f.name}.csv`]);
      return;
    }
    if (r.exitCode === 2) {
      // Every record rejected: nothing is sent (exit 2), and the rejects file lists each one.
      expect(JSON.parse(r.stdout).error.message).toMatch(/rejected, so nothing was sent/);
      expect(sb.get().sandbox.requests().length).toBe(before);
      const rows = parse(fs.readFileSync(path.join(dir, `${f.name}.rejects.csv`)), { relax_column_count: true }) as string[][];
      expect(rows.slice(1).map((x) => Number(x[0]))).toEqual(f.records.map((x) => x.line));
      figures.rowsIn += f.records.length;
      figures.rejected += f.records.length;
      figures.accounted += f.records.length;
      return;
    }
    expect([0, 5], r.stderr).toContain(r.exitCode);
    const doc = JSON.parse(r.stdout);

    // The accounting, done before any assertion so the figures also describe a failing run.
    const byLine = new Map(f.records.map((x) => [x.line, x]));
    const rejects = doc.rejectsPath ? (parse(fs.readFileSync(doc.rejectsPath), { relax_column_count: true }) as string[][]) : [];
    const lines = rejects.slice(1).map((x) => Number(x[0]));
    const rejectedLines = new Set(lines);
    const kept = f.records.filter((x) => !rejectedLines.has(x.line));
    const expected = expectedUpload(f, kept);
    const sent = parse(uploadedBytes(doc.importSn), { relax_column_count: true }) as string[][];
    // Uploaded rows are matched to the records not rejected, in order; a row matching none is a
    // corrupted record (its source record then counts as lost).
    let matched = 0;
    for (const row of sent.slice(1)) if (matched + 1 < expected.length && JSON.stringify(row) === JSON.stringify(expected[matched + 1])) matched++;
    const accountedRejects = [...rejectedLines].filter((l) => byLine.has(l)).length;
    figures.rowsIn += f.records.length;
    figures.uploaded += matched;
    figures.rejected += accountedRejects;
    figures.accounted += matched + accountedRejects;
    // A line rejected twice, or more rows uploaded than records were left to upload.
    figures.duplicates += lines.length - rejectedLines.size + Math.max(0, sent.length - 1 - kept.length);
    figures.lost += f.records.length - matched - accountedRejects;

    // Rejected: each under a line that starts a record, no line twice, the fields as written.
    if (rejects.length) expect(rejects[0]).toEqual(['LINE', 'REASON', ...f.header.map((n) => n.trim())]);
    expect(lines.length).toBe(rejectedLines.size);
    for (const row of rejects.slice(1)) {
      const rec = byLine.get(Number(row[0]));
      expect(rec, `line ${row[0]} starts no record`).toBeDefined();
      expect(row[1]).not.toBe('');
      expect(row.slice(2)).toEqual(rec!.fields.map(asWritten));
    }
    // Uploaded: every other record, in order, and nothing else; no EMAIL or NAME with a line
    // break (a stray quote's swallowed lines are rejected as one record, never uploaded as a NAME).
    expect(sent).toEqual(expected);
    expect(sent.slice(1).filter((row) => /[\r\n]/.test(`${row[0]}${row[1]}`))).toEqual([]);
    const hidesContact = (v: string) => v.split(/\r\n|\r|\n/).slice(1).some((l) => isValidEmail(l.split(',')[0].trim().replace(/^"+|"+$/g, '').trim()));
    expect(sent.slice(1).filter((row) => row.slice(2).some(hidesContact))).toEqual([]);
    expect(doc.local).toMatchObject({ read: f.records.length, valid: kept.length, rejected: lines.length, blankLines: f.blank });
  });
});

describe('1,000,000 identical rows', () => {
  it('one uploaded, 999,999 rejected as duplicates, each under its own line (dry run with --rejects)', async () => {
    const dir = tempDir('mailctl-million-');
    const file = path.join(dir, 'same.csv');
    const row = 'same@example.com,Same\r\n';
    fs.writeFileSync(file, 'EMAIL,NAME\r\n' + row.repeat(1_000_000));
    const rejects = path.join(dir, 'same.rejects.csv');
    const r = await runCli(['import', file, '--group', 'G', '--dry-run', '--rejects', rejects, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).local).toMatchObject({ read: 1_000_000, valid: 1, rejected: 999_999, rejectedBy: { 'duplicate-email': 999_999 } });
    // Every line from 3 to 1,000,001 once, in order, with the row as written.
    const text = fs.readFileSync(rejects, 'utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe('LINE,REASON,EMAIL,NAME');
    expect(lines).toHaveLength(1_000_001); // header, 999,999 rows, and the empty string after the last \n
    let bad = 0;
    for (let i = 1; i < 1_000_000; i++) if (lines[i] !== `${i + 2},"duplicate of line 2 (same EMAIL, case-insensitive; the first is kept)",same@example.com,Same`) bad++;
    expect(bad).toBe(0);
    figures.rowsIn += 1_000_000;
    figures.uploaded += 1;
    figures.rejected += 999_999;
    figures.accounted += 1_000_000;
    fs.rmSync(dir, { recursive: true, force: true }); // about 100 MB
  }, 120_000);
});
