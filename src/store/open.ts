// Opens the event store a location names (location.ts), loading its database client only now:
// libsql or postgres is read by the commands that use the store, never at start-up.
import type { StoreLocation } from './location.js';
import type { EventStore } from './store.js';

export interface OpenOptions {
  /** The listener creates the store (and its tables); readers refuse a store that is not there. */
  create: boolean;
  /** The config folder: created 0700 when the default store is made in it. */
  configDir?: string;
}

export async function openStore(at: StoreLocation, o: OpenOptions): Promise<EventStore> {
  if (at.kind === 'sqlite') return (await import('./sqlite.js')).openSqlite(at.path, at.shown, { create: o.create, privateDir: o.configDir });
  return (await import('./postgres.js')).openPostgres(at.url, at.shown, { create: o.create });
}
