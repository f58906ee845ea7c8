// The forms a signed webhook may arrive in (decisions row 27), for `webhook trigger --form`: the
// spec's, and each way the vendor's reference departs from it (docs/spec/vendor-excerpts.txt), one
// at a time and all together. A consumer tested with each knows it takes what the service may
// really send; mailctl's own listener, `webhook verify` and `webhook replay` accept every one.
// Loaded by the command's declaration (its names and help), so it holds data only.
import type { SIGNATURE_HEADERS } from '../spec/webhook-signing.js';

export interface WebhookForm {
  /** One line for --help. */
  what: string;
  /** The message id in mail.id / sms_data.id (the spec), or only as a top-level `id` (the vendor). */
  idAt: 'message' | 'top';
  /** The field that states the event. */
  eventField: 'event' | 'eventType';
  /** The event stated as its name (`delivery`) or its type code (3, a number). */
  eventAs: 'name' | 'code';
  /** What the signature is made over: the id followed by the event's name or its type code. */
  signs: 'name' | 'code';
  /** The header it comes under when --signature-header does not say. */
  header: (typeof SIGNATURE_HEADERS)[number];
}

export const WEBHOOK_FORMS = {
  spec: { what: 'the spec\'s: mail.id (sms_data.id), "event": "delivery", signed over id + "delivery"', idAt: 'message', eventField: 'event', eventAs: 'name', signs: 'name', header: 'x-service-signature' },
  'event-type': { what: 'the event under "eventType" instead of "event"', idAt: 'message', eventField: 'eventType', eventAs: 'name', signs: 'name', header: 'x-service-signature' },
  'top-id': { what: 'the id only as a top-level "id" (none in mail / sms_data)', idAt: 'top', eventField: 'event', eventAs: 'name', signs: 'name', header: 'x-service-signature' },
  'type-code': { what: 'the event as its type code ("event": 3), signed over id + "3"', idAt: 'message', eventField: 'event', eventAs: 'code', signs: 'code', header: 'x-service-signature' },
  'signed-code': { what: 'the event by name, signed over id + its type code (as the vendor\'s "msg-123" + "3")', idAt: 'message', eventField: 'event', eventAs: 'name', signs: 'code', header: 'x-service-signature' },
  vendor: { what: 'all the vendor\'s: top-level "id", "eventType": 3, id + "3", x-surenotify-signature', idAt: 'top', eventField: 'eventType', eventAs: 'code', signs: 'code', header: 'x-surenotify-signature' },
} as const satisfies Record<string, WebhookForm>;

export type FormName = keyof typeof WEBHOOK_FORMS;

export const FORM_NAMES = Object.keys(WEBHOOK_FORMS) as FormName[];

/** Lines for --help: each form and what it changes. */
export function formHelp(): string {
  return FORM_NAMES.map((n) => `  ${n.padEnd(12)} ${WEBHOOK_FORMS[n].what}`).join('\n');
}
