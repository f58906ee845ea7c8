// The one way a record a promise rests on is appended (a journal line, a stored event, a sync
// state line): the whole record reaches the file or none of it stays there. fs.writeSync may
// write part of a buffer (a nearly full disk writes what fits, then fails with ENOSPC), so the
// write is looped and checked (src/fs/write-all.ts); on any failure the file is cut back to where the record began,
// so the next append never lands on a torn line. Only after this returns (and its fsync) may
// the caller acknowledge the record to anyone.
import fs from 'node:fs';
import { promisify } from 'node:util';
import { asDiskError } from './disk-error.js';
import { writeAll, writeAllSync } from './write-all.js';

export { DiskError, isDiskProblem, asDiskError } from './disk-error.js';

/**
 * Appends all of `data` at the end of the file open (O_APPEND) at `fd`, then fsyncs unless
 * `sync` is false. A short write is continued; a failure cuts the file back to its length
 * before the call and throws (a DiskError when the disk caused it). `file` names it in errors.
 */
export function appendWhole(fd: number, data: string | Uint8Array, file: string, o: { sync?: boolean } = {}): void {
  const start = fs.fstatSync(fd).size;
  try {
    writeAllSync(fd, data, file);
    if (o.sync !== false) fs.fsyncSync(fd);
  } catch (e) {
    try {
      fs.ftruncateSync(fd, start);
    } catch {
      // The cut itself failed: cutTornTail() at the next open removes the partial line.
    }
    throw asDiskError(e, file);
  }
}

const fstatAsync = promisify(fs.fstat);
const ftruncateAsync = promisify(fs.ftruncate);
const fsyncAsync = promisify(fs.fsync);
const fdatasyncAsync = promisify(fs.fdatasync);

/**
 * appendWhole off the event loop, for a writer that must not hold up everything else while the
 * disk works (the send journal's group commit): the same promise — the whole record or none of
 * it, continued after a short write, cut back on failure — then `sync` ('data': fdatasync, the
 * default 'full': fsync, or none).
 */
export async function appendWholeAsync(fd: number, data: string | Uint8Array, file: string, o: { sync?: 'full' | 'data' | false } = {}): Promise<void> {
  const start = (await fstatAsync(fd)).size;
  try {
    await writeAll(fd, data, file);
    if (o.sync === 'data') await fdatasyncAsync(fd);
    else if (o.sync !== false) await fsyncAsync(fd);
  } catch (e) {
    try {
      await ftruncateAsync(fd, start);
    } catch {
      // As in appendWhole: the writer cuts the torn tail before its next append.
    }
    throw asDiskError(e, file);
  }
}

/**
 * Cuts a line-per-record file back to its last whole line (a kill or a full disk may have left
 * part of one). Returns the bytes removed. A file that is empty or ends in "\n" is left as is.
 */
export function cutTornTail(fd: number): number {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return 0;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const from = Math.max(0, end - chunk.byteLength);
    const n = fs.readSync(fd, chunk, 0, end - from, from);
    const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) {
      const keep = from + nl + 1;
      if (keep < size) fs.ftruncateSync(fd, keep);
      return size - keep;
    }
    end = from;
  }
  fs.ftruncateSync(fd, 0);
  return size;
}
