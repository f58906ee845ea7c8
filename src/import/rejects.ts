// The rejects file: every row that will not be uploaded, with its line number in the input and
// the reason, so nothing read is lost. Columns: LINE, REASON, then the row's own columns under
// the input's header. LINE and REASON come first so a row with the wrong number of columns
// cannot push them out of place.
//
// It is meant for a person and a spreadsheet, so it goes through the one CSV writer for people
// (src/output/csv.ts: a cell such as =HYPERLINK(…) is written as text, not as a formula). It is
// written to a private temporary file beside the target (created exclusively, never through a
// link) and renamed into place once the whole input is checked: a kill leaves no partial file
// under the real name, and an older file there is replaced in one step (and takes mode 0600).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTempBeside } from '../fs/safe-write.js';
import { csvLine } from '../output/csv.js';
import { CsvFile } from './csv-writer.js';

export type RejectReason = 'invalid-email' | 'duplicate-email' | 'name-too-long' | 'field-type' | 'column-count' | 'control-character';

export const REASON_LABEL: Record<RejectReason, string> = {
  'invalid-email': 'invalid email',
  'duplicate-email': 'duplicate email',
  'name-too-long': 'NAME too long',
  'field-type': 'custom field of the wrong type',
  'column-count': 'wrong number of columns',
  'control-character': 'NUL or unquoted line break in a value',
};

/** How every rejects file mailctl writes begins: how an old one is told from someone else's file. */
const SIGNATURE = 'LINE,REASON';

/** `contacts.csv` → `contacts.rejects.csv` in the same folder; stdin → in the current folder. */
export function defaultRejectsPath(input: string): string {
  if (input === '-') return path.resolve('stdin.rejects.csv');
  const dir = path.dirname(path.resolve(input));
  const base = path.basename(input).replace(/\.(csv|txt|tsv)$/i, '');
  return path.join(dir, `${base}.rejects.csv`);
}

export interface RejectsTarget {
  path: string;
  /** Told the temporary file's name before it is created (the work folder lists it, for cleanup after a kill). */
  onTemp?(tmp: string): Promise<void>;
}

/** What happened at the target when the check ended. */
export interface RejectsOutcome {
  /** The rejects file written (only when a row was rejected). */
  path?: string;
  /** No row was rejected, and an older rejects file at the target was removed. */
  removedOld?: string;
}

/** Rows that will not be uploaded. Without a target (a dry run) they are only counted. */
export class RejectsFile {
  count = 0;
  private header: readonly string[] = [];

  private constructor(private readonly target?: RejectsTarget, private readonly tmp?: string, private readonly file?: CsvFile) {}

  static async open(target: RejectsTarget | undefined): Promise<RejectsFile> {
    if (!target) return new RejectsFile();
    const { path: tmp, handle } = await createTempBeside(target.path, { beforeCreate: target.onTemp });
    return new RejectsFile(target, tmp, new CsvFile(tmp, handle));
  }

  setHeader(names: readonly string[]): void {
    this.header = names;
  }

  add(line: number, reason: string, fields: readonly string[]): void {
    if (this.file) {
      if (!this.count) this.file.write(csvLine(['LINE', 'REASON', ...this.header]));
      this.file.write(csvLine([line, reason, ...fields]));
    }
    this.count++;
  }

  drain(): Promise<void> {
    return this.file ? this.file.drain() : Promise.resolve();
  }

  /**
   * The check is complete: with rejected rows, the file takes the target's place (replacing
   * what was there, a link included, never writing through it); with none, the temporary file
   * goes, and so does an older rejects file of mailctl's at the target, now out of date.
   */
  async commit(): Promise<RejectsOutcome> {
    if (!this.file || !this.target || !this.tmp) return {};
    await this.file.close();
    if (this.count) {
      await fsp.rename(this.tmp, this.target.path);
      return { path: this.target.path };
    }
    await fsp.rm(this.tmp, { force: true });
    return (await removeOldRejects(this.target.path)) ? { removedOld: this.target.path } : {};
  }

  /** Refused or interrupted: the temporary file goes, and whatever was at the target stays. */
  async discard(): Promise<void> {
    await this.file?.discard();
  }
}

/** Removes `file` if it is a plain file that mailctl wrote as a rejects file (it starts LINE,REASON). */
async function removeOldRejects(file: string): Promise<boolean> {
  const st = await fsp.lstat(file).catch(() => undefined);
  if (!st?.isFile()) return false;
  let head = '';
  const fd = await fsp.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
  if (!fd) return false;
  try {
    const buf = Buffer.alloc(SIGNATURE.length);
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fd.close();
  }
  if (head !== SIGNATURE) return false;
  await fsp.rm(file, { force: true });
  return true;
}
