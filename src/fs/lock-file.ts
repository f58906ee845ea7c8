// The one lock file of mailctl, for the few processes of one user that share a file or folder:
// the rate budget (src/api/ratelimit-shared.ts), the --sandbox state (src/sandbox/inprocess.ts),
// a send/automation journal (src/send/journal.ts) and a report sync folder
// (src/report/sync/lock.ts). Created with O_EXCL, naming its holder (pid, host, a token of this
// hold), removed by its holder. While held it can be kept fresh (its mtime touched). A lock whose
// holder is gone (same host, pid not running) or that was not touched for `staleMs` never blocks:
// it is moved aside atomically and taken over.
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { asDiskError } from './append-whole.js';
import { writeAllSync } from './write-all.js';

/** The default bound after which an untouched lock is a holder that died or hung. */
export const LOCK_STALE_MS = 2000;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const FILE_MODE = 0o600;

/** Who holds a lock, as its file says; `about` holds what the taker added (e.g. when a run started). */
export interface LockHolder {
  pid: number;
  host: string;
  /** This process's token, a dot, and the number of the hold: one process may hold several locks (tests run commands in one process). */
  token: string;
  [about: string]: unknown;
}

export interface TakeLockOptions {
  /** Untouched for this long, the lock belongs to a holder that died or hung (default LOCK_STALE_MS). */
  staleMs?: number;
  /** While held, touch the lock this often so it never looks stale (held across awaits). */
  heartbeatMs?: number;
  /** More for the file to say about the holder (shown to whoever finds it locked). */
  about?: Record<string, string>;
}

export interface HeldLock {
  /** Removes the lock if it is still this hold's (it is not when it was taken over as stale meanwhile). */
  release(): void;
}

/** This machine's name, as lock files and budget entries record it. */
export const HOST = os.hostname();
let processToken: string | undefined;
let holds = 0;

/** The lock now held by this caller, or undefined when another live holder has it. */
export function takeLock(lock: string, o: TakeLockOptions = {}): HeldLock | undefined {
  processToken ??= randomBytes(6).toString('hex');
  const staleMs = o.staleMs ?? LOCK_STALE_MS;
  const me: LockHolder = { ...o.about, pid: process.pid, host: HOST, token: `${processToken}.${++holds}` };
  for (let i = 0; i < 3; i++) {
    if (create(lock, me)) return held(lock, me, o.heartbeatMs);
    const seen = lockHolder(lock);
    if (seen === 'gone') continue;
    if (!isStale(lock, seen, staleMs)) return undefined;
    takeOver(lock, seen);
  }
  return undefined;
}

/**
 * Creates the lock naming its holder. A holder the disk would not take whole (full, read-only,
 * an I/O error) is a DiskError naming the lock, and no lock is left: an empty or half-written one
 * would block every other run until it went stale.
 */
function create(lock: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW, FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw asDiskError(e, lock);
  }
  try {
    // Just created: written whole or removed below (nothing to cut back, no fsync for a lock).
    writeAllSync(fd, JSON.stringify(me) + '\n', lock);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(lock, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  return true;
}

function held(lock: string, me: LockHolder, heartbeatMs: number | undefined): HeldLock {
  let beat: NodeJS.Timeout | undefined;
  if (heartbeatMs) {
    beat = setInterval(() => {
      const now = new Date();
      try {
        fs.utimesSync(lock, now, now);
      } catch {
        /* gone (taken over, or its folder reset): release() copes */
      }
    }, heartbeatMs);
    beat.unref();
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      const h = lockHolder(lock);
      if (h && h !== 'gone' && h.token === me.token) fs.rmSync(lock, { force: true });
    },
  };
}

/**
 * The holder a lock file names; undefined when the file cannot be understood (being written this
 * very moment, or damaged: its age decides); 'gone' when there is no lock. Written by anyone who
 * can write the folder: its words reach a terminal only through the sanitiser.
 */
export function lockHolder(lock: string): LockHolder | undefined | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(lock, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return Number.isInteger(h?.pid) && typeof h.host === 'string' && typeof h.token === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lock: string, h: LockHolder | undefined, staleMs: number): boolean {
  const st = fs.lstatSync(lock, { throwIfNoEntry: false });
  if (!st) return false; // vanished: the next round creates it
  if (Date.now() - st.mtimeMs > staleMs) return true;
  if (!h || h.host !== HOST) return false;
  // This pid with another process's token: left by an earlier process that had the same pid.
  if (h.pid === process.pid) return h.token.split('.')[0] !== processToken;
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
function takeOver(lock: string, stale: LockHolder | undefined): void {
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = lockHolder(aside);
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
