// The EVENT argument of `webhook trigger`: an email event by name or type number (delivery, open,
// click, bounce, complaint; 3 to 7), or an SMS one as `sms-delivery` / `sms-bounce` — or with
// --sms, `delivery` / `bounce` (3 / 6), the way `webhook set --sms` names them.
import { UsageError } from '../core/errors.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';
import type { Channel } from './payloads.js';

export const EVENT_CHOICES = 'delivery, open, click, bounce, complaint (email); sms-delivery, sms-bounce (SMS)';

export function parseEventArg(input: string, smsFlag: boolean): { channel: Channel; event: string } {
  const v = input.trim().toLowerCase();
  const prefixed = /^sms[-_:]/.test(v);
  const channel: Channel = smsFlag || prefixed ? 'sms' : 'email';
  const name = prefixed ? v.slice(4) : v;
  const types: Record<string, number> = channel === 'sms' ? SMS_WEBHOOK_TYPES : EMAIL_WEBHOOK_TYPES;
  const event = Object.hasOwn(types, name) ? name : Object.keys(types).find((k) => /^\d+$/.test(name) && types[k] === Number(name));
  if (event) return { channel, event };
  if (channel === 'sms' && (Object.hasOwn(EMAIL_WEBHOOK_TYPES, name) || /^[3-7]$/.test(name))) {
    throw new UsageError(`SMS webhooks exist only for delivery and bounce; "${input}" is an email-only event.`, `Use sms-delivery or sms-bounce, or the email event without ${smsFlag ? '--sms' : 'the sms- prefix'}.`);
  }
  throw new UsageError(`"${input}" is not a webhook event.`, `Use one of ${EVENT_CHOICES}.`);
}
