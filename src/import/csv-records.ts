// csv-parse's parser, driven directly by the import's check (src/import/validate.ts), with the
// helpers it calls for every byte of the file specialised to the one dialect the import reads.
//
// csv-parse's stream wrapper re-queues every record as an object-mode chunk; driving its parser
// directly calls the check once per record with nothing in between. Its per-byte helpers are
// written for any quote, escape, delimiter and record delimiter of any length, so each reads its
// options and loops over byte sequences; for a 1M-row file that was a third of the time of the
// whole check (issue 24.7). Here every one of them is replaced by the same answer for the bytes
// this dialect has — `"` as quote and escape, `,` as delimiter, CRLF, LF and a lone CR as record
// delimiters — checked against the parser's own normalised options and state when it is made,
// so a csv-parse that changed (or options that changed) fails loudly at once instead of
// parsing differently. test/import-csv-records.test.ts compares the records with csv-parse's own.
//
// The parser is fed UTF-8 only (src/import/encoding.ts converts or checks every input first), so
// its one byte-order-mark switch — to UTF-16LE on FF FE, bytes that never occur in UTF-8 — cannot
// happen and the encoding the helpers assume stays utf8.
import { Parser } from 'csv-parse';

// Every kind of line end is a record delimiter, CRLF first so it is one break, not two. Given
// none, csv-parse takes the first line end it meets as the only one, and a file mixing CRLF and
// LF lost rows into its neighbours' values (issue 9).
const RECORD_DELIMITERS = ['\r\n', '\n', '\r'];

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 13;
const LF = 10;

/** What the parser noted of the record it is reading: read, and reset, by the caller at each record. */
export interface RecordNotes {
  /** UTF-8 size of all its values together, as parsed (quotes and escapes taken out). */
  bytes: number;
  /** UTF-8 size of its first value. */
  firstBytes: number;
  /** A `"` appeared in it: quoting a value, escaped inside one, or inside an unquoted value. */
  quote: boolean;
}

export interface CsvApi {
  info: { lines: number };
  options: Record<string, unknown>;
  state: CsvState;
  parse(buf: Buffer | undefined, end: boolean, push: (rec: string[]) => void, close: () => void): Error | undefined;
}

interface CsvState {
  wasQuoting: boolean;
  quoting: boolean;
  enabled: boolean;
  record: string[];
  field: { buf: Buffer; length: number };
  recordDelimiterMaxLength: number;
  needMoreDataSize: number;
  escapeIsQuote: boolean;
}

/** The helpers replaced below, as csv-parse declares them (checked to exist before replacing). */
interface CsvInternals extends CsvApi {
  __needMoreData(i: number, bufLen: number, end: boolean): boolean;
  __isQuote(buf: Buffer, pos: number): boolean;
  __isEscape(buf: Buffer, pos: number, chr: number): boolean;
  __isDelimiter(buf: Buffer, pos: number, chr: number): number;
  __isRecordDelimiter(chr: number, buf: Buffer, pos: number): number;
  __onField(): Error | undefined;
}

const HELPERS = ['__needMoreData', '__isQuote', '__isEscape', '__isDelimiter', '__isRecordDelimiter', '__onField', 'parse'] as const;

const isByte = (b: unknown, byte: number) => Buffer.isBuffer(b) && b.length === 1 && b[0] === byte;

/**
 * A parser for the import's dialect, the indexes of the current record's fields that were
 * quoted in the source (csv-parse does not report it otherwise without building an object per
 * field), and notes on the record's size and quotes, which let a dry run count the upload's size
 * without a scan of every value (src/import/csv-writer.ts, plainLineBytes). The caller empties
 * `quoted` and resets `notes` after each record.
 */
export function csvRecords(): { api: CsvApi; quoted: number[]; notes: RecordNotes } {
  const api = (new Parser({ relax_column_count: true, relax_quotes: true, bom: true, skip_empty_lines: false, record_delimiter: RECORD_DELIMITERS }) as unknown as { api?: CsvInternals }).api;
  const o = api?.options;
  const st = api?.state;
  const delimiter = o?.delimiter as unknown[] | undefined;
  const fits = !!api && !!o && !!st
    && HELPERS.every((h) => typeof api[h] === 'function')
    && o.encoding === 'utf8' && isByte(o.quote, QUOTE) && isByte(o.escape, QUOTE) && st.escapeIsQuote === true
    && Array.isArray(delimiter) && delimiter.length === 1 && isByte(delimiter[0], COMMA)
    && st.recordDelimiterMaxLength === 2 && typeof st.needMoreDataSize === 'number'
    && o.ignore_last_delimiters === false && o.cast === undefined && o.rtrim === false && o.max_record_size === 0
    && o.from_line === 1 && st.enabled === true && typeof st.wasQuoting === 'boolean'
    && typeof st.field?.length === 'number' && Buffer.isBuffer(st.field.buf) && Array.isArray(st.record);
  if (!fits) throw new Error('csv-parse changed: its parser is not what src/import/csv-records.ts expects');

  // "More bytes needed before this one can be judged": csv-parse's answer is the longest of the
  // sequences that may start here (quote, delimiter, a multi-byte space, a record delimiter; in
  // quotes an escaped quote or a closing quote and its CRLF). For this dialect that is a fixed
  // length outside quotes and another inside. It is why a CR at the end of a chunk is held back
  // until the next chunk shows whether an LF follows.
  const outside = Math.max(st.needMoreDataSize, st.recordDelimiterMaxLength);
  const inside = Math.max(outside, 2, 1 + st.recordDelimiterMaxLength);
  api.__needMoreData = function (i, bufLen, end) {
    return !end && bufLen - i - 1 < (this.state.quoting ? inside : outside);
  };
  const notes: RecordNotes = { bytes: 0, firstBytes: 0, quote: false };
  // A record with a `"` in it passes one here: every `"` is tested here, but the second of an
  // escaped pair, which is tested here as the first one's lookahead.
  api.__isQuote = (buf, pos) => buf[pos] === QUOTE && (notes.quote = true);
  api.__isEscape = (buf, pos, chr) => chr === QUOTE && buf[pos] === QUOTE;
  api.__isDelimiter = (_buf, _pos, chr) => (chr === COMMA ? 1 : 0);
  // Lookahead is safe: __needMoreData keeps the last bytes of a chunk back, so a CR and its LF
  // are seen together.
  api.__isRecordDelimiter = (chr, buf, pos) => (chr === LF ? 1 : chr === CR ? (buf[pos + 1] === LF ? 2 : 1) : 0);

  const quoted: number[] = [];
  // csv-parse's __onField for these options (no cast, no rtrim, no size limit, from the first
  // line): the field's bytes as a string onto the record, then the field emptied. It also notes
  // whether the field was quoted, which csv-parse forgets as the field ends.
  api.__onField = function () {
    const s = this.state;
    if (s.wasQuoting) {
      quoted.push(s.record.length);
      s.wasQuoting = false;
    }
    const f = s.field;
    if (s.record.length === 0) notes.firstBytes = f.length;
    notes.bytes += f.length;
    s.record.push(f.buf.toString('utf8', 0, f.length));
    f.length = 0;
    return undefined;
  };
  return { api, quoted, notes };
}
