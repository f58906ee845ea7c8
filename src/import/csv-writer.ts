// Writing CSV to disk from the validation loop: fields quoted only when they must be (RFC 4180),
// lines gathered into large writes, and the loop paused while the disk catches up, so memory
// stays flat however large the file.
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { asDiskError } from '../fs/append-whole.js';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvField(s: string): string {
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: readonly string[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i ? ',' : '') + csvField(fields[i]);
  return out + '\n';
}

/**
 * The UTF-8 size of csvLine(fields), without building it: what a dry run counts for every valid
 * row. Building a million lines only to measure them was a twentieth of a 1M-row dry run (the
 * strings, a regular expression per field, a byte count per line, the garbage; issue 24.7).
 * test/import-csv-writer.test.ts holds it equal to Buffer.byteLength(csvLine(fields)).
 */
export function csvLineBytes(fields: readonly string[]): number {
  let n = fields.length; // the commas between the fields, and the newline
  for (let i = 0; i < fields.length; i++) n += csvFieldBytes(fields[i]);
  return n;
}

/**
 * csvLineBytes(fields) for values that hold no `"`, comma, CR or LF and take `bytes` in UTF-8 all
 * together (as the parser read them): then only a value with white space at either end is
 * quoted, and no value needs a scan.
 */
export function plainLineBytes(fields: readonly string[], bytes: number): number {
  let n = bytes + fields.length;
  for (let i = 0; i < fields.length; i++) {
    const s = fields[i];
    if (s.length !== 0 && (isSpace(s.charCodeAt(0)) || isSpace(s.charCodeAt(s.length - 1)))) n += 2;
  }
  return n;
}

/** csvLine(fields) for values that hold no `"`, comma, CR or LF: only one with white space at either end is quoted, and nothing is escaped. */
export function plainLine(fields: readonly string[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    const s = fields[i];
    const quote = s.length !== 0 && (isSpace(s.charCodeAt(0)) || isSpace(s.charCodeAt(s.length - 1)));
    out += (i ? ',' : '') + (quote ? `"${s}"` : s);
  }
  return out + '\n';
}

/** The UTF-8 size of csvField(s): one char scan for the size, the quotes and the characters that need them. */
function csvFieldBytes(s: string): number {
  const len = s.length;
  if (len === 0) return 0;
  let bytes = len; // one byte per UTF-16 unit, more added below for what is not ASCII
  let quoted = false;
  let quotes = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x22) {
        quotes++;
        quoted = true;
      } else if (c === 0x2c || c === 0x0d || c === 0x0a) quoted = true;
    } else if (c < 0x800) bytes += 1;
    else {
      // Three bytes, a lone surrogate included (written as U+FFFD); a surrogate pair is four for its two units.
      bytes += 2;
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < len) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) i++;
      }
    }
  }
  if (!quoted) quoted = isSpace(s.charCodeAt(0)) || isSpace(s.charCodeAt(len - 1));
  return quoted ? bytes + quotes + 2 : bytes;
}

/** What \s matches in one UTF-16 unit (NEEDS_QUOTES' ^\s and \s$): JavaScript's white space and line terminators. */
function isSpace(c: number): boolean {
  if (c > 0x20 && c < 0x7f) return false;
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const CHUNK = 1 << 20;

export class CsvFile {
  private readonly stream: fs.WriteStream;
  // Rows are encoded straight into a buffer, and the buffers are reused once the disk has them:
  // building long strings, or a fresh megabyte per write, left 70 MiB of garbage waiting for the
  // collector on a 500 MB file.
  private chunk: Buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private full: Buffer[] = [];
  private readonly spare: Buffer[] = [];
  private failed?: Error;
  bytes = 0;
  lines = 0;

  /**
   * Writes to `handle` when given (a file created exclusively, to be renamed into place: its
   * data reaches the disk before close() returns, so it is whole under its final name even
   * after a crash), else creates `path`, which must not exist yet (a private working file).
   * A disk that refuses the data is a DiskError naming `shownAs` (a temporary file's target).
   */
  constructor(readonly path: string, handle?: FileHandle, private readonly shownAs = path) {
    this.stream = handle ? fs.createWriteStream('', { fd: handle, flush: true }) : fs.createWriteStream(path, { flags: 'wx', mode: 0o600 });
    this.stream.on('error', (e) => (this.failed = e));
  }

  /** Appends csvLine(fields). */
  writeFields(fields: readonly string[]): void {
    this.write(csvLine(fields));
  }

  /** Appends csvLine(fields) for values that hold no `"`, comma, CR or LF (plainLine: no regular expression per value). */
  writePlain(fields: readonly string[], _bytes: number): void {
    this.write(plainLine(fields));
  }

  /** Appends one row (already CSV, ending in a newline). */
  write(line: string): void {
    this.lines++;
    // 3 bytes per UTF-16 unit is the most UTF-8 can need.
    if (this.used + line.length * 3 > CHUNK) {
      this.rotate();
      if (line.length * 3 > CHUNK) {
        const big = Buffer.from(line, 'utf8');
        this.full.push(big);
        this.bytes += big.length;
        return;
      }
    }
    const n = this.chunk.write(line, this.used, 'utf8');
    this.used += n;
    this.bytes += n;
  }

  private rotate(): void {
    if (!this.used) return;
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK);
    this.used = 0;
  }

  /** Call between input chunks: hands full buffers to the disk, waiting if it is behind. */
  async drain(force = false): Promise<void> {
    try {
      await this.flush(force);
    } catch (e) {
      throw asDiskError(e, this.shownAs);
    }
  }

  private async flush(force: boolean): Promise<void> {
    if (this.failed) throw this.failed;
    if (force) this.rotate();
    const ready = this.full;
    this.full = [];
    for (const b of ready) {
      // Back to the spare list once written (a whole-chunk view; oversized rows are not kept).
      const done = b.buffer.byteLength === CHUNK ? () => this.spare.push(Buffer.from(b.buffer, b.byteOffset, CHUNK)) : undefined;
      // events.once rejects when the stream emits 'error' instead.
      if (!this.stream.write(b, done)) await once(this.stream, 'drain');
    }
    if (this.failed) throw this.failed;
  }

  async close(): Promise<void> {
    await this.drain(true);
    try {
      await new Promise<void>((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
      if (this.failed) throw this.failed;
    } catch (e) {
      throw asDiskError(e, this.shownAs);
    }
  }

  /** Stops writing and removes the file (a refused import leaves nothing half-written behind). */
  async discard(): Promise<void> {
    this.full = [];
    this.used = 0;
    await new Promise<void>((r) => this.stream.end(() => r()));
    await fs.promises.rm(this.path, { force: true });
  }
}

/**
 * Where a dry run's valid rows go: nowhere. Only their size is kept, so the dry run can show the
 * upload a real run would send (its Content-Length, and whether it fits the text import).
 */
export class CsvCount {
  bytes = 0;
  lines = 0;

  write(line: string): void {
    this.lines++;
    this.bytes += Buffer.byteLength(line, 'utf8');
  }

  /** Counts csvLine(fields). */
  writeFields(fields: readonly string[]): void {
    this.lines++;
    this.bytes += csvLineBytes(fields);
  }

  /** Counts csvLine(fields) for fields plainLineBytes takes: no `"`, comma, CR or LF, `bytes` in UTF-8. */
  writePlain(fields: readonly string[], bytes: number): void {
    this.lines++;
    this.bytes += plainLineBytes(fields, bytes);
  }

  async drain(): Promise<void> {}
  async close(): Promise<void> {}
  async discard(): Promise<void> {}
}
