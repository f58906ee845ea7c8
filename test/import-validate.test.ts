// The local two-stage check of a contacts file (spec 000 section 2, Import: "Validation is
// two-stage. Stage 1 checks file structure… Stage 2 checks rows"), on files in a temp folder.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { validateContacts, type ValidateOptions } from '../src/import/validate.js';
import { Utf8Check } from '../src/import/encoding.js';
import { SeenEmails } from '../src/import/seen-emails.js';
import { fitsType } from '../src/import/header.js';
import { UsageError } from '../src/core/errors.js';
import { tempDir } from './helpers/cli.js';

async function check(content: string | Buffer, o: Partial<ValidateOptions> & { chunk?: number } = {}) {
  const dir = tempDir('mailctl-validate-');
  const buf = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const size = o.chunk ?? buf.length;
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  const result = await validateContacts({
    input: Readable.from(chunks), source: 'contacts.csv', nameMaxLength: 100,
    cleanedPath: path.join(dir, 'clean.csv'), rejects: { path: path.join(dir, 'rejects.csv') }, ...o,
  });
  const cleaned = fs.existsSync(path.join(dir, 'clean.csv')) ? fs.readFileSync(path.join(dir, 'clean.csv'), 'utf8') : undefined;
  const rejects = result.rejectsPath ? (parse(fs.readFileSync(result.rejectsPath), { relax_column_count: true }) as string[][]) : [];
  return { result, cleaned, rejects, dir };
}

async function refusal(content: string | Buffer, o: Partial<ValidateOptions> = {}): Promise<UsageError> {
  const e = await check(content, o).then(() => undefined, (err) => err);
  expect(e).toBeInstanceOf(UsageError);
  return e as UsageError;
}

describe('stage 2: every kind of bad row goes to the rejects file with its line and reason', () => {
  it('rejects invalid emails, in-file duplicates (first kept), long names, wrong types and wrong column counts', async () => {
    const file = [
      'EMAIL,NAME,AGE,JOINED',
      'ann@example.com,Ann,30,2024-01-31', // 2 ok
      'not-an-email,Bob,31,2024-02-01', // 3 invalid email
      'ANN@Example.com,Ann again,32,2024-02-02', // 4 duplicate of 2
      `cat@example.com,${'x'.repeat(101)},33,2024-02-03`, // 5 NAME over 100
      'dan@example.com,Dan,thirty,2024-02-04', // 6 AGE not a number
      'eve@example.com,Eve,35,2024-02-30', // 7 no such date
      'fay@example.com,Fay,36', // 8 one column short
      '  gus@example.com  ,Gus,,', // 9 ok: spaces trimmed, empty values fit any type
      '',
    ].join('\n');
    const { result, cleaned, rejects } = await check(file, { fieldTypes: { AGE: 'number', JOINED: 'date' } });
    expect(result).toMatchObject({ read: 8, valid: 2, rejected: 6, blank: 0 });
    expect(result.reasons).toEqual({ 'invalid-email': 1, 'duplicate-email': 1, 'name-too-long': 1, 'field-type': 2, 'column-count': 1 });
    expect(cleaned).toBe('EMAIL,NAME,AGE,JOINED\nann@example.com,Ann,30,2024-01-31\ngus@example.com,Gus,,\n');
    expect(rejects[0]).toEqual(['LINE', 'REASON', 'EMAIL', 'NAME', 'AGE', 'JOINED']);
    expect(rejects.slice(1).map((r) => r[0])).toEqual(['3', '4', '5', '6', '7', '8']);
    expect(rejects[2][1]).toMatch(/duplicate of line 2/);
    expect(rejects[3][1]).toMatch(/NAME is 101 characters; the limit is 100/);
    expect(rejects[6].slice(2)).toEqual(['fay@example.com', 'Fay', '36']); // original columns kept
  });

  it('keeps the first valid occurrence when an earlier copy was rejected for another reason', async () => {
    const { result, cleaned } = await check(`EMAIL,NAME\na@example.com,${'n'.repeat(101)}\nA@example.com,ok\n`);
    expect(result).toMatchObject({ valid: 1, rejected: 1, reasons: { 'name-too-long': 1 } });
    expect(cleaned).toContain('A@example.com,ok');
  });

  it('counts NAME length in characters (a 100-character Chinese name fits), and the limit is adjustable', async () => {
    const name = '中'.repeat(100);
    expect((await check(`EMAIL,NAME\na@example.com,${name}\n`)).result.valid).toBe(1);
    expect((await check(`EMAIL,NAME\na@example.com,${name}\n`, { nameMaxLength: 50 })).result.reasons).toEqual({ 'name-too-long': 1 });
  });
});

