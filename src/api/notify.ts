// The notification service (spec 001) plus the endpoints decisions rows 3, 4 and 21 add.
import { HttpClient, type HttpOptions } from './http.js';
import { pathSegment } from './path-segment.js';
import { unlimited } from './ratelimit.js';
import type * as T from './notify-types.js';

export type NotifyClientOptions = Omit<HttpOptions, 'service' | 'limiter'>;

/** Each path parameter: "." and ".." are refused, not collapsed into another endpoint. */
const enc = pathSegment;

export class NotifyClient {
  readonly http: HttpClient;

  constructor(o: NotifyClientOptions) {
    // No documented rate limit (decisions row 16): callers bound their own concurrency.
    this.http = new HttpClient({ ...o, service: 'notify', limiter: unlimited });
  }

  /** POST /v1/messages. Never retried after it may have reached the server. */
  async sendEmail(body: T.EmailMessage): Promise<T.SendResult> {
    return sendResultOf(await this.http.call('POST', '/v1/messages', { json: body }));
  }

  /** decisions row 3: POST /v1/sms/messages; a response without `failure` is fine. */
  async sendSms(body: T.SmsMessage): Promise<T.SendResult> {
    return sendResultOf(await this.http.call('POST', '/v1/sms/messages', { json: body }));
  }

  /** Upsert by type, so repeating it is safe. */
  setWebhook(type: number, url: string, sms = false): Promise<{ success: boolean }> {
    return this.http.call('POST', sms ? '/v1/sms/webhooks' : '/v1/webhooks', { json: { type, url }, idempotent: true });
  }

  /** One object or a list (spec: not shown) — always a list here. */
  async listWebhooks(sms = false): Promise<T.Webhook[]> {
    const r = await this.http.call<unknown>('GET', sms ? '/v1/sms/webhooks' : '/v1/webhooks', { idempotent: true });
    if (Array.isArray(r)) return r as T.Webhook[];
    if (r && typeof r === 'object') {
      const o = r as Record<string, unknown>;
      for (const k of ['webhooks', 'data', 'list']) if (Array.isArray(o[k])) return o[k] as T.Webhook[];
      if ('type' in o) return [o as unknown as T.Webhook];
    }
    return [];
  }

  deleteWebhook(type: number, sms = false): Promise<{ success: boolean }> {
    return this.http.call('DELETE', sms ? '/v1/sms/webhooks' : '/v1/webhooks', { json: { type }, idempotent: true });
  }

  async emailEvents(q: T.EmailEventQuery): Promise<T.EmailEvent[]> {
    const r = await this.http.call<{ logs?: T.EmailEvent[] }>('GET', '/v1/events', { searchParams: { ...q }, idempotent: true });
    return r?.logs ?? [];
  }

  async smsEvents(q: T.SmsEventQuery): Promise<T.SmsEvent[]> {
    const r = await this.http.call<{ logs?: T.SmsEvent[] }>('GET', '/v1/sms/events', { searchParams: { ...q }, idempotent: true });
    return r?.logs ?? [];
  }

  async exclusiveNumbers(): Promise<T.ExclusiveNumber[]> {
    const r = await this.http.call<{ phoneNumbers?: T.ExclusiveNumber[] }>('GET', '/v1/sms/exclusive-number', { idempotent: true });
    return r?.phoneNumbers ?? [];
  }

  /** decisions row 21 (public material, not the spec): returns the DNS records to publish. */
  async addDomain(domain: string): Promise<T.DnsRecord[]> {
    const r = await this.http.call<unknown>('POST', `/v1/domains/${enc(domain)}`, { idempotent: true });
    return dnsRecordsOf(r);
  }

  async verifyDomain(domain: string): Promise<unknown> {
    return this.http.call('PUT', `/v1/domains/${enc(domain)}`, { idempotent: true });
  }

  async removeDomain(domain: string): Promise<unknown> {
    return this.http.call('DELETE', `/v1/domains/${enc(domain)}`, { idempotent: true });
  }
}

function sendResultOf(r: unknown): T.SendResult {
  const o = (r ?? {}) as Partial<T.SendResult>;
  return { id: o.id, success: Array.isArray(o.success) ? o.success : [], failure: o.failure && typeof o.failure === 'object' ? o.failure : {} };
}

function dnsRecordsOf(r: unknown): T.DnsRecord[] {
  if (Array.isArray(r)) return r as T.DnsRecord[];
  const o = (r ?? {}) as Record<string, unknown>;
  for (const k of ['records', 'data']) if (Array.isArray(o[k])) return o[k] as T.DnsRecord[];
  return [];
}
