// The store's schema, the same columns in SQLite and PostgreSQL (issue 21). Times are epoch
// milliseconds in both (BIGINT / INTEGER), so one query reads both alike; `timestamp` is the
// payload's own (spec 001 section 6, "long"), `received_at` the listener's clock. The unique key
// (channel, message_id, event) is what makes a retried or replayed event one row. `seq` is the
// insertion order (paging, following). store_meta holds the schema version: a store made by a
// newer mailctl is refused rather than written in a shape it does not know.
export const SCHEMA_VERSION = 1;

/** Where the two databases spell a column differently; everything else is one text. */
interface Dialect {
  /** The insertion order, numbered by the database. */
  seq: string;
  /** An epoch-milliseconds time. */
  time: string;
  payload: string;
}

function schema(d: Dialect): string {
  return `
CREATE TABLE IF NOT EXISTS events (
  seq ${d.seq},
  channel TEXT NOT NULL,
  message_id TEXT NOT NULL,
  event TEXT NOT NULL,
  recipient TEXT,
  subject TEXT,
  "timestamp" ${d.time},
  received_at ${d.time} NOT NULL,
  payload ${d.payload} NOT NULL,
  signature_header TEXT,
  signature TEXT,
  UNIQUE (channel, message_id, event)
);
CREATE INDEX IF NOT EXISTS events_event_time ON events (COALESCE("timestamp", received_at));
CREATE INDEX IF NOT EXISTS events_received_at ON events (received_at);
CREATE INDEX IF NOT EXISTS events_recipient ON events (lower(recipient));
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO store_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}') ON CONFLICT (key) DO NOTHING;
`;
}

export const SQLITE_SCHEMA = schema({ seq: 'INTEGER PRIMARY KEY', time: 'INTEGER', payload: 'TEXT' });

// JSON (not JSONB) keeps the payload's text as it was and takes every string JSON can hold
// (JSONB refuses \\u0000), while psql can still read into it: payload->'mail'->>'to'.
export const POSTGRES_SCHEMA = schema({ seq: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', time: 'BIGINT', payload: 'JSON' });
