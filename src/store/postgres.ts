// The event store in PostgreSQL, so that several listeners on several hosts (behind one load
// balancer) share one history (issue 21). Through the `postgres` client, loaded only here.
// Every batch is one transaction with one multi-row INSERT … ON CONFLICT DO NOTHING RETURNING:
// what comes back is what was new. Two listeners inserting the same event at the same moment:
// the second waits on the first's row lock and then does nothing, so it is stored once and
// acknowledged by both only once it is committed. Rows are inserted in key order, so two
// batches never take the same row locks in opposite orders (no deadlock between listeners); a
// deadlock or serialisation failure all the same is tried again.
import type postgresFn from 'postgres';
import { POSTGRES_SCHEMA, SCHEMA_VERSION } from './schema.js';
import { COLUMNS, EVENT_AT, pageSql, quoted, rowFrom, valuesOf, type BeforeCommit, type EventStore, type PageKey, type StoreQuery } from './store.js';
import { rowKey, type EventRow, type StoredRow } from './row.js';
import { postgresOpenError, StoreError, transientPostgres } from './errors.js';

type Sql = ReturnType<typeof postgresFn>;

const PRUNE_CHUNK = 5_000;
/** Tries of one batch when PostgreSQL reports a deadlock or serialisation failure. */
const TRIES = 3;
/** Held while the schema is made, so listeners starting together do not race on CREATE TABLE. */
const SCHEMA_LOCK = 0x6d61696c; // "mail"
/** Parameter types, in COLUMNS order (numbers as bigint, the payload as json). */
const CASTS: Record<(typeof COLUMNS)[number], string> = {
  channel: 'text', message_id: 'text', event: 'text', recipient: 'text', subject: 'text',
  timestamp: 'bigint', received_at: 'bigint', payload: 'json', signature_header: 'text', signature: 'text',
};

export async function openPostgres(url: string, shown: string, o: { create: boolean }): Promise<EventStore> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, {
    max: 4,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'mailctl' },
  });
  try {
    if (o.create) {
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
        for (const statement of POSTGRES_SCHEMA.split(';').map((s) => s.trim()).filter(Boolean)) await tx.unsafe(statement);
      });
    }
    const [t] = await sql`SELECT to_regclass('events') IS NOT NULL AS events, to_regclass('store_meta') IS NOT NULL AS meta`;
    if (!t.events || !t.meta) throw new StoreError(`The PostgreSQL database ${shown} holds no mailctl event store (no events table).`, 'Events are stored there by `mailctl webhook listen --store URL`.');
    const [v] = await sql`SELECT value FROM store_meta WHERE key = 'schema_version'`;
    if (!(Number(v?.value) <= SCHEMA_VERSION)) throw new StoreError(`The event store ${shown} was made by a newer mailctl (schema ${v?.value}; this one knows ${SCHEMA_VERSION}).`, 'Update mailctl.');
  } catch (e) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw postgresOpenError(e, shown);
  }
  return new PostgresStore(sql, shown);
}

class PostgresStore implements EventStore {
  readonly kind = 'postgres' as const;

  constructor(private readonly sql: Sql, readonly shown: string) {}

  async insert(rows: readonly EventRow[], beforeCommit?: BeforeCommit): Promise<boolean[]> {
    if (!rows.length) return [];
    const order = rows.map((r, i) => ({ r, i, k: rowKey(r) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    const params: Array<string | number | null> = [];
    const tuples = order.map(({ r }) => `(${valuesOf(r).map((v, c) => {
      params.push(v);
      // The payload goes as text and is cast by the server: sent as json, the client would encode it again.
      return CASTS[COLUMNS[c]] === 'json' ? `($${params.length}::text)::json` : `$${params.length}::${CASTS[COLUMNS[c]]}`;
    }).join(', ')})`);
    const text = `INSERT INTO events (${COLUMNS.map(quoted).join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (channel, message_id, event) DO NOTHING RETURNING channel, message_id, event`;
    for (let attempt = 1; ; attempt++) {
      const made: { undo?: void | (() => void) } = {};
      try {
        return await this.sql.begin(async (tx) => {
          const got = await tx.unsafe(text, params as never[]);
          const fresh = new Set(got.map((g) => rowKey({ channel: g.channel, messageId: g.message_id, event: g.event })));
          const inserted = rows.map((r) => fresh.has(rowKey(r)));
          made.undo = await beforeCommit?.(inserted);
          return inserted;
        });
      } catch (e) {
        if (typeof made.undo === 'function') made.undo();
        if (attempt < TRIES && transientPostgres(e)) continue;
        throw e;
      }
    }
  }

  async page(q: StoreQuery, after: PageKey | undefined, limit: number): Promise<StoredRow[]> {
    const { sql, params } = pageSql(q, after, limit, (n) => `$${n}`, 'payload::text');
    const rows = await this.sql.unsafe(sql, params as never[]);
    return rows.map((r) => rowFrom(r as Record<string, unknown>));
  }

  async countOlder(before: number): Promise<number> {
    const [r] = await this.sql.unsafe(`SELECT count(*) AS n FROM events WHERE ${EVENT_AT} < $1::bigint`, [before] as never[]);
    return Number(r.n);
  }

  async pruneOlder(before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const r = await this.sql.unsafe(`DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE ${EVENT_AT} < $1::bigint LIMIT ${PRUNE_CHUNK})`, [before] as never[]);
      total += r.count;
      if (r.count < PRUNE_CHUNK) return total;
    }
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
