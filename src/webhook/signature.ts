// Webhook signatures: hex HMAC-SHA256 of the message id followed by the event, keyed with the
// notification API key, compared in constant time (spec 001 section 5, decisions rows 14 and 15).
//
// Decisions row 27 (the vendor's reference, docs/spec/vendor-excerpts.txt): the id may be stated in
// `mail.id`, `sms_data.id` or a top-level `id`, the event in `event` or `eventType`, as its name
// (`delivery`) or its type code (3), and the vendor's troubleshooting page signs the id followed by
// the code (`"msg-123" + "3"`). A genuine event in any of these forms must never be refused — a
// refused webhook is an event lost — so a signature is checked against every (id, event) the
// payload itself states, the event signed as its name and as its code, and accepted when one
// matches. Where to look is data with its source (src/spec/webhook-signing.ts); only documented
// events are candidates (SIGNED_EVENTS and their codes), which keeps the signed text to one split.
import crypto from 'node:crypto';
import { plainSuggest, type Suggest } from '../core/suggest.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';
import { EVENT_FIELDS, EVENT_TYPE_CODES, ID_FIELDS, SIGNATURE_HEADERS } from '../spec/webhook-signing.js';

/** decisions row 14: the spec names the first, the vendor's reference the second; accept either. */
export { SIGNATURE_HEADERS };

/**
 * The event names the service signs, per channel (spec 001 section 6, kept verbatim in
 * docs/spec/notify-excerpts.txt; test/spec-data.test.ts checks these against it): email delivery,
 * open, click, bounce, complaint; SMS delivery, bounce.
 *
 * The signed text is id + event with nothing between, so one signature fits every other split of
 * the same text: the MAC of "M1" + "delivery" also verifies "M1d" + "elivery". Only an event named
 * in this list, or its one-digit type code, is taken; no name here ends another (the test checks
 * that too), and a name ends in a letter where a code is one digit, so each signed text has
 * exactly one split: the one the service signed.
 */
export const SIGNED_EVENTS: Readonly<Record<'email' | 'sms', readonly string[]>> = {
  email: Object.keys(EMAIL_WEBHOOK_TYPES),
  sms: Object.keys(SMS_WEBHOOK_TYPES),
};

/** How the event went into the signed text: its name, or its type code (the vendor's troubleshooting page). */
export type SignedAs = 'name' | 'code';

export interface SignedFields {
  /** The message id that verified (or, before a check, the first one the payload states). */
  id?: string;
  /** The event's name (`delivery`), also when the payload states it as a type code. */
  event?: string;
  /** Where each was found, for explanations: `mail.id`, `sms_data.id` or `id`; `event` or `eventType`. */
  idField?: string;
  eventField?: string;
  /** `mail` makes it email, `sms_data` SMS; a payload with neither (a top-level id alone) names none. */
  channel?: 'email' | 'sms';
  /** How the event is stated in the payload (or, after a check, how it was signed). */
  signedAs?: SignedAs;
}

interface IdCandidate {
  value: string;
  field: string;
}

interface EventCandidate {
  /** The documented name. */
  name: string;
  field: string;
  stated: SignedAs;
}

