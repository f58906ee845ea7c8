// The one way mailctl writes a file. Working files are created exclusively (O_EXCL: never
// through a symlink or over a file someone planted) beside their target, then renamed into
// place, so a kill leaves no half-written file under the final name. A file the user names is
// refused when it is a symlink, unless they pass --force. Everything is created 0600.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { asDiskError } from './disk-error.js';
import { writeAll, writeAllSync } from './write-all.js';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Refuses a user-named path that is a symlink (it would make mailctl write wherever it points). */
export function refuseSymlink(file: string, flag: string, force: boolean | undefined): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return; // missing: fine
  }
  if (st.isSymbolicLink() && !force) {
    throw new UsageError(`${file} (${flag}) is a symbolic link; mailctl does not write through links.`, 'Give another path, or pass --force to replace the link itself with a file.');
  }
}

/**
 * A fresh, exclusively created temporary file beside `target` (same folder, so rename is atomic).
 * `beforeCreate` is told each name before the file can exist (a caller that must clean up after
 * a kill records it there first: noted after creation, a kill in between would orphan it).
 */
export async function createTempBeside(target: string, o: { beforeCreate?: (tmp: string) => Promise<void> } = {}): Promise<{ path: string; handle: fsp.FileHandle }> {
  const dir = path.dirname(target);
  const base = path.basename(target);
  for (;;) {
    const tmp = path.join(dir, `.${base}.${randomBytes(6).toString('hex')}.part`);
    await o.beforeCreate?.(tmp);
    try {
      const handle = await fsp.open(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
      return { path: tmp, handle };
    } catch (e) {
      // A disk that cannot take another file names the target: the temporary name means nothing to anyone.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw asDiskError(e, target);
    }
  }
}

/**
 * Writes `data` to `target` atomically: a private temporary file beside it, fsync, rename.
 * A symlink at `target` is replaced by the file, never followed. With `replace: false` an
 * existing `target` (file or link) is left alone and the write fails with EEXIST. A disk that
 * will not take it (full, read-only, an I/O error) is a DiskError naming `target`, with the
 * temporary file gone and whatever was at `target` unchanged.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, o: { replace?: boolean } = {}): Promise<void> {
  const { path: tmp, handle } = await createTempBeside(target);
  try {
    await writeAll(handle, data, target);
    await handle.sync();
    await handle.close();
    if (o.replace === false) await renameNoReplace(tmp, target);
    else await fsp.rename(tmp, target);
  } catch (e) {
    await handle.close().catch(() => {});
    await fsp.rm(tmp, { force: true });
    throw asDiskError(e, target);
  }
}

/**
 * writeFileAtomic for a caller that cannot wait (the config store): a private temporary file
 * beside `target` written whole (writeAllSync: a short write on a nearly full disk is continued,
 * never renamed in torn), fsync, rename. A disk that refuses it is a DiskError naming `target`,
 * with the temporary file gone and `target` as it was.
 */
export function writeFileAtomicSync(target: string, data: string | Uint8Array): void {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
    writeAllSync(fd, data, target);
    fs.fsyncSync(fd);
    const open = fd;
    fd = undefined;
    fs.closeSync(open);
    fs.renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw asDiskError(e, target);
  }
}

/** Moves `tmp` to `target` only if nothing is there: a hard link fails with EEXIST, atomically. */
export async function renameNoReplace(tmp: string, target: string): Promise<void> {
  try {
    await fsp.link(tmp, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // File systems without hard links: the check and the rename are then two steps.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    if (fs.lstatSync(target, { throwIfNoEntry: false })) throw Object.assign(new Error(`${target} exists`), { code: 'EEXIST' });
    await fsp.rename(tmp, target);
    return;
  }
  await fsp.rm(tmp, { force: true });
}

/** Opens `file` for appending without following a symlink at it; creates it 0600. */
export function openAppendNoFollow(file: string): number {
  return fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
}
