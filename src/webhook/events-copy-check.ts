// The --out copy held to the store. Each batch's lines are appended inside its transaction,
// before COMMIT (listener.ts), so a listener killed between the two (kill -9, a power cut) leaves
// whole lines for events that were never committed nor acknowledged: the service sends them
// again, the store takes them, and the copy held them twice (found by an outside acceptance
// round). Before each batch's lines, where they start is written to a mark beside the copy
// (`<copy>.last-batch`, with the store it goes to); at the next start the lines from there on are
// looked up in that same store, and those it does not hold are taken out. Only that batch is
// looked at, and only against the store it was meant for: lines a run on another store wrote are
// never judged by this one.
import fs from 'node:fs';
import type { EventStore } from '../store/store.js';
import type { Channel } from '../store/row.js';
import { PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import { appendWhole } from '../fs/append-whole.js';
import { writeAllSync } from '../fs/write-all.js';

export const markFileFor = (outFile: string): string => `${outFile}.last-batch`;

/** Opens (or creates) the mark without following a symlink, private like the copy. */
export function openBatchMark(outFile: string): number {
  return fs.openSync(markFileFor(outFile), fs.constants.O_RDWR | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
}

/**
 * Where the batch about to be appended starts, and its store. Not synced: a process killed keeps
 * what it wrote; after a power cut an older mark only widens the lines looked at to earlier
 * batches of the same store, all of which it holds.
 */
export function markBatch(markFd: number, from: number, store: EventStore, markFile: string): void {
  fs.ftruncateSync(markFd, 0);
  // Whole or the DISK error: a mark cut short would not parse, and the batch would go unchecked.
  writeAllSync(markFd, JSON.stringify({ from, store: store.shown }), markFile, 0);
}

/** Takes out of the copy the lines of the last batch whose event the store does not hold; returns how many. */
export async function dropUncommitted(fd: number, markFd: number, store: EventStore, outFile: string): Promise<number> {
  const from = markOf(markFd, store);
  if (from === undefined) return 0;
  const size = fs.fstatSync(fd).size;
  if (from >= size) return 0;
  const lines = linesFrom(fd, from, size);
  const keep: boolean[] = [];
  for (const line of lines) keep.push(await held(store, line.text));
  const first = keep.indexOf(false);
  if (first < 0) return 0;
  // Cut at the first line the store lacks; the held lines after it (another listener on a
  // shared store committed them) go back in their order.
  const rest = lines.slice(first).filter((_, i) => keep[first + i]).map((l) => l.text + '\n').join('');
  fs.ftruncateSync(fd, lines[first].at);
  // Whole, or cut back to the first line dropped (the held lines are in the store): never a torn line.
  appendWhole(fd, rest, outFile);
  return keep.filter((k) => !k).length;
}

/** The batch start the mark records for this store; undefined when none, unreadable, or for another store. */
function markOf(markFd: number, store: EventStore): number | undefined {
  const size = fs.fstatSync(markFd).size;
  if (!size || size > 64 * 1024) return undefined;
  const buf = Buffer.alloc(size);
  fs.readSync(markFd, buf, 0, size, 0);
  try {
    const m = JSON.parse(buf.toString('utf8')) as { from?: unknown; store?: unknown };
    return Number.isSafeInteger(m.from) && (m.from as number) >= 0 && m.store === store.shown ? (m.from as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the store holds the event a copy line records; a line that is not one of ours is kept as it is. */
async function held(store: EventStore, text: string): Promise<boolean> {
  let v: { channel?: unknown; id?: unknown; event?: unknown };
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    return true;
  }
  if (!v || typeof v.id !== 'string' || typeof v.event !== 'string' || (v.channel !== 'email' && v.channel !== 'sms')) return true;
  const rows = await store.page({ channel: v.channel as Channel, id: v.id, events: [v.event], by: 'received' }, undefined, 1);
  return rows.length > 0;
}

/** The whole lines from byte `from` (a line's start) to `size` (the torn tail is already cut). */
function linesFrom(fd: number, from: number, size: number): Array<{ at: number; text: string }> {
  const buf = Buffer.alloc(size - from);
  fs.readSync(fd, buf, 0, buf.length, from);
  const lines: Array<{ at: number; text: string }> = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] !== 0x0a) continue;
    lines.push({ at: from + start, text: buf.subarray(start, i).toString('utf8') });
    start = i + 1;
  }
  return lines;
}
