// Which text encoding a contacts file is in, decided before any row is read, and the byte
// stream turned into UTF-8 for the parser. Spreadsheet exports in Taiwan are often Big5 or
// UTF-16; read as UTF-8 they would import as mojibake, so a file is either proven readable or
// refused with the flag that fixes it.
import { TextDecoder } from 'node:util';
import { UsageError } from '../core/errors.js';
import { Utf8Check as CoreUtf8Check } from '../core/utf8.js';

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
 * Checks a contacts file's bytes as UTF-8 while they stream in (src/core/utf8.ts), failing with
 * the import's sentence, which also guesses Big5 and names the --encoding that reads it.
 */
export class Utf8Check extends CoreUtf8Check {
  constructor(source: string) {
    super((sample, at) => notUtf8(source, sample, at));
  }
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
