// The one way a user's bytes become text: strict UTF-8. Node's own decoders (toString('utf8'),
// readFileSync(f, 'utf8'), TextDecoder without `fatal`) replace a byte that is not UTF-8 with
// U+FFFD and go on, so a name in a recipients file or a line of html would be sent changed and
// nobody told. Here such input is refused instead, naming where the first bad byte is (its
// offset from the start of the file, counting from 0: what Python's decode error calls `start`).
// The import (src/import/encoding.ts) reads other encodings too and checks its stream with the
// same Utf8Check; every other reader of a file, standard input or the config file comes here.
import { isUtf8 } from 'node:buffer';
import { UsageError } from './errors.js';

/**
 * The index of the first byte of `buf` that is not part of a valid UTF-8 character (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF, no character cut off at the end), or -1.
 */
export function firstInvalidUtf8(buf: Uint8Array): number {
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length the lead byte announces, and the range its second byte must fall in.
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0; // overlong below U+0800
      if (b === 0xed) hi = 0x9f; // UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90; // overlong below U+10000
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i; // a continuation byte with no lead, C0/C1 (overlong), F5–FF
    if (i + len > n) return i;
    if (buf[i + 1] < lo || buf[i + 1] > hi) return i;
    for (let k = 2; k < len; k++) if ((buf[i + k] & 0xc0) !== 0x80) return i;
    i += len;
  }
  return -1;
}

/** Where a text came from, for the sentence that refuses it. */
export interface TextOrigin {
  /** The file's role and path ("the recipients file r.csv"), or "standard input". */
  name: string;
  /** The flag (or argument) that gave it, when there is one: "--recipients-file". */
  flag?: string;
  /** How to fix it, when the reader knows better than "save it as UTF-8". */
  fix?: string;
}

/** The origin of a file given by a flag, "-" meaning standard input; `csv` for a fix that names spreadsheets. */
export function fileOrigin(file: string, what: string, flag?: string, csv = false): TextOrigin {
  if (file === '-') return { name: 'standard input', flag: flag && `${flag} -`, fix: FROM_STDIN };
  return { name: `the ${what} ${file}`, flag, fix: csv ? SAVE_CSV_AS_UTF8 : SAVE_AS_UTF8 };
}

/** The sentence for text that is not UTF-8: what, given how, and the offset of its first bad byte. */
export function notUtf8Sentence(o: TextOrigin, at: number, nothingSent = true): string {
  const name = o.name.charAt(0).toUpperCase() + o.name.slice(1);
  return `${name}${o.flag ? ` (${o.flag})` : ''} is not valid UTF-8 (the first invalid byte is at offset ${at}, counting from 0), so its text cannot be read reliably${nothingSent ? '; nothing was sent' : ''}.`;
}

export const SAVE_AS_UTF8 = 'Save the file as UTF-8 in the program that wrote it, then run the command again.';
export const SAVE_CSV_AS_UTF8 = 'Save the file as UTF-8 (a spreadsheet program\'s "CSV UTF-8"), then run the command again.';
export const FROM_STDIN = 'Give standard input as UTF-8 text (`iconv -f ITS-ENCODING -t UTF-8` converts it), then run the command again.';

/** The usage error (exit 2) for text that is not UTF-8. */
export function notUtf8Error(o: TextOrigin, at: number): UsageError {
  return new UsageError(notUtf8Sentence(o, at), o.fix ?? SAVE_AS_UTF8);
}

/** The offset of the first byte that is not UTF-8, or -1; a UTF-8 byte-order mark counts as text. */
export function invalidUtf8At(buf: Uint8Array): number {
  return isUtf8(buf) ? -1 : Math.max(0, firstInvalidUtf8(buf));
}

/**
 * The bytes as text, or a UsageError naming `origin` and the first bad byte's offset. A leading
 * UTF-8 byte-order mark (as Windows editors and "CSV UTF-8" exports write) is dropped.
 */
export function decodeUtf8(buf: Uint8Array, origin: TextOrigin, make: (o: TextOrigin, at: number) => Error = notUtf8Error): string {
  const at = invalidUtf8At(buf);
  if (at >= 0) throw make(origin, at);
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  return b.toString('utf8', bom);
}

/**
 * Checks that a byte stream is valid UTF-8, chunk by chunk, without copying chunks: a character
 * split across two chunks is checked once its last bytes arrive. A failure names the stream
 * offset (0-based) of the first byte that is not part of a valid character — the same wherever
 * the chunks happen to be cut. Node's isUtf8 answers only yes or no, so the place is found by
 * firstInvalidUtf8, which runs only once a check has failed. `fail` builds the error, given a
 * sample of the bytes around the failure (for guessing the encoding) and the offset.
 */
export class Utf8Check {
  /** The start of a character the last chunk ended inside (a valid lead byte and what followed). */
  private carry: Buffer | undefined;
  /** Bytes pushed so far: the offset of the next chunk's first byte. */
  private offset = 0;

  constructor(private readonly fail: (sample: Buffer, at: number) => Error) {}

  push(chunk: Buffer): void {
    let start = 0;
    if (this.carry) {
      // Complete the character that the previous chunk ended in the middle of.
      const carried = this.carry.length;
      const need = seqLength(this.carry[0]) - carried;
      const joined = Buffer.concat([this.carry, chunk.subarray(0, need)]);
      if (joined.length < seqLength(joined[0])) {
        this.carry = joined;
        this.offset += chunk.length;
        return;
      }
      // One character's bytes: if they are not one, its lead byte is the first that is not part of a character.
      if (!isUtf8(joined)) throw this.fail(chunk.subarray(0, 4096), this.offset - carried);
      start = need;
      this.carry = undefined;
    }
    const end = completeEnd(chunk, start);
    const whole = chunk.subarray(start, end);
    if (!isUtf8(whole)) throw this.fail(chunk, this.offset + start + Math.max(0, firstInvalidUtf8(whole)));
    if (end < chunk.length) this.carry = Buffer.from(chunk.subarray(end));
    this.offset += chunk.length;
  }

  end(): void {
    // The stream ends inside a character: its lead byte is the first bad one.
    if (this.carry) throw this.fail(this.carry, this.offset - this.carry.length);
  }
}

/** Length of the UTF-8 sequence a lead byte starts (1 for continuation/invalid bytes). */
function seqLength(b: number): number {
  if (b >= 0xf0 && b <= 0xf4) return 4;
  if (b >= 0xe0) return b <= 0xef ? 3 : 1;
  if (b >= 0xc2) return 2;
  return 1;
}

/** Where the last complete character of `chunk` ends (a cut multi-byte character is left out). */
function completeEnd(chunk: Buffer, start: number): number {
  const len = chunk.length;
  for (let back = 1; back <= 3 && len - back >= start; back++) {
    const b = chunk[len - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    if (b >= 0xc2 && seqLength(b) > back) return len - back;
    return len;
  }
  return len;
}
