// The notification service (spec 001) plus the endpoints decisions rows 3, 4 and 21 add.
import { HttpClient, type HttpOptions } from './http.js';
import { pathSegment } from './path-segment.js';
import { unlimited } from './ratelimit.js';
import type * as T from './notify-types.js';
import * as A from './answers/notify.js';
import { ServiceError } from '../core/errors.js';

export type NotifyClientOptions = Omit<HttpOptions, 'service' | 'limiter'>;

/** Each path parameter: "." and ".." are refused, not collapsed into another endpoint. */
const enc = pathSegment;

export class NotifyClient {
  readonly http: HttpClient;

  constructor(o: NotifyClientOptions) {
    // No documented rate limit (decisions row 16): callers bound their own concurrency.
    this.http = new HttpClient({ ...o, service: 'notify', limiter: unlimited });
  }

  // Each answer is read through its endpoint's declaration (src/api/answers/notify.ts, A.*).

  /** POST /v1/messages. Never retried after it may have reached the server. */
  sendEmail(body: T.EmailMessage): Promise<T.SendResult> {
    return this.http.call('POST', '/v1/messages', { json: body, answer: A.EMAIL_SENT });
  }

  /** decisions row 3: POST /v1/sms/messages; a response without `failure` is fine. */
  sendSms(body: T.SmsMessage): Promise<T.SendResult> {
    return this.http.call('POST', '/v1/sms/messages', { json: body, answer: A.SMS_SENT });
  }

  /** Upsert by type, so repeating it is safe. */
  async setWebhook(type: number, url: string, sms = false): Promise<void> {
    const path = sms ? '/v1/sms/webhooks' : '/v1/webhooks';
    notDone(await this.http.call('POST', path, { json: { type, url }, idempotent: true, answer: A.WEBHOOK_SET }), 'POST', path, 'the webhook was not registered');
  }

  /** One object or a list (spec: not shown) — always a list here. */
  listWebhooks(sms = false): Promise<T.Webhook[]> {
    return this.http.call('GET', sms ? '/v1/sms/webhooks' : '/v1/webhooks', { idempotent: true, answer: A.WEBHOOKS });
  }

  async deleteWebhook(type: number, sms = false): Promise<void> {
    const path = sms ? '/v1/sms/webhooks' : '/v1/webhooks';
    notDone(await this.http.call('DELETE', path, { json: { type }, idempotent: true, answer: A.WEBHOOK_DELETED }), 'DELETE', path, 'the webhook was not deleted');
  }

  emailEvents(q: T.EmailEventQuery): Promise<T.EmailEvent[]> {
    return this.http.call('GET', '/v1/events', { searchParams: { ...oneOf(q) }, idempotent: true, answer: A.EMAIL_EVENTS });
  }

  smsEvents(q: T.SmsEventQuery): Promise<T.SmsEvent[]> {
    return this.http.call('GET', '/v1/sms/events', { searchParams: { ...oneOf(q) }, idempotent: true, answer: A.SMS_EVENTS });
  }

  exclusiveNumbers(): Promise<T.ExclusiveNumber[]> {
    return this.http.call('GET', '/v1/sms/exclusive-number', { idempotent: true, answer: A.EXCLUSIVE_NUMBERS });
  }

  /** decisions row 21 (public material, not the spec): returns the DNS records to publish. */
  addDomain(domain: string): Promise<T.DnsRecord[]> {
    return this.http.call('POST', `/v1/domains/${enc(domain)}`, { idempotent: true, answer: A.DOMAIN_ADDED });
  }

  /** decisions row 28: the records, each with whether the service found it in place (`valid`). */
  verifyDomain(domain: string): Promise<T.DnsRecord[]> {
    return this.http.call('PUT', `/v1/domains/${enc(domain)}`, { idempotent: true, answer: A.DOMAIN_VERIFIED });
  }

  async removeDomain(domain: string): Promise<void> {
    const path = `/v1/domains/${enc(domain)}`;
    notDone(await this.http.call('DELETE', path, { idempotent: true, answer: A.DOMAIN_REMOVED }), 'DELETE', path, 'the domain was not removed');
  }
}

/**
 * decisions row 30 (vendor reference: "id or recipient, not both"): a lookup by message id sends
 * the id alone. The spec's SMS lookup says the id wins when both are given; the email lookup's
 * meaning is not shown, and the vendor says to give one. The time bounds and status still go.
 */
export function oneOf<Q extends { id?: string; recipient?: string; country_code?: string }>(q: Q): Q {
  if (!q.id) return q;
  const { recipient: _r, country_code: _c, ...rest } = q;
  return rest as Q;
}

/** A 2xx that says `success: false`: the service did not do it, whatever the status says. */
function notDone(r: A.Done | undefined, method: string, path: string, what: string): void {
  // undefined: a dry run, where nothing was sent.
  if (r && !r.success) {
    throw new ServiceError(`The notification service answered ${method} ${path} with success: false; ${what}.`, {
      facts: { code: 'SERVICE_FAILED', refused: true, retryable: false },
    }).about({ service: 'notify', method, path });
  }
}
