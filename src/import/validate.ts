// The local check of a contacts file before anything is sent, streaming: bytes → encoding check
// or conversion → csv-parse → stage 1 (header, src/import/header.ts) → stage 2 per row (spec
// section 2, Import). Valid rows go to a cleaned CSV ready to upload, the others to the rejects
// file, so every row read ends up in exactly one of the two. Memory stays flat: one input chunk,
// about a megabyte of output waiting for the disk, and 12 bytes per distinct address.
import { Parser } from 'csv-parse';
import { UsageError, InterruptedError } from '../cli/errors.js';
import { Decoder, sniffEncoding, type EncodingName } from './encoding.js';
import { checkHeader, fitsType, type FieldType, type HeaderPlan } from './header.js';
import { emailProblem } from '../email.js';
import { SeenEmails } from './seen-emails.js';
import { CsvFile, csvLine } from './csv-writer.js';
import { RejectsFile, type RejectReason } from './rejects.js';

export const DEFAULT_NAME_MAX_LENGTH = 100;

export interface ValidateOptions {
  input: AsyncIterable<Buffer | string>;
  /** How the input is named in messages: a path, or "standard input". */
  source: string;
  /** Named by the user (--encoding); otherwise sniffed. */
  encoding?: EncodingName;
  nameMaxLength: number;
  fieldTypes?: Record<string, FieldType>;
  /** Where valid rows are written; omitted on --dry-run. */
  cleanedPath?: string;
  rejectsPath: string;
  signal?: AbortSignal;
  /** Size of the input in bytes, when known: sizes the duplicate table once instead of growing it. */
  sizeHint?: number;
  /** Called after each input chunk with the data rows read so far (progress display). */
  onProgress?(rows: number): void;
}

export interface ValidationResult {
  encoding: EncodingName;
  header: string[];
  /** Data rows read (blank lines not counted). */
  read: number;
  valid: number;
  rejected: number;
  /** Lines with no value at all (e.g. blank trailing lines): not contacts, skipped. */
  blank: number;
  reasons: Partial<Record<RejectReason, number>>;
  /** Set when at least one row was rejected. */
  rejectsPath?: string;
  cleanedPath?: string;
  cleanedBytes: number;
  warnings: string[];
}

// One regular expression over the whole address (see email.ts for the rule in words): cheaper in
// the hot loop than splitting at the @.
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export async function validateContacts(o: ValidateOptions): Promise<ValidationResult> {
  const cleaned = o.cleanedPath ? new CsvFile(o.cleanedPath) : undefined;
  let rejects: RejectsFile | undefined;
  try {
    const result = await run(o, cleaned, (r) => (rejects = r));
    await cleaned?.close();
    await (rejects as RejectsFile | undefined)?.close();
    return { ...result, cleanedBytes: cleaned?.bytes ?? 0 };
  } catch (e) {
    // Refused or interrupted: leave no half-written upload or rejects file behind.
    await cleaned?.discard().catch(() => {});
    await (rejects as RejectsFile | undefined)?.discard().catch(() => {});
    throw e;
  }
}

