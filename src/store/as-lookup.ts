// Stored webhook events in the shape of the service's event lookup (spec 001's logs entries), so
// `events --history` prints, and scripts read, the same fields whichever source answered; each
// also says when it was received and on which channel. The webhook's detail object (snake_case:
// link_url, client_headers) becomes the lookup's rawEvent (camelCase), without its timestamp.
import type { EmailEvent, SmsEvent } from '../api/notify-types.js';
import type { StoredRow } from './row.js';

export type HistoryEmailEvent = EmailEvent & { channel: 'email'; receivedAt: string };
export type HistorySmsEvent = SmsEvent & { channel: 'sms'; receivedAt: string };

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `v` when it is a JSON object (not an array), else an empty one: a payload's parts are hostile. */
function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function parsed(r: StoredRow): Record<string, unknown> {
  try {
    return record(JSON.parse(r.payload));
  } catch {
    return {};
  }
}

function rawEvent(p: Record<string, unknown>, event: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record(p[event]))) if (k !== 'timestamp') out[camel(k)] = k === 'type' && typeof v === 'number' ? String(v) : v;
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** When it happened (the payload's own time, else its receipt) and when it was received. */
const times = (r: StoredRow) => ({ eventTime: iso(r.timestamp ?? r.receivedAt), receivedAt: iso(r.receivedAt) });

export function asEmailEvent(r: StoredRow): HistoryEmailEvent {
  const p = parsed(r);
  const mail = record(p.mail);
  return {
    channel: 'email',
    messageId: r.messageId,
    status: r.event,
    ...times(r),
    mail: { subject: str(mail.subject), from: str(mail.from), to: str(mail.to) },
    rawEvent: rawEvent(p, r.event),
  };
}

export function asSmsEvent(r: StoredRow): HistorySmsEvent {
  const p = parsed(r);
  const s = record(p.sms_data);
  return {
    channel: 'sms',
    messageId: r.messageId,
    recipient: str(s.recipient),
    address: str(s.address),
    countryCode: str(s.country_code),
    status: r.event,
    content: str(s.content),
    ...times(r),
    rawEvent: rawEvent(p, r.event),
  };
}

/** The number without leading zeros (0912345678 and 912345678 are one national number). */
const national = (v: string | undefined) => (v ?? '').replace(/\D/g, '').replace(/^0+/, '');

/** An SMS event to `number` (national form), with `countryCode` when given. */
export function smsTo(e: HistorySmsEvent, number: string, countryCode?: string): boolean {
  if (countryCode !== undefined && national(e.countryCode) !== national(countryCode)) return false;
  return national(e.address) === national(number) || (e.recipient !== undefined && national(e.recipient).endsWith(national(number)) && national(number).length > 0 && (countryCode === undefined || national(e.recipient) === national(countryCode) + national(number)));
}
