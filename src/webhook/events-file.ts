// The listener's events file (JSONL, appended to, never truncated). Opened without following a
// symlink (issue 10.3; the command refuses one up front unless --force), kept private (0600: the
// payloads carry recipients' addresses — issue 10.9), and read back at start so that events stored
// by an earlier run count as already seen (issue 10.6).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAppendNoFollow, PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import type { RecentEvents } from './recent.js';

const CHUNK = 1024 * 1024;
/** A line longer than this is not one the listener wrote (bodies are capped far below); skipped. */
const LONGEST_LINE = 64 * 1024 * 1024;

/**
 * Opens `file` for appending and returns its descriptor. A file open to other users is tightened
 * to 0600 (or `warn` says it could not be). A torn last line (a run killed mid-write) is closed
 * with a newline so the next event starts clean. The (id, event) pairs in the last `seedBytes`
 * of the file are added to `recent` (the failed-forwards file, opened the same way, has none).
 */
export function openEventsFile(file: string, recent: RecentEvents | undefined, seedBytes: number, warn: (message: string) => void): number {
  const fd = openAppendNoFollow(file);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('it is not a regular file'), { code: 'ENOTREG', path: file });
    keepPrivate(fd, file, st.mode, warn);
    if (st.size === 0) return fd;
    // Read through a second descriptor, also opened without following links, checked to be the
    // same file (a swap between the two opens would otherwise make us read someone else's file).
    const rfd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const rst = fs.fstatSync(rfd);
      if (rst.ino !== st.ino || rst.dev !== st.dev) throw Object.assign(new Error('it changed while being opened'), { code: 'ECHANGED', path: file });
      const last = Buffer.alloc(1);
      fs.readSync(rfd, last, 0, 1, st.size - 1);
      if (last[0] !== 0x0a) fs.writeSync(fd, '\n');
      if (recent) seed(rfd, Math.max(0, st.size - seedBytes), st.size, recent);
    } finally {
      fs.closeSync(rfd);
    }
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

// The listener writes each line as JSON.stringify(StoredEvent): receivedAt, event, id first.
const PREFIX = /^\{"receivedAt":"[^"\\]*","event":("(?:[^"\\]|\\.)*"),"id":("(?:[^"\\]|\\.)*")/;

function seed(fd: number, start: number, end: number, recent: RecentEvents): void {
  for (const line of lines(fd, start, end)) {
    const head = PREFIX.exec(line.toString('utf8', 0, Math.min(line.length, 4096)));
    try {
      if (head) {
        recent.add(JSON.parse(head[2]) as string, JSON.parse(head[1]) as string);
        continue;
      }
      const o = JSON.parse(line.toString('utf8')) as { id?: unknown; event?: unknown };
      if (typeof o?.id === 'string' && typeof o.event === 'string') recent.add(o.id, o.event);
    } catch {
      // not one of ours (or torn): nothing to remember
    }
  }
}

/** The whole lines between `start` and `end`; a line cut by `start` is skipped. */
function* lines(fd: number, start: number, end: number): Generator<Buffer> {
  const buf = Buffer.alloc(CHUNK);
  let carry: Buffer[] = [];
  let carried = 0;
  // Reading from one byte early tells whether `start` is at the beginning of a line.
  let pos = Math.max(0, start - 1);
  let skipping = start > 0;
  while (pos < end) {
    const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, end - pos), pos);
    if (n === 0) break;
    pos += n;
    let from = 0;
    for (let nl = buf.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = buf.indexOf(0x0a, from)) {
      if (!skipping) {
        const piece = buf.subarray(from, nl);
        const line = carried ? Buffer.concat([...carry, piece]) : Buffer.from(piece);
        if (line.length) yield line;
      }
      skipping = false;
      carry = [];
      carried = 0;
      from = nl + 1;
    }
    if (from < n && !skipping) {
      carried += n - from;
      if (carried > LONGEST_LINE) {
        skipping = true;
        carry = [];
        carried = 0;
      } else carry.push(Buffer.from(buf.subarray(from, n)));
    }
  }
}