async function run(o: ValidateOptions, cleaned: CsvFile | undefined, setRejects: (r: RejectsFile) => void): Promise<ValidationResult> {
  let seen = new SeenEmails();
  const nameMax = o.nameMaxLength;
  const reasons: Partial<Record<RejectReason, number>> = {};
  let plan: HeaderPlan | undefined;
  let ncols = 0;
  let typed: HeaderPlan['typed'] = [];
  let keep: number[] | undefined; // column indexes to upload, when unnamed columns are dropped
  let rejects: RejectsFile | undefined;
  let line = 1; // line the next record starts on
  let parserLines = 0;
  let read = 0;
  let valid = 0;
  let blank = 0;

  const reject = (at: number, reason: RejectReason, detail: string, rec: string[]) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    rejects!.add(at, detail, rec);
  };

  const onRecord = (rec: string[]) => {
    const at = line;
    // Lines a record spans: one, plus the line breaks inside its quoted fields. csv-parse counts
    // lines too, but one too many for each CRLF inside quotes; its count is only used to skip
    // the scan when the record moved it by exactly one line (no line break inside).
    line++;
    const pl = parser.info.lines;
    if (pl - parserLines !== 1) for (let i = 0; i < rec.length; i++) if (rec[i].indexOf('\n') !== -1) line += countNewlines(rec[i]);
    parserLines = pl;

    const first = rec[0];
    if (first.length === 0 || first.charCodeAt(0) <= 32 || first.charCodeAt(first.length - 1) <= 32) {
      if (isBlank(rec)) {
        if (plan) blank++;
        return;
      }
    }
    if (!plan) {
      plan = checkHeader(rec, o.source, o.fieldTypes);
      ncols = rec.length;
      typed = plan.typed;
      if (plan.unnamed.length) keep = plan.names.map((_, i) => i).filter((i) => !plan!.unnamed.includes(i));
      rejects = new RejectsFile(o.rejectsPath, plan.names);
      setRejects(rejects);
      cleaned?.write(csvLine(keep ? keep.map((i) => plan!.names[i]) : plan.names));
      return;
    }
    read++;
    if (rec.length !== ncols) {
      return reject(at, 'column-count', `has ${rec.length} value${rec.length === 1 ? '' : 's'}; the header has ${ncols} columns`, rec);
    }
    const email = first.trim();
    if (email.length > 254 || !EMAIL.test(email) || email.indexOf('@') > 64) {
      return reject(at, 'invalid-email', emailProblem(email), rec);
    }
    // Length in UTF-16 units of the trimmed name, as a Java-style service counts it; for Chinese
    // and other BMP text that is the number of characters.
    const name = rec[1];
    if (name.length > nameMax) {
      const chars = name.trim().length;
      if (chars > nameMax) return reject(at, 'name-too-long', `NAME is ${chars} characters; the limit is ${nameMax}`, rec);
    }
    for (let t = 0; t < typed.length; t++) {
      const f = typed[t];
      const v = rec[f.index];
      if (!fitsType(v, f.type)) {
        return reject(at, 'field-type', `${f.name} "${v}" is not a ${f.type === 'date' ? 'date (YYYY-MM-DD)' : 'number'}`, rec);
      }
    }
    const firstAt = seen.firstLine(email, at);
    if (firstAt) return reject(at, 'duplicate-email', `duplicate of line ${firstAt} (same EMAIL, case-insensitive; the first is kept)`, rec);
    valid++;
    if (cleaned) {
      if (email !== first) rec[0] = email;
      cleaned.write(csvLine(keep ? keep.map((i) => rec[i]) : rec));
    }
  };

  // csv-parse's stream wrapper re-queues every record as an object-mode chunk; driving its parser
  // directly calls us once per record with nothing in between (about a third faster).
  const parser = csvApi();
  const feed = (buf: Buffer | undefined, end: boolean) => {
    const err = parser.parse(buf, end, onRecord, () => {});
    if (err) throw csvError(err, o.source);
  };

  let decoder: Decoder | undefined;
  let head: Buffer[] = [];
  let headBytes = 0;
  const start = (): Decoder => {
    const h = Buffer.concat(head);
    head = [];
    if (o.sizeHint) seen = new SeenEmails(slotsFor(o.sizeHint, h));
    const enc = o.encoding ?? sniffEncoding(h, o.source);
    const d = new Decoder(enc, o.source);
    feed(d.push(h), false);
    return d;
  };

  for await (const c of o.input) {
    if (o.signal?.aborted) throw new InterruptedError('Stopped while checking the file; nothing was uploaded.');
    const chunk = typeof c === 'string' ? Buffer.from(c) : c;
    if (!decoder) {
      // Collect a few bytes first: a byte-order mark or UTF-16 zeros may straddle tiny chunks.
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < 4096) continue;
      decoder = start();
    } else {
      feed(decoder.push(chunk), false);
    }
    o.onProgress?.(read);
    await cleaned?.drain();
    await rejects?.drain();
  }
  decoder ??= start();
  const tail = decoder.end();
  if (tail) feed(tail, false);
  feed(undefined, true);

  if (!plan) {
    throw new UsageError(`${o.source} is empty: there is no header line and no contacts.`, 'The first line must be the header EMAIL,NAME[,custom fields…], with one contact per line after it.');
  }
  if (read === 0) {
    throw new UsageError(`${o.source} has a header line but no contacts; nothing to import.`, 'Add one contact per line after the header.');
  }
  const rejected = read - valid;
  return {
    encoding: decoder.encoding,
    header: plan.names,
    read, valid, rejected, blank, reasons,
    rejectsPath: rejected ? o.rejectsPath : undefined,
    cleanedPath: o.cleanedPath,
    cleanedBytes: 0,
    warnings: plan.warnings,
  };
}

function csvApi(): CsvApi {
  const api = (new Parser({ relax_column_count: true, relax_quotes: true, bom: true, skip_empty_lines: false }) as unknown as { api?: CsvApi }).api;
  if (!api || typeof api.parse !== 'function' || !api.info) throw new Error('csv-parse changed: Parser.api is missing');
  return api;
}

interface CsvApi {
  info: { lines: number };
  parse(buf: Buffer | undefined, end: boolean, push: (rec: string[]) => void, close: () => void): Error | undefined;
}

/**
 * Slots per shard for the rows a file of `size` bytes probably holds, judged from its first
 * bytes. Growing the table as rows arrive leaves every outgrown copy for the garbage collector:
 * on 1M rows that doubled the table's share of memory.
 */
function slotsFor(size: number, head: Buffer): number {
  let lines = 0;
  for (let i = head.indexOf(10); i !== -1; i = head.indexOf(10, i + 1)) lines++;
  if (lines < 2) return 256;
  const rows = Math.min(size / (head.length / lines), 50_000_000);
  return Math.ceil(rows / 256 / 0.7);
}

function isBlank(rec: string[]): boolean {
  for (let i = 0; i < rec.length; i++) if (rec[i].trim() !== '') return false;
  return true;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** A CSV syntax error (an unclosed quote swallows the rest of the file): the whole file is refused. */
function csvError(err: Error & { code?: string; lines?: number }, source: string): UsageError {
  if (err instanceof UsageError) return err;
  const where = err.lines ? ` near line ${err.lines}` : '';
  const what = err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is never closed' : err.message.replace(/\s+/g, ' ');
  return new UsageError(
    `${source} is not valid CSV${where}: ${what}.`,
    'A field that holds a comma, a double quote or a line break must be enclosed in double quotes, with each double quote inside it doubled (""). Fix the file and run again.',
  );
}
