// A lock file for a few processes of one user sharing a small file (the rate budget,
// src/api/ratelimit-shared.ts; the --sandbox state, src/sandbox/inprocess.ts): created with
// O_EXCL, naming its holder (pid, host, a token of this process), removed by its holder. A lock
// whose holder is gone (same host, pid not running) or that was not touched for `staleMs` never
// blocks: it is moved aside atomically and taken over.
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';

/** The default bound after which an untouched lock is a holder that died or hung. */
export const LOCK_STALE_MS = 2000;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const FILE_MODE = 0o600;

interface Holder {
  pid: number;
  host: string;
  token: string;
}

/** This machine's name, as lock files and budget entries record it. */
export const HOST = os.hostname();
let myToken: string | undefined;

/**
 * True when this process now holds the lock; false when another live holder has it. A lock not
 * touched for `staleMs` is taken over (the sandbox's lock, held across a request, is kept fresh
 * by its holder and given a longer bound: src/sandbox/inprocess.ts).
 */
export function takeLock(lock: string, staleMs = LOCK_STALE_MS): boolean {
  myToken ??= randomBytes(6).toString('hex');
  const me: Holder = { pid: process.pid, host: HOST, token: myToken };
  for (let i = 0; i < 3; i++) {
    try {
      const fd = fs.openSync(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW, FILE_MODE);
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const seen = readHolder(lock);
    if (seen === 'gone') continue;
    if (!isStale(lock, seen, staleMs)) return false;
    takeOver(lock, seen);
  }
  return false;
}

/** Removes the lock if it is still ours (it is not when it was taken over as stale meanwhile). */
export function releaseLock(lock: string): void {
  const h = readHolder(lock);
  if (h && h !== 'gone' && h.pid === process.pid && h.token === myToken) fs.rmSync(lock, { force: true });
}

/** The holder; undefined when the file cannot be understood (its age decides); 'gone' when it vanished. */
function readHolder(lock: string): Holder | undefined | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(lock, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isInteger(h?.pid) && typeof h.host === 'string' && typeof h.token === 'string' ? h : undefined;
  } catch {
    return undefined; // being written this very moment, or its writer died before writing
  }
}

function isStale(lock: string, h: Holder | undefined, staleMs: number): boolean {
  const st = fs.lstatSync(lock, { throwIfNoEntry: false });
  if (!st) return false; // vanished: the next round creates it
  if (Date.now() - st.mtimeMs > staleMs) return true;
  if (!h || h.host !== HOST) return false;
  // No code of this process tries a lock file it already holds (the rate budget holds its lock
  // for synchronous steps only; the sandbox's requests of one process take turns before they
  // try its lock), so a lock naming this pid was left by an earlier process with the same pid.
  if (h.pid === process.pid) return true;
  return !alive(h.pid);
}

/** The process runs (on this machine); one of another user counts as running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}

/**
 * Moves a stale lock aside (rename is atomic: of two processes doing this, one wins) and checks
 * that what was moved is the lock judged stale; a live holder's lock moved by mistake is put back.
 */
function takeOver(lock: string, stale: Holder | undefined): void {
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = readHolder(aside);
  const same = stale === undefined ? moved === undefined : moved !== undefined && moved !== 'gone' && moved.token === stale.token && moved.pid === stale.pid;
  if (!same) {
    try {
      fs.linkSync(aside, lock); // never over a lock created meanwhile
    } catch {
      /* a newer lock is in place: it wins */
    }
  }
  fs.rmSync(aside, { force: true });
}
