// The local check of a contacts file before anything is sent, streaming: bytes → encoding check
// or conversion → csv-parse → stage 1 (header, src/import/header.ts) → stage 2 per row (spec
// section 2, Import). Valid rows go to a cleaned CSV ready to upload, the others to the rejects
// file, so every row read ends up in exactly one of the two. Memory stays flat: one input chunk,
// at most 512 rows waiting for the duplicate check, about a megabyte of output waiting for the
// disk, and 12 bytes per distinct address.
//
// A record is a physical line: CRLF, LF and a lone CR each end one, in any mix (spreadsheet
// exports mix them), and a line break belongs to a value only inside double quotes — so a
// quoted value over several lines makes them one physical record, counted once under the line
// it starts on. A stray quote does exactly that to the contacts below it, so EMAIL and NAME may
// never hold a line break, and a custom field may only when none of its later lines starts like
// a contact (strayQuoteSuspect): such a record is rejected whole, never uploaded. Line numbers
// in the rejects file count lines the same way, so they match what an editor shows.
import { UsageError, InterruptedError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';
import { Decoder, sniffEncoding, type EncodingName } from './encoding.js';
import { checkHeader, fitsType, type FieldType, type HeaderPlan } from './header.js';
import { emailProblem, isValidEmail } from '../core/email.js';
import { SeenEmails } from './seen-emails.js';
import { CsvCount, CsvFile, csvLine } from './csv-writer.js';
import { RejectsFile, type RejectReason, type RejectsTarget } from './rejects.js';
import { LineMap } from './line-map.js';
import { csvRecords } from './csv-records.js';

export const DEFAULT_NAME_MAX_LENGTH = 100;

export interface ValidateOptions {
  input: AsyncIterable<Buffer | string>;
  /** How the input is named in messages: a path, or "standard input". */
  source: string;
  /** Named by the user (--encoding); otherwise sniffed. */
  encoding?: EncodingName;
  nameMaxLength: number;
  fieldTypes?: Record<string, FieldType>;
  /** Where valid rows are written; omitted on --dry-run (then only their size is counted). */
  cleanedPath?: string;
  /** Where rejected rows are written; omitted on a dry run that names no --rejects (then only counted). */
  rejects?: RejectsTarget;
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
  /** Set when at least one row was rejected and the rejects file was written. */
  rejectsPath?: string;
  /** No row was rejected, and this older rejects file (from an earlier run) was removed. */
  removedRejects?: string;
  /** No row was rejected, and this older rejects file was left as it was (a dry run). */
  outOfDateRejects?: string;
  cleanedPath?: string;
  /** Size of the cleaned upload: written, or on a dry run counted. */
  cleanedBytes: number;
  /** The line of the input each line of the cleaned upload comes from (for the service's failure file). */
  lineMap: LineMap;
  warnings: string[];
}

export async function validateContacts(o: ValidateOptions): Promise<ValidationResult> {
  const rejects = await RejectsFile.open(o.rejects);
  let cleaned: CsvFile | CsvCount | undefined;
  try {
    cleaned = o.cleanedPath ? new CsvFile(o.cleanedPath) : new CsvCount();
    const result = await run(o, cleaned, rejects);
    await cleaned?.close();
    const placed = await rejects.commit();
    return { ...result, rejectsPath: placed.path, removedRejects: placed.removedOld, outOfDateRejects: placed.outOfDate, cleanedBytes: cleaned?.bytes ?? 0 };
  } catch (e) {
    // Refused or interrupted: leave no half-written upload or rejects file behind, and an
    // earlier rejects file at the target as it was.
    await cleaned?.discard().catch(() => {});
    await rejects.discard().catch(() => {});
    throw e;
  }
}

async function run(o: ValidateOptions, cleaned: CsvFile | CsvCount, rejects: RejectsFile): Promise<ValidationResult> {
  let seen = new SeenEmails();
  const nameMax = o.nameMaxLength;
  const reasons: Partial<Record<RejectReason, number>> = {};
  let plan: HeaderPlan | undefined;
  let ncols = 0;
  let typed: HeaderPlan['typed'] = [];
  let keep: number[] | undefined; // column indexes to upload, when unnamed columns are dropped
  let line = 1; // line the next record starts on
  let parserLines = 0;
  // The cleaned upload's own lines, counted as the service counts what it receives (the
  // sandbox: a line per LF, one more per LF inside a quoted value; decisions row P15).
  const lineMap = new LineMap();
  let uploadLine = 1; // line the next record written to the upload starts on
  let kept: Set<number> | undefined; // the columns uploaded, when unnamed ones are dropped
  let read = 0;
  let valid = 0;
  let blank = 0;

  // Rows that passed every other check wait here for the duplicate check, in file order, so the
  // duplicate table's memory is read for a batch at once (src/import/seen-emails.ts). The batch
  // is decided before any other row is rejected, before its input chunk is let go, and when full:
  // the rejects file, the upload and the line map get every row in the order of the file, as if
  // each had been decided on its own.
  const BATCH = SeenEmails.BATCH;
  const pendingRec: string[][] = [];
  const pendingEmail: string[] = [];
  const pendingAt = new Float64Array(BATCH);
  const pendingBreaks = new Float64Array(BATCH);
  /** The row's values' UTF-8 size when none holds a `"`, comma or line break (and no column is dropped), else -1. */
  const pendingBytes = new Float64Array(BATCH);
  let pending = 0;
  const decidePending = () => {
    const n = pending;
    pending = 0;
    for (let k = 0; k < n; k++) seen.stage(k, pendingEmail[k]);
    seen.prefetch(n);
    for (let k = 0; k < n; k++) {
      const rec = pendingRec[k];
      const at = pendingAt[k];
      const firstAt = seen.firstLineStaged(k, at);
      if (firstAt) {
        reject(at, 'duplicate-email', `duplicate of line ${firstAt} (same EMAIL, case-insensitive; the first is kept)`, rec);
        continue;
      }
      valid++;
      const email = pendingEmail[k];
      if (email !== rec[0]) rec[0] = email;
      const bytes = pendingBytes[k];
      if (bytes >= 0) cleaned.writePlain(rec, bytes);
      else cleaned.writeFields(keep ? keep.map((i) => rec[i]) : rec);
      lineMap.add(uploadLine, at);
      uploadLine += 1 + pendingBreaks[k];
    }
  };

  const reject = (at: number, reason: RejectReason, detail: string, rec: string[]) => {
    if (pending) decidePending();
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    rejects.add(at, detail, rec);
  };
  const column = (i: number) => plan?.names[i] || `column ${i + 1}`;

  const onRecord = (rec: string[]) => {
    const at = line;
    // No `"` anywhere in the record: no value holds a quote, a comma or a line break (those come
    // only quoted), and the parser counted the values' size.
    const plain = !notes.quote;
    const valueBytes = notes.bytes;
    const firstBytes = notes.firstBytes;
    notes.quote = false;
    notes.bytes = 0;
    // Lines a record spans: one, plus the line breaks inside its quoted fields (CRLF, LF or a
    // lone CR, one each). csv-parse counts lines too, but a CRLF inside quotes twice; its count
    // is only used to skip the scan when the record moved it by exactly one line (then no field
    // holds a CR or LF).
    line++;
    let broken = -1; // a field with a line break that was not quoted (cannot happen with these delimiters; kept as a guard)
    let overLines: OverLines | undefined; // a quoted value over several lines that may hide a stray quote
    let uploadBreaks = 0; // LFs inside the values that go to the upload
    const pl = parser.info.lines;
    if (pl - parserLines !== 1) {
      for (let i = 0; i < rec.length; i++) {
        const n = countLineBreaks(rec[i]);
        if (!n) continue;
        if (!kept || kept.has(i)) uploadBreaks += countLf(rec[i]);
        if (!quoted.includes(i)) {
          if (broken < 0) broken = i;
        } else if (!overLines && plan) {
          overLines = strayQuoteSuspect(rec[i], i, n, line - 1); // line - 1: the line this value opens on
        }
        line += n;
      }
    }
    parserLines = pl;
    if (quoted.length !== 0) quoted.length = 0;
    let nul = -1;
    if (sawNul) for (let i = 0; i < rec.length && nul < 0; i++) if (rec[i].indexOf('\0') !== -1) nul = i;

    const first = rec[0];
    // Trimmed as the service trims it (JavaScript's whitespace, a stray byte-order mark included).
    const email = first.trim();
    if (email.length === 0 && isBlank(rec)) {
      if (plan) blank++;
      return;
    }
    if (!plan) {
      if (nul >= 0 || broken >= 0) {
        throw new UsageError(`The header line of ${o.source} has a ${nul >= 0 ? 'NUL character' : 'line break outside quotes'} in column ${(nul >= 0 ? nul : broken) + 1}; it is not a CSV header.`, 'The first line must be the header EMAIL,NAME[,custom fields…] as plain text. Save the file as "CSV UTF-8" and run again.');
      }
      plan = checkHeader(rec, o.source, o.fieldTypes);
      ncols = rec.length;
      typed = plan.typed;
      if (plan.unnamed.length) keep = plan.names.map((_, i) => i).filter((i) => !plan!.unnamed.includes(i));
      if (keep) kept = new Set(keep);
      rejects.setHeader(plan.names);
      cleaned.write(csvLine(keep ? keep.map((i) => plan!.names[i]) : plan.names));
      lineMap.add(uploadLine, at);
      uploadLine++;
      return;
    }
    read++;
    // A NUL would reach the service inside a value; a line break outside quotes means the line
    // was not split where it should have been. Either way the row is not what the file meant.
    if (nul >= 0) return reject(at, 'control-character', `${column(nul)} contains a NUL character`, rec);
    if (broken >= 0) return reject(at, 'control-character', `${column(broken)} holds a line break that is not inside double quotes`, rec);
    // Valid CSV, but the lines it swallowed were probably contacts of their own: one record, rejected.
    if (overLines) {
      const why = overLines.contact ? ` and its line ${overLines.contact.line} starts like a contact (${forTerminal(overLines.contact.email, 80)})` : ' (EMAIL and NAME cannot hold a line break)';
      return reject(at, 'multi-line-value', `${column(overLines.index)} is a quoted value that runs over ${overLines.lines} lines${why}: check for a stray quote on line ${overLines.from}`, rec);
    }
    if (rec.length !== ncols) {
      return reject(at, 'column-count', `has ${rec.length} value${rec.length === 1 ? '' : 's'}; the header has ${ncols} columns`, rec);
    }
    if (!isValidEmail(email)) {
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
    pendingRec[pending] = rec;
    pendingEmail[pending] = email;
    pendingAt[pending] = at;
    pendingBreaks[pending] = uploadBreaks;
    // The trimmed address replaces the value as read: a valid one is ASCII, a byte a character.
    pendingBytes[pending] = plain && !keep ? valueBytes - firstBytes + email.length : -1;
    if (++pending === BATCH) decidePending();
  };

  // csv-parse's parser driven directly, once per record (src/import/csv-records.ts).
  const { api: parser, quoted, notes } = csvRecords();
  // Set once a NUL byte appears in the input: only then are values searched for one.
  let sawNul = false;
  const feed = (buf: Buffer | undefined, end: boolean) => {
    if (!sawNul && buf && buf.indexOf(0) !== -1) sawNul = true;
    const err = parser.parse(buf, end, onRecord, () => {});
    if (err) throw csvError(err, o.source, line);
    if (pending) decidePending();
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
    await cleaned.drain();
    await rejects.drain();
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
    cleanedPath: o.cleanedPath,
    cleanedBytes: 0,
    lineMap,
    warnings: plan.warnings,
  };
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

/** A quoted value over several lines that is refused: where it is, and why. */
interface OverLines {
  index: number;
  /** The line its quote opens on (where a stray quote would be). */
  from: number;
  /** Lines it spans. */
  lines: number;
  /** A line inside it that starts like a contact: its line number and address. */
  contact?: { line: number; email: string };
}

/**
 * The rule for quoted values over several lines (docs/importing.md, "The local check"): EMAIL (column 1)
 * and NAME (column 2) never hold a line break — a stray quote in them turns the contacts below
 * into part of one NAME until the next quote; a custom field may, unless one of its later lines
 * starts like a contact (an address, then a comma or the line's end), the mark of lines swallowed
 * by a stray quote. `from` is the line the value opens on.
 */
function strayQuoteSuspect(value: string, index: number, breaks: number, from: number): OverLines | undefined {
  const lines = breaks + 1;
  if (index < 2) return { index, from, lines };
  const parts = value.split(/\r\n|\r|\n/);
  for (let k = 1; k < parts.length; k++) {
    const lead = parts[k].split(',', 1)[0].trim().replace(/^"+|"+$/g, '').trim();
    if (lead.includes('@') && isValidEmail(lead)) return { index, from, lines, contact: { line: from + k, email: lead } };
  }
  return undefined;
}

function isBlank(rec: string[]): boolean {
  for (let i = 0; i < rec.length; i++) if (rec[i].trim() !== '') return false;
  return true;
}

/** LFs in a value (a CRLF is one): the breaks the service counts in a line of the upload. */
function countLf(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Line breaks in a value: CRLF, LF and a lone CR count one each. */
function countLineBreaks(s: string): number {
  const cr = s.indexOf('\r');
  const lf = s.indexOf('\n');
  if (cr === -1 && lf === -1) return 0;
  let n = 0;
  for (let i = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf); i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 13) {
      n++;
      if (s.charCodeAt(i + 1) === 10) i++;
    } else if (c === 10) n++;
  }
  return n;
}

/**
 * A CSV syntax error: the whole file is refused. With quotes relaxed, the one left is a quoted
 * field never closed, which would swallow the rest of the file; `line` is where its record starts.
 */
function csvError(err: Error & { code?: string; lines?: number }, source: string, line: number): UsageError {
  if (err instanceof UsageError) return err;
  const what = err.code === 'CSV_QUOTE_NOT_CLOSED'
    ? `the quoted field in the record that starts on line ${line} is never closed, so it would swallow the rest of the file`
    : `near line ${line}: ${forTerminal(err.message.replace(/\s+/g, ' '), 200)}`;
  return new UsageError(
    `${source} is not valid CSV: ${what}. Nothing was uploaded.`,
    'A field that holds a comma, a double quote or a line break must be enclosed in double quotes, with each double quote inside it doubled (""). Fix the file and run again.',
  );
}
