// Where an import keeps its working files: `<config dir>/work/import-<pid>-<random>/` (the
// cleaned copy to upload, and a list of the temporary files it made elsewhere, such as the
// rejects file being written beside its target). The system temp folder is not used: a kill -9
// there leaves a full copy of the contacts behind for good, where nobody looks. Here, the next
// import removes what a dead run left (its process is gone, or the folder is older than
// STALE_AFTER_MS), including the temporary files it listed.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openAppendNoFollow, PRIVATE_DIR_MODE } from '../fs/safe-write.js';
import { appendWhole, asDiskError } from '../fs/append-whole.js';
import { alive } from '../fs/lock-file.js';

/** A folder this old is removed even when a process with its number runs (the number was reused). */
const STALE_AFTER_MS = 2 * 24 * 60 * 60_000;

const NAME = /^import-(\d+)-[0-9a-f]+$/;
/** The file in a work folder listing temporary files made elsewhere, one absolute path per line. */
const OWNED = 'owned-temp-files';
/** Only files named as createTempBeside names them are ever removed from outside the work folder. */
const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.part$/;

export function workRoot(configDir: string): string {
  return path.join(configDir, 'work');
}

export class ImportWorkDir {
  private constructor(readonly path: string) {}

  /** Removes what dead runs left, then makes a fresh private folder for this run. */
  static async create(configDir: string): Promise<ImportWorkDir> {
    const root = workRoot(configDir);
    await fsp.mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE }).catch((e: unknown) => {
      throw asDiskError(e, root);
    });
    await removeStale(root);
    const dir = path.join(root, `import-${process.pid}-${randomBytes(6).toString('hex')}`);
    await fsp.mkdir(dir, { mode: PRIVATE_DIR_MODE }).catch((e: unknown) => {
      throw asDiskError(e, dir);
    });
    return new ImportWorkDir(dir);
  }

  /** Where the cleaned copy of the contacts is written. */
  get cleanedPath(): string {
    return path.join(this.path, 'contacts.csv');
  }

  /**
   * Notes a temporary file made outside this folder, so a later run can remove it if this one
   * dies: a whole line (appendWhole) before the file is made, or the file is not made at all.
   */
  async own(file: string): Promise<void> {
    const list = path.join(this.path, OWNED);
    let fd: number;
    try {
      fd = openAppendNoFollow(list);
    } catch (e) {
      throw asDiskError(e, list);
    }
    try {
      appendWhole(fd, `${path.resolve(file)}\n`, list);
    } finally {
      fs.closeSync(fd);
    }
  }

  async remove(): Promise<void> {
    await fsp.rm(this.path, { recursive: true, force: true });
  }
}

/** Removes the work folders of runs that are gone, and the temporary files they listed. */
async function removeStale(root: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const names = await fsp.readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const dir = path.join(root, name);
    const st = await fsp.lstat(dir).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    if (alive(Number(m[1])) && now - st.mtimeMs < STALE_AFTER_MS) continue;
    const owned = await fsp.readFile(path.join(dir, OWNED), 'utf8').catch(() => '');
    for (const file of owned.split('\n')) {
      if (!file || !path.isAbsolute(file) || !TEMP_NAME.test(path.basename(file))) continue;
      // Never through a link, never anything but a plain file.
      const f = await fsp.lstat(file).catch(() => undefined);
      if (f?.isFile()) await fsp.rm(file, { force: true }).catch(() => {});
    }
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
    removed.push(dir);
  }
  return removed;
}
