// The rejects file: every row that will not be uploaded, with its line number in the input and
// the reason, so nothing read is lost. Columns: LINE, REASON, then the row's own columns under
// the input's header. LINE and REASON come first so a row with the wrong number of columns
// cannot push them out of place.
//
// It is meant for a person and a spreadsheet, so it goes through the one CSV writer for people
// (src/run/output/csv.ts: a cell such as =HYPERLINK(…) is written as text, not as a formula). It is
// written to a private temporary file beside the target (created exclusively, never through a
// link) and renamed into place once the whole input is checked: a kill leaves no partial file
// under the real name, and an older file there is replaced in one step (and takes mode 0600).
// The temporary file is made only when the first rejected row is about to reach the disk, so a
// check that rejects nothing makes no file at all beside the target.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTempBeside } from '../fs/safe-write.js';
import { csvLine } from '../run/output/csv.js';
import { CsvFile } from './csv-writer.js';

export type RejectReason = 'invalid-email' | 'duplicate-email' | 'name-too-long' | 'field-type' | 'column-count' | 'control-character' | 'multi-line-value';

export const REASON_LABEL: Record<RejectReason, string> = {
  'invalid-email': 'invalid email',
  'duplicate-email': 'duplicate email',
  'name-too-long': 'NAME too long',
  'field-type': 'custom field of the wrong type',
  'column-count': 'wrong number of columns',
  'control-character': 'NUL or unquoted line break in a value',
  'multi-line-value': 'quoted value over several lines (a stray quote?)',
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
  /** Never remove an out-of-date rejects file at the target (a dry run modifies no file it was not asked to write). */
  keepOld?: boolean;
}

/** What happened at the target when the check ended. */
export interface RejectsOutcome {
  /** The rejects file written (only when a row was rejected). */
  path?: string;
  /** No row was rejected, and an older rejects file at the target was removed. */
  removedOld?: string;
  /** No row was rejected, and an older rejects file at the target was left alone (keepOld). */
  outOfDate?: string;
}

/** Rows that will not be uploaded. Without a target (a dry run) they are only counted. */
export class RejectsFile {
  count = 0;
  private header: readonly string[] = [];
  /** Rows rejected since the last drain, before the temporary file exists (at most one input chunk's worth). */
  private pending: string[] = [];
  private tmp?: string;
  private file?: CsvFile;

  private constructor(private readonly target?: RejectsTarget) {}

  static async open(target: RejectsTarget | undefined): Promise<RejectsFile> {
    return new RejectsFile(target);
  }

  setHeader(names: readonly string[]): void {
    this.header = names;
  }

  add(line: number, reason: string, fields: readonly string[]): void {
    if (this.target) {
      if (!this.count) this.write(csvLine(['LINE', 'REASON', ...this.header]));
      this.write(csvLine([line, reason, ...fields]));
    }
    this.count++;
  }

  private write(row: string): void {
    if (this.file) this.file.write(row);
    else this.pending.push(row);
  }

  /** The temporary file beside the target, made now that a row needs it (known here, and to onTemp for a later cleanup). */
  private async create(): Promise<CsvFile> {
    const { path: tmp, handle } = await createTempBeside(this.target!.path, { beforeCreate: this.target!.onTemp });
    this.tmp = tmp;
    this.file = new CsvFile(tmp, handle, this.target!.path);
    for (const row of this.pending.splice(0)) this.file.write(row);
    return this.file;
  }

  async drain(): Promise<void> {
    if (!this.file && this.pending.length) await this.create();
    await this.file?.drain();
  }

  /**
   * The check is complete: with rejected rows, the file takes the target's place (replacing
   * what was there, a link included, never writing through it); with none, an older rejects
   * file of mailctl's at the target is out of date and goes (unless keepOld).
   */
  async commit(): Promise<RejectsOutcome> {
    if (!this.target) return {};
    if (this.count) {
      const file = this.file ?? (await this.create());
      await file.close();
      await fsp.rename(this.tmp!, this.target.path);
      return { path: this.target.path };
    }
    if (this.target.keepOld) return (await isOldRejects(this.target.path)) ? { outOfDate: this.target.path } : {};
    return (await removeOldRejects(this.target.path)) ? { removedOld: this.target.path } : {};
  }

  /** Refused or interrupted: the temporary file goes, and whatever was at the target stays. */
  async discard(): Promise<void> {
    this.pending = [];
    await this.file?.discard();
  }
}

/** Removes `file` if it is a plain file that mailctl wrote as a rejects file (it starts LINE,REASON). */
async function removeOldRejects(file: string): Promise<boolean> {
  if (!(await isOldRejects(file))) return false;
  await fsp.rm(file, { force: true });
  return true;
}

/** Is `file` a plain file that mailctl wrote as a rejects file (it starts LINE,REASON)? Reads only. */
export async function isOldRejects(file: string): Promise<boolean> {
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
  return head === SIGNATURE;
}