describe('input realities', () => {
  it('reads a UTF-8 BOM, CRLF line ends, quoted commas/quotes/newlines and blank trailing lines, with true line numbers', async () => {
    const file = '\ufeffEMAIL,NAME,NOTE\r\n' +
      'a@example.com,"Lin, Mei","said ""hi""\r\nthen left"\r\n' + // lines 2-3
      'bad,"x",y\r\n' + // line 4
      'b@example.com,B,\r\n\r\n\r\n';
    const { result, cleaned, rejects } = await check(file, { chunk: 7 });
    expect(result).toMatchObject({ read: 3, valid: 2, rejected: 1, blank: 2 });
    expect(result.header).toEqual(['EMAIL', 'NAME', 'NOTE']);
    expect(rejects[1][0]).toBe('4');
    const back = parse(cleaned!) as string[][];
    expect(back[1]).toEqual(['a@example.com', 'Lin, Mei', 'said "hi"\r\nthen left']);
  });

  it('refuses a Big5 file with a sentence naming --encoding big5, and converts it when asked', async () => {
    // 中文 in Big5 is A4 A4 A4 E5.
    const big5 = Buffer.concat([Buffer.from('EMAIL,NAME\na@example.com,'), Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]), Buffer.from('\n')]);
    const e = await refusal(big5);
    expect(e.message).toMatch(/Big5/);
    expect(e.hint).toMatch(/--encoding big5/);
    const { cleaned } = await check(big5, { encoding: 'big5' });
    expect(cleaned).toBe('EMAIL,NAME\na@example.com,中文\n');
  });

  it('finds invalid UTF-8 far into the file, not only at the start', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `u${i}@example.com,User ${i}`).join('\n');
    const bad = Buffer.concat([Buffer.from(`EMAIL,NAME\n${rows}\nz@example.com,`), Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]), Buffer.from('\n')]);
    const e = await refusal(bad, { chunk: 1000 } as never);
    expect(e.hint).toMatch(/--encoding big5/);
  });

  it('reads UTF-16LE with a byte-order mark and refuses UTF-16 without one', async () => {
    const text = 'EMAIL,NAME\r\na@example.com,王小明\r\n';
    const withBom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const { cleaned, result } = await check(withBom, { chunk: 3 } as never);
    expect(result.encoding).toBe('utf16le');
    expect(cleaned).toBe('EMAIL,NAME\na@example.com,王小明\n');
    const e = await refusal(Buffer.from(text, 'utf16le'));
    expect(e.hint).toMatch(/--encoding utf16le/);
  });

  it('checks UTF-8 split across chunks at every byte boundary', () => {
    const buf = Buffer.from('ab中文😀x');
    for (let cut = 1; cut < buf.length; cut++) {
      const c = new Utf8Check('f');
      c.push(buf.subarray(0, cut));
      c.push(buf.subarray(cut));
      c.end();
    }
    const c = new Utf8Check('f');
    c.push(Buffer.from([0x61, 0xe4, 0xb8]));
    expect(() => c.end()).toThrow(UsageError); // cut off mid-character at the end of the file
  });
});

