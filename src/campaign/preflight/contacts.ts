// One contact of a contacts file, read the way `mailctl import` reads the file: the encoding
// sniffed or converted (src/import/encoding.ts), csv-parse with the same options, the header
// checked by the import's own stage 1 (src/import/header.ts). One flag names the file in every
// command (docs/flags.md): `campaign preflight --contacts FILE` (the header only), and `campaign
// proof|preview --contacts FILE [--contact EMAIL|LINE]` (header + one contact: the first with
// that address, the one starting on that line, else the first).
// The file is streamed and reading stops at the line wanted, so a million-row file costs nothing.
import fs from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { UsageError } from '../../core/errors.js';
import { fileProblem } from '../../core/file-problem.js';
import { Decoder, sniffEncoding } from '../../import/encoding.js';
import { checkHeader } from '../../import/header.js';
import { RESERVED_COLUMNS } from '../../spec/reserved-columns.js';

export interface ContactRow {
  /** Column names as written (trimmed). */
  header: string[];
  /** Custom field columns: not EMAIL or NAME, not reserved, not unnamed. */
  customFields: string[];
  /** The contact's values by column name (only when a contact was asked for). */
  values?: Record<string, string>;
  /** The line the contact starts on. */
  line?: number;
}

/**
 * `--contact`: a line of the file when it is a number (no address is), else an address. Refused
 * without `--contacts`, before any file is read.
 */
export function contactChoice(contact: string | undefined, contacts: string | undefined): { line?: number; email?: string } {
  if (contact === undefined) return {};
  if (contacts === undefined) throw new UsageError('--contact picks a contact of a contacts file, and no --contacts FILE was given.', 'Add --contacts contacts.csv, or leave --contact out.');
  const v = contact.trim();
  if (/^\d+$/.test(v)) return { line: Number(v) };
  if (!v) throw new UsageError('--contact is empty.', 'Give the address of a contact in the file, or the line it starts on: --contact ann@example.com, --contact 2.');
  return { email: v };
}

/**
 * The header of `file` and, when `want` is 'contact', the contact starting on `line` (the first
 * contact when no line is given), or the first whose EMAIL is `email` (letter case aside, as the
 * import compares addresses). Line numbers are the file's own, as in the import's rejects file:
 * the header is line 1.
 */
export async function readContact(file: string, want: 'header' | 'contact', o: { line?: number; email?: string } = {}): Promise<ContactRow> {
  const { line, email } = o;
  const flag = '--contacts';
  const source = `the contacts file ${file} (${flag})`;
  // Read from the start once for the header and again for a contact: a pipe can be read once.
  if (file === '-') throw new UsageError(`${flag} takes a file; standard input ("-") is not read here.`, 'Save the contacts to a file and give its path, e.g. --contacts contacts.csv.');
  let fd: fs.promises.FileHandle;
  try {
    fd = await fs.promises.open(file, 'r');
    if ((await fd.stat()).isDirectory()) {
      await fd.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
  } catch (e) {
    throw new UsageError(fileProblem(e, file, 'contacts file', flag));
  }
  if (line !== undefined && line < 2) {
    await fd.close();
    throw new UsageError(`Line ${line} of ${file} is the header, not a contact (--contact ${line}).`, "Name a contact's line, 2 or later: --contact 2");
  }
  const input = fd.createReadStream({ highWaterMark: 1 << 16 });
  // pipeline, not pipe: an encoding error in the source must reach the loop below.
  const parser = pipeline(Readable.from(decoded(input, source)), parse({ relax_column_count: true, relax_quotes: true, bom: true, skip_empty_lines: false }), () => {});
  let header: string[] | undefined;
  let at = 1;
  try {
    for await (const rec of parser as AsyncIterable<string[]>) {
      const start = at;
      at += 1 + rec.reduce((n, v) => n + (v.match(/\n/g)?.length ?? 0), 0);
      const blank = rec.every((v) => v.trim() === '');
      if (!header) {
        if (blank) continue;
        checkHeader(rec, source);
        header = rec.map((n) => n.trim());
        if (want === 'header') break;
        continue;
      }
      if (email !== undefined) {
        // EMAIL is the first column (the header check requires it there).
        if (blank || (rec[0] ?? '').trim().toLowerCase() !== email.trim().toLowerCase()) continue;
        return { header, customFields: customOf(header), values: valuesOf(header, rec), line: start };
      }
      if (line === undefined ? blank : start < line) continue;
      if (start > line!) break;
      if (blank) throw new UsageError(`Line ${line} of ${file} is empty (--contact ${line}).`, 'Name a line that holds a contact, e.g. --contact 2');
      return { header, customFields: customOf(header), values: valuesOf(header, rec), line: start };
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const err = e as Error & { code?: string };
    throw new UsageError(`${cap(source)} is not valid CSV: ${err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is never closed' : err.message}.`,
      'A field with a comma, a double quote or a line break must be in double quotes, each quote inside doubled ("").');
  } finally {
    parser.destroy();
    input.destroy();
    await fd.close().catch(() => {});
  }
  if (!header) throw new UsageError(`${cap(source)} is empty: there is no header line.`, 'The first line must be the header EMAIL,NAME[,custom fields…].');
  if (want === 'header') return { header, customFields: customOf(header) };
  if (email !== undefined) throw new UsageError(`${cap(source)} has no contact with the address ${email}.`, 'Give an address the file holds, or leave the address out to use the first contact.');
  throw new UsageError(
    line === undefined ? `${cap(source)} has a header but no contacts.` : `${cap(source)} has no contact starting on line ${line} (the file has ${at - 1} lines).`,
    line === undefined ? 'Add a contact under the header, or give a file that holds one.' : 'Name a line that holds a contact, e.g. --contact 2',
  );
}

/** The bytes of the file as UTF-8, converted from the encoding it is in (as the import does). */
async function* decoded(input: AsyncIterable<Buffer>, source: string): AsyncGenerator<Buffer> {
  let decoder: Decoder | undefined;
  const head: Buffer[] = [];
  let headBytes = 0;
  for await (const chunk of input) {
    if (!decoder) {
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < 4096) continue;
      const h = Buffer.concat(head);
      decoder = new Decoder(sniffEncoding(h, source), source);
      yield decoder.push(h);
    } else yield decoder.push(chunk);
  }
  if (!decoder) {
    const h = Buffer.concat(head);
    decoder = new Decoder(sniffEncoding(h, source), source);
    yield decoder.push(h);
  }
  const tail = decoder.end();
  if (tail) yield tail;
}

function customOf(header: string[]): string[] {
  return header.slice(2).filter((n) => n && !RESERVED_COLUMNS.has(n.toUpperCase()));
}

function valuesOf(header: string[], rec: string[]): Record<string, string> {
  // No prototype: a column named constructor or __proto__ is a column like any other.
  const out: Record<string, string> = Object.create(null);
  header.forEach((n, i) => {
    if (n && !(n in out)) out[n] = rec[i] ?? '';
  });
  return out;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
