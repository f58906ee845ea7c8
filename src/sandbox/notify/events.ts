// Delivery-status lookup: GET /v1/events (email) and GET /v1/sms/events (spec section 4).
// Errors are 400 {error: string} (spec section 7: "event lookup failure").
//
// Email lookup — the spec shows the query names but says the meaning of each is "not shown",
// and "Retention window and row cap of email event lookup: not shown". Sandbox choices:
//   from / to   bounds on eventTime, both inclusive, no default (everything retained);
//   id          a message id (success[].id) — or the request id, which selects all its messages;
//   recipient   the recipient address, case-insensitive;
//   retention   30 days, like SMS; no row cap (limits.emailLookupRows sets one). Rows are in time order.
// A date-only `to` (2024-05-01) means the end of that day, so a one-day range works.
import type { SandboxShapes } from '../shapes.js';
import type { EmailEvent, SmsEvent } from './types.js';
import type { Route, SbRequest, SbResponse } from '../types.js';
import type { EmailRecord, SmsRecord, TimelineEvent } from './state.js';
import { parseStatuses, parseTime } from './validate.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec section 8: SMS lookup covers "only the last 30 days"; the sandbox keeps email as long. */
export const RETENTION_MS = 30 * DAY_MS;
/** Spec section 8: "at most the first 50 rows returned". */
export const SMS_ROW_CAP = 50;

const EMAIL_STATUSES = ['accept', 'retry', 'delivery', 'open', 'click', 'bounce', 'complaint'] as const;
const SMS_STATUSES = ['accept', 'delivery', 'bounce'] as const;

const fail = (error: string): SbResponse => ({ status: 400, json: { error } });
const iso = (t: number) => new Date(t).toISOString();

interface Range { from?: number; to?: number; statuses?: Set<string> }

/** from, to and status, checked; a string is the error. */
function commonFilters(req: SbRequest, allowed: readonly string[]): Range | string {
  const from = parseTime(req.query.get('from'));
  const toRaw = req.query.get('to');
  let to = parseTime(toRaw);
  if (Number.isNaN(from)) return `from "${req.query.get('from')}" is not a UTC ISO 8601 time (for example 2024-05-01T00:00:00Z).`;
  if (Number.isNaN(to)) return `to "${toRaw}" is not a UTC ISO 8601 time (for example 2024-05-31T23:59:59Z).`;
  if (to !== undefined && toRaw && toRaw.length === 10) to += DAY_MS - 1;
  if (from !== undefined && to !== undefined && from > to) return 'from must not be later than to.';
  const st = parseStatuses(req.query.get('status'), allowed);
  if (st.unknown) return `Unknown status ${st.unknown.map((s) => `"${s}"`).join(', ')}; use a comma-separated list among ${allowed.join(', ')}.`;
  return { from, to, statuses: st.set };
}

function inRange(e: TimelineEvent, r: Range, oldest: number): boolean {
  return !!e.logged && e.at >= oldest && (r.from === undefined || e.at >= r.from) && (r.to === undefined || e.at <= r.to) && (!r.statuses || r.statuses.has(e.status));
}

function emailLookup(req: SbRequest, ctx: Parameters<Route['handler']>[1]): SbResponse {
  const r = commonFilters(req, EMAIL_STATUSES);
  if (typeof r === 'string') return fail(r);
  const id = req.query.get('id') || undefined;
  const recipient = req.query.get('recipient')?.trim().toLowerCase() || undefined;
  const oldest = ctx.now - RETENTION_MS;
  const rows: Array<EmailEvent & { at: number }> = [];
  for (const m of Object.values(ctx.state.notify.messages)) {
    if (m.channel !== 'email') continue;
    if (id && m.id !== id && m.requestId !== id) continue;
    if (recipient && m.address.toLowerCase() !== recipient) continue;
    for (const e of m.events) if (inRange(e, r, oldest)) rows.push({ ...emailEntry(m, e), at: e.at });
  }
  const cap = ctx.opts.limits.emailLookupRows;
  return { status: 200, json: logsBody(cap ? sorted(rows).slice(0, cap) : sorted(rows), ctx.opts.shapes) };
}

