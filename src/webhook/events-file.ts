// The listener's JSONL files: the --out copy of every stored event and the failed-forwards file
// (appended to, never truncated past a whole line). Opened without following a symlink (issue
// 10.3; the command refuses one up front unless --force), kept private (0600: the payloads carry
// recipients' addresses — issue 10.9). A torn last line (a run killed mid-write, a disk that
// filled mid-line) is cut back at open, before anything is appended after it (issue 19 item 4):
// it was never acknowledged, so its sender retried it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import { cutTornTail } from '../fs/append-whole.js';

/**
 * Opens `file` for appending and returns its descriptor. A file open to other users is tightened
 * to 0600 (or `warn` says it could not be). A torn last line is cut off (`warn` says how much).
 */
export function openEventsFile(file: string, warn: (message: string) => void): number {
  // Read-write (appends still go to the end): the torn tail is found by reading it back.
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('it is not a regular file'), { code: 'ENOTREG', path: file });
    keepPrivate(fd, file, st.mode, warn);
    const cut = cutTornTail(fd);
    if (cut > 0) warn(`${file} ended in a torn line (${cut} bytes, never acknowledged: its sender retries it); cut back to the last whole line.`);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** The failed-forwards file beside the events file: events.jsonl → events.failed.jsonl. */
export function failedFileFor(outFile: string): string {
  const base = path.basename(outFile);
  const stem = /\.jsonl$/i.test(base) ? base.slice(0, -'.jsonl'.length) : base;
  return path.join(path.dirname(outFile), `${stem}.failed.jsonl`);
}

function keepPrivate(fd: number, file: string, mode: number, warn: (message: string) => void): void {
  if (os.platform() === 'win32' || (mode & 0o077) === 0) return;
  try {
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (e) {
    warn(`The events file ${file} is readable by other users (mode ${(mode & 0o777).toString(8)}) and could not be made private (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Run \`chmod 600 ${file}\`.`);
  }
}
