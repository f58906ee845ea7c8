// Which text encoding a contacts file is in, decided before any row is read, and the byte
// stream turned into UTF-8 for the parser. Spreadsheet exports in Taiwan are often Big5 or
// UTF-16; read as UTF-8 they would import as mojibake, so a file is either proven readable or
// refused with the flag that fixes it.
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { UsageError } from '../core/errors.js';

export type EncodingName = 'utf8' | 'big5' | 'utf16le' | 'utf16be';

const ALIASES: Record<string, EncodingName> = {
  utf8: 'utf8', 'utf-8': 'utf8',
  big5: 'big5', 'big-5': 'big5', cp950: 'big5',
  utf16le: 'utf16le', 'utf-16le': 'utf16le', utf16: 'utf16le', 'utf-16': 'utf16le',
  utf16be: 'utf16be', 'utf-16be': 'utf16be',
};

const LABEL: Record<EncodingName, string> = { utf8: 'utf-8', big5: 'big5', utf16le: 'utf-16le', utf16be: 'utf-16be' };

export function parseEncoding(v: string): EncodingName {
  const e = ALIASES[v.trim().toLowerCase()];
  if (!e) throw new UsageError(`--encoding "${v}" is not one this command reads.`, 'Use --encoding utf8, big5 or utf16le.');
  return e;
}

/** The encoding a byte-order mark announces, if any. */
export function bomEncoding(head: Uint8Array): EncodingName | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return undefined;
}

/**
 * Decides the encoding from the first bytes when the user did not name one: a byte-order mark
 * wins; otherwise UTF-8 is assumed, and text that is plainly UTF-16 without a mark is refused.
 * (Invalid UTF-8 later in the file is caught while reading: see Utf8Check.)
 */
export function sniffEncoding(head: Uint8Array, source: string): EncodingName {
  const bom = bomEncoding(head);
  if (bom) return bom;
  // ASCII text in UTF-16 has a zero byte in every other position.
  let zeros = 0;
  const n = Math.min(head.length, 4096);
  for (let i = 0; i < n; i++) if (head[i] === 0) zeros++;
  if (n >= 8 && zeros * 4 > n) {
    const le = head[1] === 0 && head[0] !== 0;
    throw new UsageError(
      `${source} looks like UTF-16 text without a byte-order mark, not UTF-8.`,
      `Run again with --encoding ${le ? 'utf16le' : 'utf16be'}, or save the file as "CSV UTF-8" in your spreadsheet program.`,
    );
  }
  return 'utf8';
}

/**
 * Checks that a byte stream is valid UTF-8, chunk by chunk, without copying chunks: a character
 * split across two chunks is checked once its last bytes arrive. A failure names the file offset
 * (0-based) of the first byte that is not part of a valid character — the same wherever the chunks
 * happen to be cut. Node's isUtf8 answers only yes or no, so the place is found by firstInvalid,
 * which runs only once a check has failed.
 */
export class Utf8Check {
  /** The start of a character the last chunk ended inside (a valid lead byte and what followed). */
  private carry: Buffer | undefined;
  /** Bytes pushed so far: the file offset of the next chunk's first byte. */
  private offset = 0;

  constructor(private readonly source: string) {}

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
      if (!isUtf8(joined)) this.fail(chunk.subarray(0, 4096), this.offset - carried);
      start = need;
      this.carry = undefined;
    }
    const end = completeEnd(chunk, start);
    const whole = chunk.subarray(start, end);
    if (!isUtf8(whole)) this.fail(chunk, this.offset + start + Math.max(0, firstInvalid(whole)));
    if (end < chunk.length) this.carry = Buffer.from(chunk.subarray(end));
    this.offset += chunk.length;
  }

  end(): void {
    // The file ends inside a character: its lead byte is the first bad one.
    if (this.carry) this.fail(this.carry, this.offset - this.carry.length);
  }

  private fail(sample: Buffer, at: number): never {
    throw notUtf8(this.source, sample, at);
  }
}

/**
 * The index of the first byte of `buf` that is not part of a valid UTF-8 character (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF, no character cut off at the end), or -1.
 */
export function firstInvalid(buf: Uint8Array): number {
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

/** The sentence for a file that is not UTF-8, naming where and the encoding it probably is. */
export function notUtf8(source: string, sample: Uint8Array, at: number): UsageError {
  const where = `the first invalid byte is at offset ${at}, counting from 0`;
  if (decodes(sample, 'big5')) {
    return new UsageError(
      `${source} is not UTF-8 (${where}); it reads as Big5 (Traditional Chinese), as Excel saves it on Taiwanese systems.`,
      'Run again with --encoding big5 to convert it, or save the file as "CSV UTF-8" in your spreadsheet program.',
    );
  }
  return new UsageError(
    `${source} is not valid UTF-8 (${where}), so its text cannot be read reliably.`,
    'Save the file as "CSV UTF-8", or name its encoding with --encoding utf8|big5|utf16le.',
  );
}

function decodes(sample: Uint8Array, label: string): boolean {
  try {
    // Stream mode: a character cut at the end of the sample is not an error.
    new TextDecoder(label, { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * A streaming decoder to UTF-8 bytes for the parser. UTF-8 passes through untouched (checked by
 * Utf8Check); other encodings are decoded strictly, so a byte that is not valid in the named
 * encoding stops the import instead of becoming a replacement character.
 */
export class Decoder {
  private readonly td?: TextDecoder;
  private readonly check?: Utf8Check;
  private offset = 0;

  constructor(readonly encoding: EncodingName, private readonly source: string) {
    if (encoding === 'utf8') this.check = new Utf8Check(source);
    else this.td = new TextDecoder(LABEL[encoding], { fatal: true });
  }

  push(chunk: Buffer): Buffer {
    if (this.check) {
      this.check.push(chunk);
      return chunk;
    }
    try {
      const text = this.td!.decode(chunk, { stream: true });
      this.offset += chunk.length;
      return Buffer.from(text, 'utf8');
    } catch {
      throw this.bad();
    }
  }

  end(): Buffer | undefined {
    if (this.check) {
      this.check.end();
      return undefined;
    }
    try {
      const text = this.td!.decode();
      return text ? Buffer.from(text, 'utf8') : undefined;
    } catch {
      throw this.bad();
    }
  }

  private bad(): UsageError {
    return new UsageError(
      `${this.source} is not valid ${this.encoding === 'big5' ? 'Big5' : this.encoding.toUpperCase().replace('UTF16', 'UTF-16')} (invalid bytes after byte ${this.offset}).`,
      'Name the encoding the file was saved in with --encoding utf8|big5|utf16le, or save it as "CSV UTF-8".',
    );
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
