// The rejects file: every row that will not be uploaded, with its line number in the input and
// the reason, so nothing read is lost. Columns: LINE, REASON, then the row's own columns under
// the input's header. LINE and REASON come first so a row with the wrong number of columns
// cannot push them out of place.
import path from 'node:path';
import { CsvFile, csvLine } from './csv-writer.js';

export type RejectReason = 'invalid-email' | 'duplicate-email' | 'name-too-long' | 'field-type' | 'column-count';

export const REASON_LABEL: Record<RejectReason, string> = {
  'invalid-email': 'invalid email',
  'duplicate-email': 'duplicate email',
  'name-too-long': 'NAME too long',
  'field-type': 'custom field of the wrong type',
  'column-count': 'wrong number of columns',
};

/** `contacts.csv` → `contacts.rejects.csv` in the same folder; stdin → in the current folder. */
export function defaultRejectsPath(input: string): string {
  if (input === '-') return path.resolve('stdin.rejects.csv');
  const dir = path.dirname(path.resolve(input));
  const base = path.basename(input).replace(/\.(csv|txt|tsv)$/i, '');
  return path.join(dir, `${base}.rejects.csv`);
}

/** Created on the first rejected row; a clean file leaves no rejects file behind. */
export class RejectsFile {
  private file?: CsvFile;
  count = 0;

  constructor(readonly path: string, private readonly header: readonly string[]) {}

  add(line: number, reason: string, fields: readonly string[]): void {
    if (!this.file) {
      this.file = new CsvFile(this.path);
      this.file.write(csvLine(['LINE', 'REASON', ...this.header]));
    }
    this.count++;
    this.file.write(csvLine([String(line), reason, ...fields]));
  }

  get written(): boolean {
    return !!this.file;
  }

  drain(): Promise<void> {
    return this.file ? this.file.drain() : Promise.resolve();
  }

  async close(): Promise<void> {
    await this.file?.close();
  }

  async discard(): Promise<void> {
    await this.file?.discard();
  }
}
