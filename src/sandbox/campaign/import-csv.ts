// Really processes an import file, streaming, with the spec's two-stage validation (section 2).
// Nothing is read whole into memory: a 500 MB upload goes through csv-parse chunk by chunk,
// duplicates are tracked with a compact hash set, failures stream to a file on disk.
//
// Stage 1 (the whole file), decisions where the spec is silent:
//   - empty file (no line at all)              → ERROR ("file content empty", cf. code 40009)
//   - duplicate column names (case-insensitive) → DUPLICATE_HEADER
//   - column 1 not EMAIL or column 2 not NAME   → MISSING_REQUIRED_DATA (the mandatory columns,
//     "fixed positions"; a file without a header line lands here too, as its first data row is
//     read as the header)
//   - not parseable as CSV (e.g. an unclosed quote) → ERROR
// The failure file: LINE (of the uploaded file, header = 1, a quoted LF adds one), REASON, then
// the row under the file's header (decisions row P15; the client maps LINE back to its input).
// Stage 2 (each row), checked in this order; a failing row is listed in the failure file:
//   wrong number of columns, invalid EMAIL format, NAME over 100 characters (the spec leaves the
//   limit open), a custom-field value not matching its type, EMAIL duplicated in the file.
//   "Duplicated" means an earlier row with the same address (case-insensitive) was imported:
//   the first valid occurrence is kept, later ones count in duplicateCnt (not errCnt).
// Columns named after a reserved name or after no existing custom field are ignored. Empty
// lines are skipped and not counted. fileCnt = insertCnt + duplicateCnt + errCnt.
import fs from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse';
import { isEmail } from './common.js';
import { EmailSet } from './email-set.js';
import { isReserved } from './fields.js';
import { contactKey, type Upsert } from './contacts.js';
import type { SbField, SbImport } from './state.js';

export const NAME_MAX = 100;

export interface ImportOutcome {
  status: Exclude<SbImport['status'], 'UPLOADING' | 'PROCESSING'>;
  reason?: string;
  fileCnt: number;
  insertCnt: number;
  duplicateCnt: number;
  errCnt: number;
  /** Absolute path of the failure file, when anything failed. */
  failureFile?: string;
  upserts: Upsert[];
  /** Accepted rows not collected (new addresses beyond the store's bound, see contacts.ts). */
  uncollected: number;
}

export interface ImportJobInput {
  file: string;
  failureFile: string;
  fields: SbField[];
  /** Whether the (lower-cased) address is already stored: updates are always collected. */
  isStored(key: string): boolean;
  /** How many new addresses to collect at most. */
  collectLimit: number;
}

