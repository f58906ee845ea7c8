// Every answer of the notification service (spec 001, and the endpoints decisions rows 3, 4 and
// 21 add), one declaration per endpoint: the spec's shape first, then each documented variant,
// each with its source. "vendor reference" is the vendor's surenotify-api.md as
// docs/spec/vendor-excerpts.txt quotes it; "official CLI stub" is a test stub of the vendor's own CLI
// (nlm-open-cli tests/sn_api_test.rs), weaker evidence that GAPS row 34 lets the client accept.
// What the client hands on is the spec's shape whatever the variant.
import * as v from 'valibot';
import type * as T from '../notify-types.js';
import { answer, inDryRun, flag, list, maybe, noBody, num, obj, shape, text, textMap, type Schema } from './read.js';

/** A message id or request id: text, or a number written as text. */
const id = () => v.pipe(v.union([text(), num()], 'text or a number'), v.transform(String));

const sent = () => obj({ id: maybe(id()), address: text() });

/** Spec 001 section 4: `{id, success:[{id, address}], failure:{address: reason}}`. */
export const EMAIL_SENT = inDryRun(answer<T.SendResult>('POST /v1/messages', () => [
  shape('spec 001 section 4 (POST /v1/messages), vendor reference', obj({ id: maybe(id()), success: list(sent()), failure: textMap() }) as unknown as Schema<T.SendResult>),
]), () => ({ success: [], failure: {} }));

/** decisions row 3: modelled like email send; an answer without `failure` is fine. */
export const SMS_SENT = inDryRun(answer<T.SendResult>('POST /v1/sms/messages', () => [
  shape('decisions row 3 (modelled like email send), official CLI stub', v.pipe(
    obj({ id: maybe(id()), success: list(sent()), failure: v.optional(textMap()) }),
    v.transform((o) => ({ ...o, failure: o.failure ?? {} })),
  ) as unknown as Schema<T.SendResult>),
]), () => ({ success: [], failure: {} }));

/** `success: false` in a 2xx is the service saying it did not do it: the client refuses to call that done. */
export interface Done {
  success: boolean;
}

/** Webhook registration (email spec 001 section 4; SMS decisions row 4). */
export const WEBHOOK_SET = answer<Done>('POST /v1/webhooks, POST /v1/sms/webhooks', () => [
  shape('spec 001 section 4: {success: true}', obj({ success: flag() }) as Schema<Done>),
  shape('official CLI stub: the registration echoed, {"type":3,"url":…}', v.pipe(obj({ type: num(), url: text() }), v.transform((): Done => ({ success: true })))),
]);

/** Webhook deletion: 200 `{success: true}` (500 `{success: false}` is an error answer). */
export const WEBHOOK_DELETED = answer<Done>('DELETE /v1/webhooks, DELETE /v1/sms/webhooks', () => [
  shape('spec 001 section 4: {success: true}', obj({ success: flag() }) as Schema<Done>),
  shape('official CLI stub: 204, no body', v.pipe(noBody(), v.transform((): Done => ({ success: true })))),
]);

const webhook = (): Schema<T.Webhook> => obj({ type: num(), url: text(), domain: maybe(text()), createDate: maybe(text()) }) as Schema<T.Webhook>;

/** Spec 001 section 4: "returns configured webhooks"; one object or a list is not shown (sandbox shape webhook-list). */
export const WEBHOOKS = inDryRun(answer<T.Webhook[]>('GET /v1/webhooks, GET /v1/sms/webhooks', () => [
  shape('spec 001 section 4: a list of webhooks', list(webhook())),
  shape('spec 001 section 4 ("one object or a list: not shown"): one webhook object', v.pipe(webhook(), v.transform((w) => [w]))),
  shape('official CLI stub: {"webhooks":[…]}', v.pipe(obj({ webhooks: list(webhook()) }), v.transform((o) => o.webhooks))),
]), () => []);

const mail = () => obj({
  subject: maybe(text()), content: maybe(text()), from: maybe(text()), to: maybe(text()), sender: maybe(text()), recipient: maybe(text()),
  variables: maybe(v.record(v.string(), v.unknown(), 'an object')),
});
const rawEvent = () => maybe(v.record(v.string(), v.unknown(), 'an object'));

