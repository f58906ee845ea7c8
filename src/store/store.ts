// The event store's one interface (issue 21), over SQLite (sqlite.ts) or PostgreSQL
// (postgres.ts), opened by open.ts. One schema (schema.ts), one query builder (this file), so
// both answer the same question the same way.
import type { Channel, EventRow, StoredRow } from './row.js';

export interface StoreQuery {
  channel?: Channel;
  id?: string;
  /** Compared with the recipient column without regard to letter case. */
  recipient?: string;
  /** The recipient column ends with these digits (an SMS number; the caller checks the payload). */
  recipientDigits?: string;
  events?: readonly string[];
  /** Inclusive bounds in epoch ms, on the time `by` names. */
  since?: number;
  until?: number;
  /** 'event': the event's own timestamp (its receipt when it has none); 'received': its receipt. */
  by: 'event' | 'received';
}

/** Where a page ends: the next page starts after this row. */
export interface PageKey {
  at: number;
  seq: number;
}

/**
 * Called inside the transaction of an insert, after the rows are written and before COMMIT, with
 * which of them were new. It may write their extra copies (the --out JSONL file) and throw to
 * roll the whole batch back; what it returns is called if the COMMIT then fails (to undo them).
 */
export type BeforeCommit = (inserted: boolean[]) => void | (() => void) | Promise<void | (() => void)>;

export interface EventStore {
  readonly kind: 'sqlite' | 'postgres';
  /** sqlite:/path or the URL without its password. */
  readonly shown: string;
  /**
   * Inserts the rows in ONE transaction (one commit, one fsync), each at most once: a row whose
   * (channel, message id, event) is already stored is left out (ON CONFLICT DO NOTHING), also
   * when another listener is inserting it at the same moment. Returns which rows were new.
   * Resolves only after the commit; throws (nothing of the batch kept) when it cannot commit.
   */
  insert(rows: readonly EventRow[], beforeCommit?: BeforeCommit): Promise<boolean[]>;
  /** Up to `limit` rows matching `q`, ordered by (time, seq), after `after`. */
  page(q: StoreQuery, after: PageKey | undefined, limit: number): Promise<StoredRow[]>;
  /** Rows whose event time is before `before` (epoch ms). */
  countOlder(before: number): Promise<number>;
  /** Deletes them, in short transactions; returns how many. */
  pruneOlder(before: number): Promise<number>;
  close(): Promise<void>;
}

/** Every row of `q` in order, a page at a time (memory stays at one page). */
export async function* allRows(store: EventStore, q: StoreQuery, pageSize = 1000): AsyncGenerator<StoredRow> {
  let after: PageKey | undefined;
  for (;;) {
    const rows = await store.page(q, after, pageSize);
    for (const r of rows) yield r;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = { at: timeOf(last, q.by), seq: last.seq };
  }
}

export const timeOf = (r: EventRow, by: StoreQuery['by']): number => (by === 'received' ? r.receivedAt : r.timestamp ?? r.receivedAt);

export const COLUMNS = ['channel', 'message_id', 'event', 'recipient', 'subject', 'timestamp', 'received_at', 'payload', 'signature_header', 'signature'] as const;

/** A row's values in COLUMNS order. */
export const valuesOf = (r: EventRow): Array<string | number | null> => [r.channel, r.messageId, r.event, r.recipient, r.subject, r.timestamp, r.receivedAt, r.payload, r.signatureHeader, r.signature];

export const quoted = (c: string): string => `"${c}"`;

const AT = { event: 'COALESCE("timestamp", received_at)', received: 'received_at' } as const;

/**
 * The SELECT for a page, with `ph(n)` making the n-th placeholder (`?` for SQLite, `$n` for
 * PostgreSQL). `payloadAsText` wraps the payload for a backend that stores it as JSON.
 */
export function pageSql(q: StoreQuery, after: PageKey | undefined, limit: number, ph: (n: number) => string, payloadAsText = 'payload'): { sql: string; params: Array<string | number> } {
  const params: Array<string | number> = [];
  const p = (v: string | number) => {
    params.push(v);
    return ph(params.length);
  };
  const at = AT[q.by];
  const where: string[] = [];
  if (q.channel) where.push(`channel = ${p(q.channel)}`);
  if (q.id !== undefined) where.push(`message_id = ${p(q.id)}`);
  if (q.recipient !== undefined) where.push(`lower(recipient) = lower(${p(q.recipient)})`);
  if (q.recipientDigits !== undefined) where.push(`recipient LIKE ${p(`%${q.recipientDigits.replace(/[%_\\]/g, '')}`)}`);
  if (q.events?.length) where.push(`event IN (${q.events.map((e) => p(e)).join(', ')})`);
  if (q.since !== undefined) where.push(`${at} >= ${p(q.since)}`);
  if (q.until !== undefined) where.push(`${at} <= ${p(q.until)}`);
  if (after) {
    const a = p(after.at);
    where.push(`(${at} > ${a} OR (${at} = ${p(after.at)} AND seq > ${p(after.seq)}))`);
  }
  const cols = ['seq', ...COLUMNS.map((c) => (c === 'payload' ? `${payloadAsText} AS payload` : quoted(c)))].join(', ');
  const sql = `SELECT ${cols} FROM events${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${at}, seq LIMIT ${p(limit)}`;
  return { sql, params };
}

/** A row as read back (both backends name the columns alike; numbers may come as text or bigint). */
export function rowFrom(r: Record<string, unknown>): StoredRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    seq: Number(r.seq),
    channel: r.channel === 'sms' ? 'sms' : 'email',
    messageId: String(r.message_id),
    event: String(r.event),
    recipient: str(r.recipient),
    subject: str(r.subject),
    timestamp: num(r.timestamp),
    receivedAt: Number(r.received_at),
    payload: String(r.payload),
    signatureHeader: str(r.signature_header),
    signature: str(r.signature),
  };
}

/** Time-ordered deletes and counts use the same expression as queries. */
export const EVENT_AT = AT.event;
