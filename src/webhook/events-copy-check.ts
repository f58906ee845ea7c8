// The --out copy held to the store at start. Each batch's lines are appended inside its
// transaction, before COMMIT (listener.ts), so a listener killed between the two (kill -9, a
// power cut) leaves whole lines for events that were never committed nor acknowledged: the
// service sends them again, the store takes them, and the copy held them twice (found by an
// outside acceptance round). One batch is committed at a time (src/store/group-commit.ts), so
// only the last `maxBatch` lines can be such: each is looked up in the store, and those it does
// not hold are taken out of the file before anything is appended.
import fs from 'node:fs';
import type { EventStore } from '../store/store.js';
import type { Channel } from '../store/row.js';

interface Line {
  /** Byte offset of the line's start. */
  at: number;
  text: string;
}

/** Takes out of the copy's tail the lines whose event the store does not hold; returns how many. */
export async function dropUncommitted(fd: number, store: EventStore, maxBatch: number): Promise<number> {
  const tail = lastLines(fd, maxBatch);
  if (!tail.length) return 0;
  const keep: boolean[] = [];
  for (const line of tail) keep.push(await held(store, line.text));
  const first = keep.indexOf(false);
  if (first < 0) return 0;
  // Cut at the first line the store lacks; the held lines after it (another listener on a
  // shared store committed them) go back in their order.
  const rest = tail.slice(first).filter((_, i) => keep[first + i]).map((l) => l.text + '\n').join('');
  fs.ftruncateSync(fd, tail[first].at);
  if (rest) fs.writeSync(fd, rest);
  fs.fsyncSync(fd);
  return keep.filter((k) => !k).length;
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

/** The last `n` whole lines of the file (it ends with a newline: the torn tail is already cut), oldest first. */
function lastLines(fd: number, n: number): Line[] {
  const size = fs.fstatSync(fd).size;
  const chunks: Buffer[] = [];
  let from = size;
  let newlines = 0;
  // Back from the end until n + 1 newlines are read (the one before the first line wanted), or the start.
  while (from > 0 && newlines <= n) {
    const len = Math.min(64 * 1024, from);
    from -= len;
    const b = Buffer.alloc(len);
    fs.readSync(fd, b, 0, len, from);
    for (const c of b) if (c === 0x0a) newlines++;
    chunks.unshift(b);
  }
  const buf = Buffer.concat(chunks);
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] !== 0x0a) continue;
    lines.push({ at: from + start, text: buf.subarray(start, i).toString('utf8') });
    start = i + 1;
  }
  // The first piece may be the end of a line that starts before `from`: not whole, not ours to judge.
  if (from > 0) lines.shift();
  return lines.slice(-n);
}
