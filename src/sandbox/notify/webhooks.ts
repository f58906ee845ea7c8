// Webhook registration (spec section 4, decisions row 4) and the payloads the service POSTs when an
// event happens (spec section 6). Delivery itself and the signature header are the core's
// (sandbox.ts); this file decides what is sent and where. Alternate shapes (../shapes.ts):
// webhookList, webhookRefusal and eventField.
import type { Webhook } from './types.js';
import type { Route, SbContext, SbResponse } from '../types.js';
import { renameKey, type SandboxShapes } from '../shapes.js';
import type { EmailRecord, MessageRecord, SmsRecord, TimelineEvent } from './state.js';
import { isObject } from './validate.js';

/** Spec section 2: 3 delivery, 4 open, 5 click, 6 bounce, 7 complaint; SMS only 3 and 6. */
const EMAIL_TYPES: Record<number, string> = { 3: 'delivery', 4: 'open', 5: 'click', 6: 'bounce', 7: 'complaint' };
const SMS_TYPES: Record<number, string> = { 3: 'delivery', 6: 'bounce' };

type Channel = 'email' | 'sms';

function typesOf(channel: Channel): Record<number, string> {
  return channel === 'email' ? EMAIL_TYPES : SMS_TYPES;
}

function typeList(channel: Channel): string {
  const t = Object.entries(typesOf(channel)).map(([n, name]) => `${n} (${name})`);
  return `${t.slice(0, -1).join(', ')} or ${t[t.length - 1]}`;
}

/**
 * 400 body for a bad registration. Email: spec sections 4 and 7 name the array `messages`, its
 * field table `message` (the shape webhookRefusal picks); SMS: its only description names it
 * `message` (spec section 4, SMS webhook registration).
 */
function refused(channel: Channel, reasons: string[], shapes: SandboxShapes): SbResponse {
  const key = channel === 'email' ? shapes.webhookRefusal : 'message';
  return { status: 400, json: { success: false, [key]: reasons } };
}

/** A listing as the shapes say: a list, a lone email webhook as itself, or {"webhooks": […]} (the official CLI's stub, both channels). */
function listing(list: Webhook[], shapes: SandboxShapes, email: boolean): unknown {
  if (shapes.webhookList === 'webhooks') return { webhooks: list };
  return email && shapes.webhookList === 'object' && list.length === 1 ? list[0] : list;
}

function register(channel: Channel): Route['handler'] {
  return async (req, ctx) => {
    const body = await req.json().catch(() => undefined);
    if (!isObject(body)) return refused(channel, ['The body must be a JSON object with type and url.'], ctx.opts.shapes);
    const reasons: string[] = [];
    const type = body.type;
    if (typeof type !== 'number' || !Number.isInteger(type) || !typesOf(channel)[type]) reasons.push(`type must be ${typeList(channel)}.`);
    let host = '';
    try {
      const u = new URL(String(body.url ?? ''));
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      host = u.hostname;
    } catch {
      reasons.push('url must be an http or https URL.');
    }
    if (reasons.length) return refused(channel, reasons, ctx.opts.shapes);
    // Upsert by type: "If no record for the type exists it is created, otherwise replaced."
    // `domain` is not explained by the spec; the sandbox fills in the host of the url.
    const hook: Webhook = { type: type as number, domain: host, url: String(body.url), createDate: new Date(ctx.now).toISOString() };
    const list = ctx.state.notify.webhooks[channel];
    const i = list.findIndex((w) => w.type === hook.type);
    if (i >= 0) list[i] = hook;
    else list.push(hook);
    list.sort((a, b) => a.type - b.type);
    // The official CLI's stub echoes the registration (shapes.ts webhook-set=echo).
    return { status: 200, json: ctx.opts.shapes.webhookSet === 'echo' ? { type: hook.type, url: hook.url } : { success: true } };
  };
}