describe('line endings: every physical line is one record, whatever ends it', () => {
  it('a file mixing CRLF and LF keeps every line its own record (issue 9 item 2)', async () => {
    const file = 'EMAIL,NAME,PLAN\r\nu0@example.com,Ann\nu1@example.com,Bob\r\nu2@example.com,Cy,pro\r\n';
    const { result, cleaned, rejects } = await check(file);
    expect(result).toMatchObject({ read: 3, valid: 1, rejected: 2 });
    expect(cleaned).toBe('EMAIL,NAME,PLAN\nu2@example.com,Cy,pro\n');
    expect(rejects.slice(1).map((r) => [r[0], ...r.slice(2)])).toEqual([['2', 'u0@example.com', 'Ann'], ['3', 'u1@example.com', 'Bob']]);
  });

  it('a lone CR in an LF file ends a line too, also when CR and LF arrive in different chunks', async () => {
    const file = 'EMAIL,NAME\na@example.com,A\rb@example.com,B\r\nc@example.com,C\rd@example.com,D';
    for (const chunk of [1, 2, 3, 5, 1000]) {
      const { result, cleaned } = await check(file, { chunk });
      expect(result).toMatchObject({ read: 4, valid: 4, rejected: 0, blank: 0 });
      expect(cleaned).toBe('EMAIL,NAME\na@example.com,A\nb@example.com,B\nc@example.com,C\nd@example.com,D\n');
    }
  });

  it('counts a quoted CRLF, LF or lone CR as one line, so the rejects file names the physical line', async () => {
    const file = 'EMAIL,NAME,NOTE\r\na@example.com,A,"one\r\ntwo"\r\nb@example.com,B,"x\ry\nz"\r\nbad,C,\r\n';
    const { result, rejects } = await check(file, { chunk: 4 });
    expect(result).toMatchObject({ read: 3, valid: 2, rejected: 1 });
    expect(rejects[1][0]).toBe('7'); // lines: 1 header, 2-3 a, 4-6 b, 7 bad
  });

  it('counts an LF before a CRLF inside quotes as two lines (found by the property test)', async () => {
    const { rejects } = await check('EMAIL,NAME,F0\nu0@example.com,,,"\n\r\n"\n,,a');
    expect(rejects.slice(1).map((r) => r[0])).toEqual(['2', '5']);
  });

  it('a line of nothing but spaces and a stray byte-order mark is blank, as trimming sees it', async () => {
    const { result } = await check('EMAIL,NAME,F\na@example.com,A,\n\ufeff, ,\n');
    expect(result).toMatchObject({ read: 1, valid: 1, blank: 1 });
  });

  it('rejects a row with a NUL character (it would reach the service inside a value)', async () => {
    const { result, cleaned, rejects } = await check('EMAIL,NAME\na@example.com,A\u0000nn\nb@example.com,"B\u0000"\nc@example.com,C\n');
    expect(result).toMatchObject({ read: 3, valid: 1, rejected: 2, reasons: { 'control-character': 2 } });
    expect(cleaned).toBe('EMAIL,NAME\nc@example.com,C\n');
    expect(rejects.slice(1).map((r) => r[0])).toEqual(['2', '3']);
  });
});

