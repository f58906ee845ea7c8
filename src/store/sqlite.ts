// The event store in one SQLite file, through libsql (a prebuilt Node-API binary with
// better-sqlite3's synchronous API; loaded only here, and only when a command opens the store).
// WAL with synchronous=FULL: a commit is one fsync of the log, readers never wait for the
// writer, and a commit that returned is on disk — the listener answers 200 only after it.
// The file (and its -wal/-shm, which SQLite makes with the same mode) is private (0600): the
// payloads carry recipients' addresses.
import fs from 'node:fs';
import path from 'node:path';
import type LibsqlDatabase from 'libsql';
import { UsageError } from '../core/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import { SCHEMA_VERSION, SQLITE_SCHEMA } from './schema.js';
import { COLUMNS, EVENT_AT, pageSql, quoted, rowFrom, valuesOf, type BeforeCommit, type EventStore, type PageKey, type StoreQuery } from './store.js';
import type { EventRow, StoredRow } from './row.js';
import { StoreError } from './errors.js';
import { DiskError } from '../fs/disk-error.js';

type Db = InstanceType<typeof LibsqlDatabase>;

/** How long a writer waits for another (a second listener, `events prune`) before giving up. */
const BUSY_TIMEOUT_MS = 5_000;
/** Rows deleted per transaction when pruning, so a listener on the same file waits little. */
const PRUNE_CHUNK = 5_000;

export interface SqliteOpenOptions {
  /** Create the file (and the config folder when it is the default one) if missing. */
  create: boolean;
  /** The folder to create 0700 when missing (the config folder); others must exist. */
  privateDir?: string;
}

export async function openSqlite(file: string, shown: string, o: SqliteOpenOptions): Promise<EventStore> {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) throw new UsageError(`The store ${file} is a symbolic link; mailctl does not write through links.`, 'Give the real path with --store sqlite:PATH.');
  if (st && !st.isFile()) throw new UsageError(`The store ${file} is not a file.`, 'Give a file with --store sqlite:PATH.');
  if (!st) {
    if (!o.create) throw new StoreError(`There is no event store at ${file} yet.`, 'Events are stored there by `mailctl webhook listen`; or name another store with --store.');
    const dir = path.dirname(file);
    if (o.privateDir && path.resolve(o.privateDir) === dir) fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      // Made here, 0600, before SQLite opens it: SQLite would make it (and its -wal) with the umask's mode.
      fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
      throw new UsageError(`Cannot create the event store ${file}: ${why}.`, 'Give a file in an existing folder you can write to with --store sqlite:PATH.');
    }
  } else if ((st.mode & 0o077) !== 0) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch {
      // Not ours to change (read by another user's command): reading still works.
    }
  }
  const { default: Database } = await import('libsql');
  let db: Db | undefined;
  try {
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    if (o.create) db.exec(SQLITE_SCHEMA);
    checkVersion(db, file);
  } catch (e) {
    // Not left open (its files held) for the rest of a process that goes on (mcp, tests).
    try {
      db?.close();
    } catch {
      /* closing is all that was left to do */
    }
    throw openProblem(e, file);
  }
  return new SqliteStore(db, shown);
}

