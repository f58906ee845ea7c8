// Where the event store is (issue 21): `--store sqlite:PATH`, `--store postgres://…` (or
// postgresql://), or by default one SQLite file in the config folder. Parsed here once for every
// command that opens the store (webhook listen, events --history/tail/export/prune, contacts
// clean --history). A PostgreSQL URL may carry a password: it is never shown — `shown` is the
// URL without it, and messages name only that.
import path from 'node:path';
import { UsageError } from '../core/errors.js';

/** The default store's file name inside the config folder. */
export const DEFAULT_STORE_FILE = 'events.db';

export type StoreLocation =
  | { kind: 'sqlite'; path: string; shown: string }
  | { kind: 'postgres'; url: string; shown: string };

/** `value` (the --store flag) or the default file in `configDir`; a bad value is a UsageError. */
export function storeLocation(value: string | undefined, configDir: string, flag = '--store'): StoreLocation {
  if (value === undefined) {
    const file = path.join(configDir, DEFAULT_STORE_FILE);
    return { kind: 'sqlite', path: file, shown: `sqlite:${file}` };
  }
  const v = value.trim();
  if (/^sqlite:/i.test(v)) {
    const file = v.slice('sqlite:'.length);
    if (!file) throw new UsageError(`${flag} sqlite: needs a file, as in ${flag} sqlite:/var/lib/mailctl/events.db.`);
    if (file === ':memory:') throw new UsageError(`${flag} sqlite::memory: would keep nothing once the run ends; give a file.`);
    const resolved = path.resolve(file);
    return { kind: 'sqlite', path: resolved, shown: `sqlite:${resolved}` };
  }
  if (/^postgres(ql)?:\/\//i.test(v)) {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      throw new UsageError(`${flag} "${hidePassword(v)}" is not a URL; give one such as postgres://user@db.example.com:5432/mailctl.`);
    }
    if (!u.hostname && !u.searchParams.get('host')) throw new UsageError(`${flag} "${hidePassword(v)}" names no host; give one such as postgres://user@db.example.com:5432/mailctl.`);
    return { kind: 'postgres', url: v, shown: hidePassword(v) };
  }
  throw new UsageError(`${flag} takes sqlite:PATH or a postgres://… URL; got "${hidePassword(v)}".`, `For example ${flag} sqlite:./events.db, or ${flag} postgres://mailctl@db.example.com/mailctl (the password in PGPASSWORD).`);
}

/**
 * The URL with any password left out, for a command line a person pastes (the password then comes
 * from PGPASSWORD or ~/.pgpass, as the client reads them); undefined when it holds none.
 */
export function withoutPassword(url: string): string | undefined {
  const bare = url.replace(PASSWORD, '$1@');
  return bare === url ? undefined : bare;
}

/** The URL with any password replaced by ***, for messages (also when it does not parse). */
export function hidePassword(url: string): string {
  return url.replace(PASSWORD, '$1:***@');
}

/** scheme://user:PASSWORD@ — the user kept as $1. */
const PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i;