const emailEvent = (): Schema<T.EmailEvent> => obj({ messageId: maybe(id()), status: text(), mail: maybe(mail()), eventTime: maybe(text()), rawEvent: rawEvent() }) as unknown as Schema<T.EmailEvent>;
const smsEvent = (): Schema<T.SmsEvent> => obj({
  messageId: maybe(id()), recipient: maybe(text()), address: maybe(text()), countryCode: maybe(v.union([text(), num()], 'text or a number')), status: text(),
  content: maybe(text()), eventTime: maybe(text()), alive_mins: maybe(num()), variables: maybe(v.record(v.string(), v.unknown(), 'an object')), rawEvent: rawEvent(),
}) as unknown as Schema<T.SmsEvent>;

/**
 * The official CLI's stub lists events as `{events:[{id, status, timestamp, …}], total}`: its
 * `id` and `timestamp` are read as the spec's `messageId` and `eventTime`.
 */
const stubEvents = <E>(item: Schema<E>) => v.pipe(
  obj({ events: list(obj({ id: maybe(id()), timestamp: maybe(text()) })), total: maybe(num()) }),
  v.transform((o) => o.events.map(({ id: messageId, timestamp: eventTime, ...rest }) => ({ messageId, eventTime, ...rest }))),
  list(item),
);

/** Spec 001 section 4: `{logs:[…]}`. */
export const EMAIL_EVENTS = inDryRun(answer<T.EmailEvent[]>('GET /v1/events', () => [
  shape('spec 001 section 4: {logs:[…]}', v.pipe(obj({ logs: list(emailEvent()) }), v.transform((o) => o.logs))),
  shape('official CLI stub: {"events":[…],"total":n}', stubEvents(emailEvent())),
]), () => []);

export const SMS_EVENTS = inDryRun(answer<T.SmsEvent[]>('GET /v1/sms/events', () => [
  shape('spec 001 section 4: {logs:[…]}', v.pipe(obj({ logs: list(smsEvent()) }), v.transform((o) => o.logs))),
  shape('official CLI stub: {"events":[…],"total":n}', stubEvents(smsEvent())),
]), () => []);

const number = (): Schema<T.ExclusiveNumber> => obj({ phoneNumber: text(), createDate: maybe(text()), updateDate: maybe(text()) }) as Schema<T.ExclusiveNumber>;

export const EXCLUSIVE_NUMBERS = inDryRun(answer<T.ExclusiveNumber[]>('GET /v1/sms/exclusive-number', () => [
  shape('spec 001 section 4: {phoneNumbers:[…]}', v.pipe(obj({ phoneNumbers: list(number()) }), v.transform((o) => o.phoneNumbers))),
]), () => []);

const dnsRecord = (): Schema<T.DnsRecord> => obj({ record_type: num(), name: text(), value: text(), valid: maybe(flag()) }) as Schema<T.DnsRecord>;

/** decisions row 21, vendor reference: the DNS records to publish. */
export const DOMAIN_ADDED = inDryRun(answer<T.DnsRecord[]>('POST /v1/domains/{domain}', () => [
  shape('decisions row 21, vendor reference: an array of {name, value, record_type, valid}', list(dnsRecord())),
]), () => []);

/** decisions row 28, vendor reference: the same records, each with whether it is in place (`valid`). */
export const DOMAIN_VERIFIED = inDryRun(answer<T.DnsRecord[]>('PUT /v1/domains/{domain}', () => [
  shape('decisions row 28, vendor reference: an array of {name, value, record_type, valid}', list(obj({ record_type: num(), name: text(), value: text(), valid: flag() }) as Schema<T.DnsRecord>)),
]), () => []);

/** Vendor reference: `{success: true}` or `{success: false}`. */
export const DOMAIN_REMOVED = answer<Done>('DELETE /v1/domains/{domain}', () => [
  shape('vendor reference: {success}', obj({ success: flag() }) as Schema<Done>),
  shape('official CLI stub: 204, no body', v.pipe(noBody(), v.transform((): Done => ({ success: true })))),
]);
