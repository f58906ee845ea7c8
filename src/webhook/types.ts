// Webhook event types by name or number (spec 001 section 2): email 3 delivery, 4 open,
// 5 click, 6 bounce, 7 complaint; SMS only 3 and 6 — anything else is refused here.
import { UsageError } from '../core/errors.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';

export function typesFor(sms: boolean): Record<string, number> {
  return sms ? SMS_WEBHOOK_TYPES : EMAIL_WEBHOOK_TYPES;
}

export function typeName(type: number, sms: boolean): string {
  return Object.entries(typesFor(sms)).find(([, n]) => n === type)?.[0] ?? String(type);
}

export function parseWebhookType(input: string, sms: boolean): number {
  const types = typesFor(sms);
  const v = input.trim().toLowerCase();
  const byName = types[v];
  if (byName !== undefined) return byName;
  if (/^\d+$/.test(v) && Object.values(types).includes(Number(v))) return Number(v);
  const allowed = Object.entries(types).map(([name, n]) => `${name} (${n})`).join(', ');
  if (sms && EMAIL_WEBHOOK_TYPES[v as keyof typeof EMAIL_WEBHOOK_TYPES] !== undefined || (sms && /^[3-7]$/.test(v))) {
    throw new UsageError(`SMS webhooks exist only for delivery and bounce; "${input}" is an email-only event.`, `Use one of ${allowed}, or drop --sms for the email webhook.`);
  }
  throw new UsageError(`"${input}" is not a ${sms ? 'SMS ' : ''}webhook event type.`, `Use one of ${allowed}.`);
}

/** True for hosts the service on the internet cannot reach. */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h) || /^10\./.test(h) || /^192\.168\./.test(h) || /^172\.(1[6-9]|2\d|3[01])\./.test(h) || h === '0.0.0.0';
}