/** What a payload states that may have been signed. */
export interface Candidates {
  channel?: 'email' | 'sms';
  ids: IdCandidate[];
  events: EventCandidate[];
  /** Event fields present whose value is no documented name or code for the channel. */
  undocumented: Array<{ field: string; value: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An id as text: a non-empty string, or a whole number as its digits; anything else is no id. */
function idText(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

const NAME_OF_CODE = new Map(Object.entries(EVENT_TYPE_CODES).map(([name, code]) => [code, name]));

/** The documented event a field's value states (a name, or a code 3–7 as a number or one digit), for this channel. */
function eventOf(v: unknown, channel: 'email' | 'sms' | undefined): { name: string; stated: SignedAs } | undefined {
  // Without mail or sms_data the channel is unknown: every email event (SMS's are among them).
  const names = SIGNED_EVENTS[channel ?? 'email'];
  if (typeof v === 'string' && names.includes(v)) return { name: v, stated: 'name' };
  const code = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]$/.test(v) ? Number(v) : NaN;
  const name = NAME_OF_CODE.get(code);
  return name !== undefined && names.includes(name) ? { name, stated: 'code' } : undefined;
}

/** Every id and documented event the payload states, in the order of src/spec/webhook-signing.ts. */
export function candidatesOf(payload: unknown): Candidates {
  const o = isObject(payload) ? payload : {};
  const channel = isObject(o.mail) ? 'email' : isObject(o.sms_data) ? 'sms' : undefined;
  const ids: IdCandidate[] = [];
  for (const path of ID_FIELDS) {
    let v: unknown = o;
    for (const k of path) v = isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
    const value = idText(v);
    if (value !== undefined && !ids.some((c) => c.value === value)) ids.push({ value, field: path.join('.') });
  }
  const events: EventCandidate[] = [];
  const undocumented: Candidates['undocumented'] = [];
  for (const field of EVENT_FIELDS) {
    if (!Object.hasOwn(o, field) || o[field] === undefined || o[field] === null || o[field] === '') continue;
    const e = eventOf(o[field], channel);
    if (!e) undocumented.push({ field, value: typeof o[field] === 'string' ? (o[field] as string) : JSON.stringify(o[field]) });
    else if (!events.some((c) => c.name === e.name)) events.push({ ...e, field });
  }
  return { channel, ids, events, undocumented };
}

/** The first id and event the payload states: what a listener stores, a replay shows, a signer signs. */
export function signedFields(payload: unknown): SignedFields {
  const c = candidatesOf(payload);
  const id = c.ids[0];
  const ev = c.events[0];
  return {
    ...(id ? { id: id.value, idField: id.field } : {}),
    ...(ev ? { event: ev.name, eventField: ev.field, signedAs: ev.stated } : {}),
    ...(c.channel ? { channel: c.channel } : {}),
  };
}

/** The text signed for an event: its name, or its type code. */
export function signedEventText(event: string, as: SignedAs): string {
  return as === 'code' ? String(EVENT_TYPE_CODES[event]) : event;
}

export function sign(key: string, id: string, eventText: string): string {
  return crypto.createHmac('sha256', key).update(id + eventText).digest('hex');
}

/**
 * The signature the service would send with `payload`: over its first stated id and event, the
 * event as the payload states it (name or code) unless `as` says otherwise — or why there is none.
 */
export function signPayload(key: string, payload: unknown, as?: SignedAs): { signature: string; id: string; event: string; fields: SignedFields } | { problem: string; fields: SignedFields } {
  const fields = signedFields(payload);
  const c = candidatesOf(payload);
  if (!fields.id) return { problem: 'it has no message id (mail.id, sms_data.id or id)', fields };
  if (!fields.event) return { problem: c.undocumented.length ? unsignedEvent(c)! : 'it has no event (event or eventType)', fields };
  const signedAs = as ?? fields.signedAs!;
  return { signature: sign(key, fields.id, signedEventText(fields.event, signedAs)), id: fields.id, event: fields.event, fields: { ...fields, signedAs } };
}

/**
 * Why the payload states no event the service signs for its channel (spec 001 section 6, the
 * vendor's codes), or undefined when it states one. Checked before any signature: see SIGNED_EVENTS.
 */
export function unsignedEvent(c: Candidates): string | undefined {
  if (c.events.length || !c.undocumented.length) return undefined;
  const names = SIGNED_EVENTS[c.channel ?? 'email'];
  const codes = names.map((n) => EVENT_TYPE_CODES[n]).join(', ');
  const bad = c.undocumented[0].value;
  const shown = bad.length > 60 ? `${bad.slice(0, 60)}…` : bad;
  return `the event "${shown}" is not one the service sends for ${c.channel === 'sms' ? 'SMS' : 'email'} (${names.join(', ')}, or their type codes ${codes})`;
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

const NOT_A_PAYLOAD = 'The body is not a webhook payload of the notification service, or it was changed.';

/**
 * Checks one payload against one signature value: every stated id with every stated documented
 * event, each signed as its name and as its type code (at most 3 × 2 × 2 MACs). Every candidate is
 * computed and compared, whichever matches: which one did is no secret (the payload states them
 * all), and the comparisons themselves are constant-time. A mismatch is explained.
 */
export function verifyPayload(key: string, payload: unknown, signature: string | undefined, cmd: Suggest = plainSuggest): Verdict {
  const c = candidatesOf(payload);
  const fields = signedFields(payload);
  if (!signature || !signature.trim()) return { valid: false, reason: 'no signature was given', causes: [`The request had no ${SIGNATURE_HEADERS.join(' (or ')}) header.`], fields };
  if (!c.ids.length) return { valid: false, reason: 'the payload has no message id (mail.id, sms_data.id or id)', causes: [NOT_A_PAYLOAD], fields };
  const unknown = unsignedEvent(c);
  if (unknown) return { valid: false, reason: unknown, causes: ['The service signs only these events; a body whose id and event split the signed text another way (mail.id "M1d" with event "elivery" for "M1" + "delivery") is forged or changed.'], fields };
  if (!c.events.length) return { valid: false, reason: 'the payload has no event (event or eventType)', causes: [NOT_A_PAYLOAD], fields };
  let match: { id: IdCandidate; event: EventCandidate; as: SignedAs } | undefined;
  for (const id of c.ids) {
    for (const event of c.events) {
      for (const as of ['name', 'code'] as const) {
        const same = sameSignature(sign(key, id.value, signedEventText(event.name, as)), signature);
        if (same && !match) match = { id, event, as };
      }
    }
  }
  if (match) {
    return { valid: true, id: match.id.value, event: match.event.name, fields: { id: match.id.value, idField: match.id.field, event: match.event.name, eventField: match.event.field, signedAs: match.as, ...(c.channel ? { channel: c.channel } : {}) } };
  }
  const causes: string[] = [];
  if (!/^[0-9a-fA-F]{64}$/.test(signature.trim())) causes.push(`The signature is not 64 hex digits (got ${signature.trim().length} characters): copy the whole header value.`);
  causes.push(`The key differs: the signature is made with the notification-service key of the account that registered the webhook (check the profile: \`${cmd('config', 'list')}\`).`);
  const tried = `${c.ids.map((i) => `${i.field}="${i.value}"`).join(' or ')} with ${c.events.map((e) => `${e.field}=${e.stated === 'code' ? EVENT_TYPE_CODES[e.name] : `"${e.name}"`}`).join(' or ')}, the event signed as its name and as its type code`;
  causes.push(`The body was changed after signing, or the id/event is not the one signed (tried ${tried}).`);
  return { valid: false, reason: 'the signature does not match', causes, fields };
}

/**
 * Every signature a request carries, under each name the service is known to use, in the order
 * of SIGNATURE_HEADERS (a header given twice: each value). A request is verified when any one of
 * them is the service's: a relay that adds or keeps a second header must not cost an event.
 */
export function signatureHeaders(headers: Record<string, string | string[] | undefined>): Array<{ name: string; value: string }> {
  return SIGNATURE_HEADERS.flatMap((name) => {
    const v = headers[name];
    return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((value) => ({ name, value }));
  });
}