describe('a quoted value over several lines (a stray quote merges lines)', () => {
  it('a stray quote in NAME: the lines it swallowed come out as one rejected record, pointing at the quote, never uploaded as a NAME', async () => {
    const file = [
      'EMAIL,NAME,PLAN',
      'x@y.com,"Bob', // 2: the stray quote opens here…
      'u1@example.com,Ann,pro',
      'u2@example.com,Cy,pro',
      'u3@example.com,"Dee",pro', // …and closes here (5): valid CSV, one record over lines 2-5
      'u4@example.com,Ed,pro', // 6
      '',
    ].join('\n');
    for (const chunk of [1, 3, 1000]) {
      const { result, cleaned, rejects } = await check(file, { chunk });
      expect(result).toMatchObject({ read: 2, valid: 1, rejected: 1, reasons: { 'multi-line-value': 1 } });
      expect(cleaned).toBe('EMAIL,NAME,PLAN\nu4@example.com,Ed,pro\n');
      expect(rejects[1][0]).toBe('2');
      expect(rejects[1][1]).toBe('NAME is a quoted value that runs over 4 lines (EMAIL and NAME cannot hold a line break): check for a stray quote on line 2');
      expect(rejects[1][3]).toContain('u1@example.com,Ann,pro'); // the swallowed lines, as written, in the rejects file
    }
  });

  it('a line break in a quoted EMAIL or NAME is rejected even without a contact below it; a custom field keeps its quoted line breaks', async () => {
    const { result, cleaned, rejects } = await check('EMAIL,NAME,NOTE\na@example.com,"Ann\nSmith",x\n"b@example.com\n",B,y\nc@example.com,C,"line one\r\nline two"\n');
    expect(result).toMatchObject({ read: 3, valid: 1, rejected: 2, reasons: { 'multi-line-value': 2 } });
    expect(rejects.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ['2', 'NAME is a quoted value that runs over 2 lines (EMAIL and NAME cannot hold a line break): check for a stray quote on line 2'],
      ['4', 'EMAIL is a quoted value that runs over 2 lines (EMAIL and NAME cannot hold a line break): check for a stray quote on line 4'],
    ]);
    expect(parse(cleaned!)).toEqual([['EMAIL', 'NAME', 'NOTE'], ['c@example.com', 'C', 'line one\r\nline two']]);
  });

  it('a stray quote in a custom field that swallowed contacts is rejected, naming the line that looks like one', async () => {
    const file = [
      'EMAIL,NAME,NOTE',
      'a@example.com,A,ok',
      'b@example.com,B,"said hi', // 3: the stray quote opens NOTE…
      ' c@example.com ,C,',
      'd@example.com,D,"', // …and a later one closes it (5)
      'e@example.com,E,',
      '',
    ].join('\n');
    const { result, cleaned, rejects } = await check(file);
    expect(result).toMatchObject({ read: 3, valid: 2, rejected: 1, reasons: { 'multi-line-value': 1 } });
    expect(rejects[1].slice(0, 2)).toEqual(['3', 'NOTE is a quoted value that runs over 3 lines and its line 4 starts like a contact (c@example.com): check for a stray quote on line 3']);
    expect(parse(cleaned!).map((r: string[]) => r[0])).toEqual(['EMAIL', 'a@example.com', 'e@example.com']);
  });
});