function checkVersion(db: Db, file: string): void {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('events', 'store_meta')`).all() as Array<{ name: string }>;
  if (tables.length < 2) throw new StoreError(`${file} is not a mailctl event store (it has no events table).`, 'Name the store `mailctl webhook listen` writes with --store, or let the listener create one.');
  const row = db.prepare(`SELECT value FROM store_meta WHERE key = 'schema_version'`).all()[0] as { value?: string } | undefined;
  const v = Number(row?.value);
  if (!(v <= SCHEMA_VERSION)) throw new StoreError(`The event store ${file} was made by a newer mailctl (schema ${row?.value}; this one knows ${SCHEMA_VERSION}).`, 'Update mailctl.');
}

function openProblem(e: unknown, file: string): unknown {
  if (e instanceof StoreError || e instanceof UsageError) return e;
  const code = String((e as { code?: unknown })?.code ?? '');
  if (code === 'SQLITE_NOTADB') return new UsageError(`${file} is not an SQLite database.`, 'Name the store `mailctl webhook listen` writes with --store sqlite:PATH.');
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') return new UsageError(`Cannot open the event store ${file} (${code}).`, 'Check the file and its folder can be written by this user.');
  const disk = diskProblem(code, file);
  if (disk) return disk;
  return new StoreError(`Cannot open the event store ${file}: ${e instanceof Error ? e.message : String(e)}${code ? ` (${code})` : ''}.`);
}

/** Below this much room, an I/O error SQLite met is the full disk (its -shm alone takes 32 KiB, a WAL frame a page). */
const NO_ROOM_BYTES = 1024 * 1024;

/**
 * A disk that would not take the store's write, from SQLite's own code (never its words):
 * SQLITE_FULL is a full disk; SQLITE_IOERR and its extended codes (SQLITE_IOERR_SHMSIZE when the
 * -shm file cannot grow, _WRITE, _FSYNC…) are an I/O error, which on a disk with no room left
 * (statfs of its folder) is the full disk underneath. The DISK error names the store; main adds
 * the command that runs this again once there is room.
 */
function diskProblem(code: string, file: string): DiskError | undefined {
  if (code === 'SQLITE_FULL') return new DiskError(file, 'ENOSPC', undefined, code);
  if (code !== 'SQLITE_IOERR' && !code.startsWith('SQLITE_IOERR_')) return undefined;
  let room = Infinity;
  try {
    const st = fs.statfsSync(path.dirname(file));
    room = st.bavail * st.bsize;
  } catch {
    // Cannot tell: an I/O error it stays.
  }
  return new DiskError(file, room < NO_ROOM_BYTES ? 'ENOSPC' : 'EIO', undefined, code);
}

const INSERT = `INSERT INTO events (${COLUMNS.map(quoted).join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (channel, message_id, event) DO NOTHING`;

class SqliteStore implements EventStore {
  readonly kind = 'sqlite' as const;
  private readonly insertStmt: ReturnType<Db['prepare']>;
  private closed = false;

  constructor(private readonly db: Db, readonly shown: string) {
    this.insertStmt = db.prepare(INSERT);
  }

  async insert(rows: readonly EventRow[], beforeCommit?: BeforeCommit): Promise<boolean[]> {
    const db = this.db;
    // IMMEDIATE: take the write lock first, so no other writer can make this commit fail midway.
    db.exec('BEGIN IMMEDIATE');
    let undo: void | (() => void);
    let inserted: boolean[];
    try {
      inserted = rows.map((r) => this.insertStmt.run(valuesOf(r)).changes === 1);
      // Synchronous when the hook is: nothing else runs on this thread while the write lock is held.
      const r = beforeCommit?.(inserted);
      undo = r instanceof Promise ? await r : r;
    } catch (e) {
      rollback(db);
      throw e;
    }
    try {
      db.exec('COMMIT');
    } catch (e) {
      rollback(db);
      if (typeof undo === 'function') undo();
      throw e;
    }
    return inserted;
  }

  async page(q: StoreQuery, after: PageKey | undefined, limit: number): Promise<StoredRow[]> {
    const { sql, params } = pageSql(q, after, limit, () => '?');
    return (this.db.prepare(sql).all(params) as Array<Record<string, unknown>>).map(rowFrom);
  }

  async countOlder(before: number): Promise<number> {
    const r = this.db.prepare(`SELECT count(*) AS n FROM events WHERE ${EVENT_AT} < ?`).all([before])[0] as { n: number };
    return Number(r.n);
  }

  async pruneOlder(before: number): Promise<number> {
    const del = this.db.prepare(`DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE ${EVENT_AT} < ? LIMIT ${PRUNE_CHUNK})`);
    let total = 0;
    for (;;) {
      const n = del.run([before]).changes;
      total += n;
      if (n < PRUNE_CHUNK) return total;
      // Between chunks: a listener waiting for the write lock gets it.
      await new Promise((r) => setImmediate(r));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

function rollback(db: Db): void {
  try {
    if (db.inTransaction) db.exec('ROLLBACK');
  } catch {
    // A failed COMMIT may have rolled back already.
  }
}
