// Webhook signatures (spec 001 section 5, decisions rows 14 and 15): hex HMAC-SHA256 of the message
// id followed by the event name, keyed with the notification API key, compared in constant time.
import crypto from 'node:crypto';
import { plainSuggest, type Suggest } from '../cli/suggest.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';

/** decisions row 14: the spec names the first, all public code the second; accept either. */
export const SIGNATURE_HEADERS = ['x-service-signature', 'x-surenotify-signature'] as const;

/**
 * The event names the service signs, per channel (spec 001 section 6, kept verbatim in
 * docs/spec/notify-excerpts.txt; test/spec-data.test.ts checks these against it): email delivery,
 * open, click, bounce, complaint; SMS delivery, bounce.
 *
 * The signed text is id + event with nothing between, so one signature fits every other split of
 * the same text: the MAC of "M1" + "delivery" also verifies "M1d" + "elivery". Only an event
 * named in this list is taken, and no name here ends another (the test checks that too), so the
 * list leaves exactly one split: the one the service signed.
 */
export const SIGNED_EVENTS: Readonly<Record<'email' | 'sms', readonly string[]>> = {
  email: Object.keys(EMAIL_WEBHOOK_TYPES),
  sms: Object.keys(SMS_WEBHOOK_TYPES),
};

export interface SignedFields {
  /** `mail.id` (email) or `sms_data.id` (SMS). */
  id?: string;
  /** `event`, falling back to `eventType` (decisions row 15). */
  event?: string;
  /** Where each was found, for explanations. */
  idField?: string;
  eventField?: string;
  channel?: 'email' | 'sms';
}

export function signedFields(payload: unknown): SignedFields {
  const o = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  const out: SignedFields = {};
  const mail = o.mail as Record<string, unknown> | undefined;
  const sms = o.sms_data as Record<string, unknown> | undefined;
  if (mail && typeof mail === 'object' && mail.id !== undefined && mail.id !== null) Object.assign(out, { id: String(mail.id), idField: 'mail.id', channel: 'email' });
  else if (sms && typeof sms === 'object' && sms.id !== undefined && sms.id !== null) Object.assign(out, { id: String(sms.id), idField: 'sms_data.id', channel: 'sms' });
  if (typeof o.event === 'string' && o.event) Object.assign(out, { event: o.event, eventField: 'event' });
  else if (typeof o.eventType === 'string' && o.eventType) Object.assign(out, { event: o.eventType, eventField: 'eventType' });
  return out;
}

export function sign(key: string, id: string, event: string): string {
  return crypto.createHmac('sha256', key).update(id + event).digest('hex');
}

/** The signature the service would send with `payload` (its mail.id / sms_data.id and event), or why there is none. */
export function signPayload(key: string, payload: unknown): { signature: string; id: string; event: string; fields: SignedFields } | { problem: string; fields: SignedFields } {
  const fields = signedFields(payload);
  if (!fields.id) return { problem: 'it has no message id (mail.id or sms_data.id)', fields };
  if (!fields.event) return { problem: 'it has no event name (event or eventType)', fields };
  return { signature: sign(key, fields.id, fields.event), id: fields.id, event: fields.event, fields };
}

/**
 * Why `fields`' event is not one the service signs for its channel (spec 001 section 6), or
 * undefined when it is. Checked before any signature: see SIGNED_EVENTS.
 */
export function unsignedEvent(fields: SignedFields): string | undefined {
  const channel = fields.channel ?? 'email';
  if (fields.event !== undefined && SIGNED_EVENTS[channel].includes(fields.event)) return undefined;
  const shown = (fields.event ?? '').length > 60 ? `${fields.event!.slice(0, 60)}…` : fields.event;
  return `the event "${shown}" is not one the service sends for ${channel === 'sms' ? 'SMS' : 'email'} (${SIGNED_EVENTS[channel].join(', ')})`;
}

/** Constant-time comparison of two hex signatures; anything not 64 hex digits never matches. */
export function sameSignature(expected: string, given: string): boolean {
  const g = given.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(g)) return false;
  return crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(g, 'hex'));
}

export type Verdict =
  | { valid: true; id: string; event: string; fields: SignedFields }
  | { valid: false; reason: string; causes: string[]; fields: SignedFields };

/** Checks one payload against one signature value, explaining a mismatch. */
export function verifyPayload(key: string, payload: unknown, signature: string | undefined, cmd: Suggest = plainSuggest): Verdict {
  const fields = signedFields(payload);
  if (!signature || !signature.trim()) return { valid: false, reason: 'no signature was given', causes: ['The request had no x-service-signature (or x-surenotify-signature) header.'], fields };
  if (!fields.id) return { valid: false, reason: 'the payload has no message id (mail.id or sms_data.id)', causes: ['The body is not a webhook payload of the notification service, or it was changed.'], fields };
  if (!fields.event) return { valid: false, reason: 'the payload has no event name (event or eventType)', causes: ['The body is not a webhook payload of the notification service, or it was changed.'], fields };
  const unknown = unsignedEvent(fields);
  if (unknown) return { valid: false, reason: unknown, causes: ['The service signs only these event names; a body whose id and event split the signed text another way (mail.id "M1d" with event "elivery" for "M1" + "delivery") is forged or changed.'], fields };
  if (sameSignature(sign(key, fields.id, fields.event), signature)) return { valid: true, id: fields.id, event: fields.event, fields };
  const causes: string[] = [];
  if (!/^[0-9a-fA-F]{64}$/.test(signature.trim())) causes.push(`The signature is not 64 hex digits (got ${signature.trim().length} characters): copy the whole header value.`);
  causes.push(`The key differs: the signature is made with the notification-service key of the account that registered the webhook (check the profile: \`${cmd('config', 'list')}\`).`);
  causes.push(`The body was changed after signing, or the id/event is not the one signed (used ${fields.idField}="${fields.id}" and ${fields.eventField}="${fields.event}").`);
  return { valid: false, reason: 'the signature does not match', causes, fields };
}

/** The signature header of a request, whichever of the two names it came under. */
export function signatureHeader(headers: Record<string, string | string[] | undefined>): { name: string; value: string } | undefined {
  for (const name of SIGNATURE_HEADERS) {
    const v = headers[name];
    if (v !== undefined) return { name, value: Array.isArray(v) ? v[0] : v };
  }
  return undefined;
}
