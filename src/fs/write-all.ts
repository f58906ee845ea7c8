// The one way mailctl writes bytes through an open file. A write may take only part of what it
// is given and still succeed: a nearly full disk writes what fits (bytesWritten < length) and only
// the next write fails, or none does. A caller that ignored bytesWritten renamed files cut short
// into place and said "Wrote …" (issue 19, items 4 and 7). These loop until every byte is
// written; a write that takes nothing, or fails, is the DISK error naming `file` (the file the
// user knows: a temporary file's target, not its temporary name).
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { asDiskError } from './disk-error.js';

const writeFd = promisify(fs.write) as unknown as (fd: number, buf: Uint8Array, offset: number, length: number, position: number | null) => Promise<{ bytesWritten: number }>;

const asBytes = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

/** 0 bytes written without an error: the disk takes nothing more (treated as full, never looped on). */
const tookNothing = () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });

/**
 * Writes all of `data` to `to` (a FileHandle or an fd) at its current position, or from
 * `position` on. Throws a DiskError naming `file` when the disk refuses any of it (other errors
 * unchanged); what was written before the failure stays, for the caller to remove or cut back.
 */
export async function writeAll(to: FileHandle | number, data: string | Uint8Array, file: string, position?: number): Promise<void> {
  const buf = asBytes(data);
  let done = 0;
  try {
    while (done < buf.byteLength) {
      const at = position === undefined ? null : position + done;
      const { bytesWritten } = typeof to === 'number' ? await writeFd(to, buf, done, buf.byteLength - done, at) : await to.write(buf, done, buf.byteLength - done, at);
      if (bytesWritten <= 0) throw tookNothing();
      done += bytesWritten;
    }
  } catch (e) {
    throw asDiskError(e, file);
  }
}

/** writeAll for a caller that cannot wait (the config store, an append under a held lock). */
export function writeAllSync(fd: number, data: string | Uint8Array, file: string, position?: number): void {
  const buf = asBytes(data);
  let done = 0;
  try {
    while (done < buf.byteLength) {
      const n = fs.writeSync(fd, buf, done, buf.byteLength - done, position === undefined ? null : position + done);
      if (n <= 0) throw tookNothing();
      done += n;
    }
  } catch (e) {
    throw asDiskError(e, file);
  }
}
