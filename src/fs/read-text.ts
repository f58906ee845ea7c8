// A user's file read as text: the bytes through the one strict decoder (src/core/utf8.ts), so a
// byte that is not UTF-8 is a usage error naming the file, the flag and the byte's offset, never
// a U+FFFD sent on in its place. A file that cannot be read is the one sentence of fileProblem.
import fs from 'node:fs';
import { UsageError } from '../core/errors.js';
import { fileProblem } from '../core/file-problem.js';
import { decodeUtf8, fileOrigin } from '../core/utf8.js';

/** The text of `file` (its role `what`, given with `flag`; `csv`: a fix that names spreadsheets), a UTF-8 byte-order mark dropped. */
export function readTextFile(file: string, what: string, flag?: string, csv = false): string {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(fileProblem(e, file, what, flag));
  }
  return decodeUtf8(buf, fileOrigin(file, what, flag, csv));
}