describe('stage 1: the whole file is refused', () => {
  it('an empty file', async () => {
    expect((await refusal('')).message).toMatch(/empty/);
    expect((await refusal('\n\n')).message).toMatch(/empty/);
  });
  it('a header with no rows', async () => {
    expect((await refusal('EMAIL,NAME\r\n\r\n')).message).toMatch(/no contacts/);
  });
  it('no header line, or EMAIL/NAME not first (case-insensitive match accepted)', async () => {
    expect((await refusal('a@example.com,Ann\n')).message).toMatch(/no header line/);
    expect((await refusal('NAME,EMAIL\nAnn,a@example.com\n')).message).toMatch(/first column .* "NAME", not EMAIL/);
    expect((await refusal('EMAIL\na@example.com\n')).message).toMatch(/second column .* must be NAME/);
    expect((await check('email,name\na@example.com,Ann\n')).result.valid).toBe(1);
  });
  it('duplicate column names (case-insensitive), and nothing is left on disk', async () => {
    const dir = tempDir();
    const e = await check('EMAIL,NAME,City,CITY\na@example.com,A,x,y\n', { cleanedPath: path.join(dir, 'c.csv'), rejects: { path: path.join(dir, 'r.csv') } }).catch((x) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toMatch(/duplicate column names: "CITY" \(columns 3 and 4\)/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
  it('a quoted field that is never closed', async () => {
    expect((await refusal('EMAIL,NAME\na@example.com,"Ann\nb@example.com,B\n')).message).toMatch(/not valid CSV.*never closed/);
  });
});

describe('warnings once, by name', () => {
  it('reserved columns and unknown custom fields (when types are known); unnamed columns are dropped', async () => {
    const { result, cleaned } = await check('EMAIL,NAME,PHONE,AGE,Shoe,\na@example.com,A,123,5,42,\n', { fieldTypes: { AGE: 'number' } });
    expect(result.warnings.join('\n')).toMatch(/Reserved column name PHONE/);
    expect(result.warnings.join('\n')).toMatch(/Shoe is not among the known custom fields/);
    expect(result.warnings.join('\n')).toMatch(/Column 6 has no name/);
    expect(cleaned).toBe('EMAIL,NAME,PHONE,AGE,Shoe\na@example.com,A,123,5,42\n');
  });

  it('decisions row 33: the eight third-party identifiers the vendor reserves are warned on as the spec\'s are, in any case', async () => {
    const eight = ['line_uid', 'Facebook_Id', 'SHOPLINE_ID', 'cyberbiz_id', 'WACA_ID', 'EasyStore_ID', 'qdm_id', 'LINE_DISPLAY_NAME'];
    const { result, cleaned } = await check(`EMAIL,NAME,${eight.join(',')},PLAN\na@example.com,A,${eight.map((_, i) => `v${i}`).join(',')},gold\n`, { fieldTypes: { PLAN: 'string' } });
    const warning = result.warnings.find((w) => w.startsWith('Reserved column names'))!;
    for (const n of eight) expect(warning).toContain(n);
    // Reserved, so not reported as unknown custom fields; PLAN is declared, so nothing else is said.
    expect(result.warnings.join('\n')).not.toMatch(/not among the known custom fields/);
    // The data is sent unchanged: the service ignores those columns, the rows are imported.
    expect(cleaned).toBe(`EMAIL,NAME,${eight.join(',')},PLAN\na@example.com,A,v0,v1,v2,v3,v4,v5,v6,v7,gold\n`);
    expect(result).toMatchObject({ read: 1, valid: 1 });
  });
});

describe('large files', () => {
  it('writes every valid row, in order, across many output buffers', async () => {
    const n = 40_000; // about 2.5 MB of output, several write buffers
    const rows = Array.from({ length: n }, (_, i) => `person${i}@example.com,名字 ${i},"note, with comma ${i}"`);
    const { result, cleaned } = await check(['EMAIL,NAME,NOTE', ...rows].join('\n'), { chunk: 65536 } as never);
    expect(result).toMatchObject({ read: n, valid: n, rejected: 0 });
    const back = parse(cleaned!) as string[][];
    expect(back).toHaveLength(n + 1);
    expect(back[n]).toEqual([`person${n - 1}@example.com`, `名字 ${n - 1}`, `note, with comma ${n - 1}`]);
    expect(back.every((r, i) => i === 0 || r[0] === `person${i - 1}@example.com`)).toBe(true);
  });
});

describe('helpers', () => {
  it('remembers addresses case-insensitively with their first line, across growth', () => {
    const s = new SeenEmails(16);
    for (let i = 0; i < 5000; i++) expect(s.firstLine(`user${i}@example.com`, i + 2)).toBe(0);
    expect(s.firstLine('USER42@EXAMPLE.COM', 9999)).toBe(44);
    expect(s.size).toBe(5000);
  });
  it('date and number custom fields', () => {
    expect(fitsType('2024-02-29', 'date')).toBe(true);
    expect(fitsType('2023-02-29', 'date')).toBe(false);
    expect(fitsType('2024/12/01 09:30', 'date')).toBe(true);
    expect(fitsType('12/01/2024', 'date')).toBe(false);
    // The looser form a spreadsheet writes, and any four-digit year (date.ts's calendar check).
    expect(fitsType('1900/2/28 9:05', 'date')).toBe(true);
    expect(fitsType('1900-02-29', 'date')).toBe(false);
    expect(fitsType('2000-02-29T23:59:59.1234567890Z', 'date')).toBe(true);
    expect(fitsType('2024-04-31', 'date')).toBe(false);
    expect(fitsType('2024-05-01 24:00', 'date')).toBe(false);
    expect(fitsType('2024-05-01T10:00+25:00', 'date')).toBe(false);
    expect(fitsType('-1.5', 'number')).toBe(true);
    expect(fitsType('1e3', 'number')).toBe(false);
    expect(fitsType('1,000', 'number')).toBe(false);
  });
});
