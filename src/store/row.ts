// One verified webhook event as the store keeps it (issue 21): one schema for SQLite and
// PostgreSQL — channel, message id, event, recipient, subject, the event's timestamp, when it was
// received, and the payload as JSON — plus the signature it came with (so an export can be
// replayed exactly as `webhook listen --out` lines are). (channel, message id, event) is the
// event's identity: the signature covers only the id and the event name (spec 001 section 5,
// decisions row 14), so a copy with other payload fields is still the same event.
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';

export type Channel = 'email' | 'sms';

export interface EventRow {
  channel: Channel;
  messageId: string;
  /** The event's name (delivery, open, click, bounce, complaint), a type code read as its name. */
  event: string;
  /** email: mail.to; SMS: sms_data.recipient, else country code + address. */
  recipient: string | null;
  /** email: mail.subject; SMS: none. */
  subject: string | null;
  /** The payload's `<event>.timestamp` (epoch ms, spec 001 section 6 "long"), when it is a number. */
  timestamp: number | null;
  /** When the listener received it, epoch ms. */
  receivedAt: number;
  /** The payload, JSON text. */
  payload: string;
  signatureHeader: string | null;
  signature: string | null;
}

/** A row read back: with its place in the store (insertion order). */
export interface StoredRow extends EventRow {
  seq: number;
}

/** The event's own time when it has one, else when it was received: what ranges and ages use. */
export const eventTime = (r: EventRow): number => r.timestamp ?? r.receivedAt;

/** The identity a repeat shares. */
export const rowKey = (r: Pick<EventRow, 'channel' | 'messageId' | 'event'>): string => JSON.stringify([r.channel, r.messageId, r.event]);

/**
 * The row for a verified payload. `id`/`event` are what the signature check found (its verdict),
 * `channel` where it found the id; a type code (3–7) stands for its event name (decisions row 27),
 * so the same event sent both ways is one row.
 */
export function rowOf(payload: unknown, v: { id: string; event: string; channel?: Channel }, receivedAt: number, sig?: { name: string; value: string }): EventRow {
  const p = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  const channel: Channel = v.channel ?? (isObject(p.sms_data) && !isObject(p.mail) ? 'sms' : 'email');
  const event = eventName(v.event, channel);
  const detail = p[event];
  const ts = isObject(detail) ? detail.timestamp : undefined;
  let recipient: string | null = null;
  let subject: string | null = null;
  if (channel === 'email' && isObject(p.mail)) {
    recipient = text(p.mail.to);
    subject = text(p.mail.subject);
  } else if (channel === 'sms' && isObject(p.sms_data)) {
    const s = p.sms_data;
    recipient = text(s.recipient) ?? (text(s.address) !== null ? `${text(s.country_code) ?? ''}${text(s.address)}` : null);
  }
  return {
    channel,
    messageId: noNul(v.id),
    event: noNul(event),
    recipient,
    subject,
    timestamp: typeof ts === 'number' && Number.isSafeInteger(ts) ? ts : null,
    receivedAt,
    payload: JSON.stringify(payload),
    signatureHeader: sig?.name ?? null,
    signature: sig?.value ?? null,
  };
}

/** `3` → `delivery` for the channel's webhook types; a name stays as it is. */
export function eventName(event: string, channel: Channel): string {
  if (!/^\d+$/.test(event)) return event;
  const types: Record<string, number> = channel === 'sms' ? SMS_WEBHOOK_TYPES : EMAIL_WEBHOOK_TYPES;
  return Object.entries(types).find(([, n]) => n === Number(event))?.[0] ?? event;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

// PostgreSQL text cannot hold U+0000: every text column gets U+FFFD there instead, on both
// backends alike (the payload keeps it, escaped in its JSON).
const noNul = (s: string): string => s.replace(/\u0000/g, '\ufffd');

function text(v: unknown): string | null {
  if (typeof v === 'string') return noNul(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return null;
}