/**
 * Spec section 2, email event log entry. Which of from/sender and to/recipient is which is not
 * explained; the sandbox puts the addresses in from/to, the sender name (fromName, or the local
 * part of fromAddress when absent) in sender, and the recipient's name (else address) in recipient.
 */
function emailEntry(m: EmailRecord, e: TimelineEvent): EmailEvent {
  return {
    messageId: m.id,
    status: e.status,
    mail: { subject: m.subject, content: m.content, from: m.fromAddress, to: m.address, sender: m.fromName, recipient: m.name ?? m.address, variables: m.variables },
    eventTime: iso(e.at),
    rawEvent: { ...e.raw },
  };
}

const digits = (s: string) => s.trim().replace(/^\+/, '');
/** National form without trunk zeros, so 0912345678 and 912345678 are the same phone. */
export const nationalKey = (s: string) => digits(s).replace(/^0+/, '');

function smsLookup(req: SbRequest, ctx: Parameters<Route['handler']>[1]): SbResponse {
  const r = commonFilters(req, SMS_STATUSES);
  if (typeof r === 'string') return fail(r);
  const id = req.query.get('id') || undefined;
  const recipient = req.query.get('recipient') || undefined;
  const cc = req.query.get('country_code') || undefined;
  // "use either this or recipient with country_code"; "When id and recipient are both given, id wins."
  if (!id && !recipient) return fail('Give id, or recipient together with country_code.');
  if (!id && !cc) return fail('country_code is needed with recipient (for example country_code=886).');
  // from: "default: one month before to, or one month before today when to is absent";
  // to: "default: one month after from, or today when from is absent".
  if (r.from === undefined && r.to === undefined) r.to = ctx.now;
  if (r.from === undefined) r.from = addMonths(r.to!, -1);
  if (r.to === undefined) r.to = addMonths(r.from, 1);
  const oldest = ctx.now - RETENTION_MS; // "only the last 30 days"
  const rows: Array<SmsEvent & { at: number }> = [];
  for (const m of Object.values(ctx.state.notify.messages)) {
    if (m.channel !== 'sms') continue;
    if (id ? m.id !== id : digits(m.countryCode) !== digits(cc!) || nationalKey(m.address) !== nationalKey(recipient!)) continue;
    for (const e of m.events) if (inRange(e, r, oldest)) rows.push({ ...smsEntry(m, e), at: e.at });
  }
  return { status: 200, json: logsBody(sorted(rows).slice(0, SMS_ROW_CAP), ctx.opts.shapes) };
}

/**
 * {logs: […]} as the spec shows; the official CLI's stub (shapes.ts event-list=events):
 * {events: […], total}, each entry's messageId as `id` and eventTime as `timestamp`.
 */
function logsBody(rows: Array<{ messageId?: string; eventTime?: string }>, shapes: SandboxShapes): unknown {
  if (shapes.eventList !== 'events') return { logs: rows };
  return { events: rows.map(({ messageId, eventTime, ...rest }) => ({ id: messageId, timestamp: eventTime, ...rest })), total: rows.length };
}

/** Spec section 2, SMS event log entry. */
function smsEntry(m: SmsRecord, e: TimelineEvent): SmsEvent {
  return {
    messageId: m.id, recipient: m.recipient, address: m.address, countryCode: m.countryCode, status: e.status, content: m.content,
    eventTime: iso(e.at), alive_mins: m.aliveMins, variables: m.variables, rawEvent: { ...e.raw },
  };
}

function addMonths(t: number, n: number): number {
  const d = new Date(t);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.getTime();
}

function sorted<T extends { at: number }>(rows: T[]): Array<Omit<T, 'at'>> {
  return rows.sort((a, b) => a.at - b.at).map(({ at: _at, ...row }) => row);
}

export const eventRoutes: Route[] = [
  { service: 'notify', method: 'GET', path: '/v1/events', handler: emailLookup },
  { service: 'notify', method: 'GET', path: '/v1/sms/events', handler: smsLookup },
];