function unregister(channel: Channel): Route['handler'] {
  return async (req, ctx) => {
    const body = await req.json().catch(() => undefined);
    const type = isObject(body) ? body.type : undefined;
    const list = ctx.state.notify.webhooks[channel];
    const i = list.findIndex((w) => w.type === type);
    // Spec: "200 {success: true}; 500 {success: false}". The sandbox answers 500 for every
    // failure, including a type that is not registered (or not a valid type at all).
    if (i < 0) return { status: 500, json: { success: false } };
    list.splice(i, 1);
    // The official CLI's stub: 204, no body (shapes.ts delete-answer=no-body).
    return ctx.opts.shapes.deleteAnswer === 'no-body' ? { status: 204, body: '' } : { status: 200, json: { success: true } };
  };
}

export const webhookRoutes: Route[] = [
  { service: 'notify', method: 'POST', path: '/v1/webhooks', handler: register('email') },
  // Spec: whether the email listing is one object or a list is "not shown"; a list is the one
  // shape that holds several types, and the SMS listing is documented as one. The shape
  // webhookList 'object' answers a lone webhook as the object itself (several stay a list).
  {
    service: 'notify', method: 'GET', path: '/v1/webhooks',
    handler: (_req, ctx) => {
      const list = ctx.state.notify.webhooks.email;
      return { status: 200, json: listing(list, ctx.opts.shapes, true) };
    },
  },
  { service: 'notify', method: 'DELETE', path: '/v1/webhooks', handler: unregister('email') },
  { service: 'notify', method: 'POST', path: '/v1/sms/webhooks', handler: register('sms') },
  { service: 'notify', method: 'GET', path: '/v1/sms/webhooks', handler: (_req, ctx) => ({ status: 200, json: listing(ctx.state.notify.webhooks.sms, ctx.opts.shapes, false) }) },
  { service: 'notify', method: 'DELETE', path: '/v1/sms/webhooks', handler: unregister('sms') },
];

/** Queue the signed POST for an event, when a webhook of its type is registered. */
export function fireWebhook(ctx: SbContext, m: MessageRecord, e: TimelineEvent): void {
  const entry = Object.entries(typesOf(m.channel)).find(([, name]) => name === e.status);
  if (!entry) return; // accept and retry have no webhook type
  const hook = ctx.state.notify.webhooks[m.channel].find((w) => w.type === Number(entry[0]));
  if (!hook) return;
  // The event name under `event` (spec section 6) or `eventType` (decisions row 15), per the shapes.
  const body = renameKey(m.channel === 'email' ? emailPayload(m, e) : smsPayload(m, e), 'event', ctx.opts.shapes.eventField);
  // Spec section 5: sign id + event with the notification API key; id is mail.id / sms_data.id.
  ctx.queueWebhook({ url: hook.url, body, sign: { key: ctx.opts.keys.notify, message: m.id + e.status }, dueAt: ctx.now });
}

/** Spec section 6, email payload. `timestamp` is epoch milliseconds (spec: "long"). */
function emailPayload(m: EmailRecord, e: TimelineEvent): Record<string, unknown> {
  const r = e.raw;
  const detail: Record<string, unknown> = { timestamp: e.at };
  if (e.status === 'open') detail.client_headers = r.clientHeaders;
  if (e.status === 'click') Object.assign(detail, { sort: r.sort, link_url: r.linkUrl, client_headers: r.clientHeaders });
  // The webhook's bounce type is a number, the lookup's rawEvent type a string (spec tables).
  if (e.status === 'bounce') Object.assign(detail, { code: r.code, type: Number(r.type), reason: r.reason });
  return {
    event: e.status,
    mail: { id: m.id, subject: m.subject, content: m.content, from: m.fromAddress, to: m.address, variables: m.variables },
    [e.status]: detail,
  };
}

/** Spec section 6, SMS payload. */
function smsPayload(m: SmsRecord, e: TimelineEvent): Record<string, unknown> {
  const r = e.raw;
  const detail = e.status === 'delivery' ? { timestamp: e.at, point: r.point, srcaddr: r.srcaddr } : { timestamp: e.at, code: r.code, reason: r.reason };
  return {
    event: e.status,
    sms_data: { id: m.id, content: m.content, recipient: m.recipient, address: m.address, country_code: m.countryCode, variables: m.variables, alive_mins: m.aliveMins },
    [e.status]: detail,
  };
}