export async function processImportFile(input: ImportJobInput): Promise<ImportOutcome> {
  const out: ImportOutcome = { status: 'COMPLETE', fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0, upserts: [], uncollected: 0 };
  const source = fs.createReadStream(input.file, { highWaterMark: 1 << 20 });
  // Line numbers are counted here rather than with csv-parse's `info` option, which slows
  // parsing about 2.5×: every record is one line plus the line breaks inside its quoted cells.
  const parser = source.pipe(parse({ bom: true, relax_column_count: true }));
  // pipe() does not forward read errors (file gone, sandbox closed): end the parse with them.
  source.on('error', (e) => parser.destroy(e));
  let lines = 0;
  const failures = new FailureWriter(input.failureFile);
  let header: string[] | undefined;
  let columns: Array<{ field: SbField } | undefined> = [];
  const seen = new EmailSet();
  let newCollected = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = lines + 1;
      lines += 1;
      for (const cell of record) if (cell.includes('\n')) lines += cell.split('\n').length - 1;
      if (record.length === 1 && !record[0].trim()) continue; // an empty line
      if (!header) {
        header = record.map((h) => h.replace(/^\uFEFF/, '').trim());
        const problem = headerProblem(header);
        if (problem) {
          out.status = problem.status;
          out.reason = problem.reason;
          await failures.write(['LINE', 'REASON'], [String(line), problem.reason]);
          break;
        }
        columns = header.map((name, i) => {
          if (i < 2 || !name || isReserved(name)) return undefined;
          const field = input.fields.find((f) => f.name.toUpperCase() === name.toUpperCase());
          return field ? { field } : undefined;
        });
        continue;
      }
      out.fileCnt += 1;
      const failure = rowProblem(record, header.length, columns);
      if (failure) {
        out.errCnt += 1;
        await failures.write(['LINE', 'REASON', ...header], [String(line), failure, ...record]);
        continue;
      }
      const email = record[0].trim();
      const key = contactKey(email);
      if (!seen.add(key)) {
        out.duplicateCnt += 1;
        await failures.write(['LINE', 'REASON', ...header], [String(line), 'EMAIL duplicated in the file', ...record]);
        continue;
      }
      out.insertCnt += 1;
      const stored = input.isStored(key);
      if (!stored && newCollected >= input.collectLimit) {
        out.uncollected += 1;
        continue;
      }
      if (!stored) newCollected += 1;
      const fields: Record<string, string> = {};
      columns.forEach((c, i) => {
        if (c) fields[c.field.name] = record[i].trim();
      });
      out.upserts.push({ email, name: record[1].trim(), fields });
    }
    if (!header) {
      out.status = 'ERROR';
      out.reason = 'file content empty';
      await failures.write(['LINE', 'REASON'], ['1', out.reason]);
    }
  } catch (e) {
    // csv-parse refuses the file (unclosed quote, …): the whole import fails.
    Object.assign(out, { status: 'ERROR', reason: `not a readable CSV file: ${(e as Error).message}`, upserts: [], uncollected: 0 });
    await failures.write(['LINE', 'REASON'], [String(lines + 1), out.reason!]);
  } finally {
    source.destroy();
    await failures.close();
  }
  if (out.status !== 'COMPLETE') Object.assign(out, { fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0, upserts: [], uncollected: 0 });
  if (failures.used) out.failureFile = input.failureFile;
  return out;
}

function headerProblem(header: string[]): { status: ImportOutcome['status']; reason: string } | undefined {
  const names = new Set<string>();
  for (const h of header) {
    const n = h.toUpperCase();
    if (n && names.has(n)) return { status: 'DUPLICATE_HEADER', reason: `duplicate column name: ${h}` };
    names.add(n);
  }
  if (header[0]?.toUpperCase() !== 'EMAIL' || header[1]?.toUpperCase() !== 'NAME') {
    return { status: 'MISSING_REQUIRED_DATA', reason: 'the header line must start with the columns EMAIL,NAME' };
  }
  return undefined;
}

function rowProblem(record: string[], width: number, columns: Array<{ field: SbField } | undefined>): string | undefined {
  if (record.length !== width) return `wrong number of columns: expected ${width}, found ${record.length}`;
  if (!isEmail(record[0].trim())) return 'invalid EMAIL format';
  if (record[1].trim().length > NAME_MAX) return `NAME longer than ${NAME_MAX} characters`;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    const v = record[i].trim();
    if (!c || v === '') continue;
    if (c.field.type === 'number' && !isNumber(v)) return `${c.field.name}: "${v}" is not a number`;
    if (c.field.type === 'date' && !isDate(v)) return `${c.field.name}: "${v}" is not a date (use YYYY-MM-DD)`;
  }
  return undefined;
}

const isNumber = (v: string): boolean => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v);

/** YYYY-MM-DD or YYYY/MM/DD, optionally with a time; the day must exist. */
export function isDate(v: string): boolean {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** Writes failure rows as CSV, opening the file only when the first failure comes. */
class FailureWriter {
  private stream?: fs.WriteStream;
  private error?: Error;
  used = false;
  constructor(private readonly file: string) {}

  async write(header: string[], row: string[]): Promise<void> {
    if (this.error) throw this.error;
    if (!this.stream) {
      this.stream = fs.createWriteStream(this.file);
      // A write error (disk full, sandbox closed) fails the import instead of the process.
      this.stream.on('error', (e) => (this.error = e));
      this.used = true;
      this.stream.write(csvLine(header));
    }
    if (!this.stream.write(csvLine(row))) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    if (!this.stream) return;
    const s = this.stream;
    await new Promise<void>((resolve) => s.end(() => resolve()));
  }
}

export function csvLine(cells: Array<string | number>): string {
  return cells.map((c) => (/[",\r\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',') + '\n';
}
