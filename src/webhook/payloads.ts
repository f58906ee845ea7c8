// The webhook payloads of the notification service, as the client reads spec 001 section 6, for
// `webhook trigger`: a synthetic event of each type, with `--set path=value` overrides typed by
// the spec's field table. The sandbox keeps its own reading (src/sandbox/notify/webhooks.ts: it
// must not share client code); test/webhook-trigger.test.ts checks that both give one shape.
import crypto from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { parseTime } from '../core/date.js';
import { SIGNED_EVENTS } from './signature.js';
import { EVENT_TYPE_CODES } from '../spec/webhook-signing.js';
import { FORM_NAMES, WEBHOOK_FORMS, type FormName } from './forms.js';

export type Channel = 'email' | 'sms';
export type Payload = Record<string, unknown>;

/** Spec section 6: email events delivery, open, click, bounce, complaint; SMS delivery, bounce. */
export const EVENTS: Readonly<Record<Channel, readonly string[]>> = SIGNED_EVENTS;

type FieldType = 'string' | 'number' | 'variables';
type Fields = Record<string, FieldType>;

/** Spec section 6, the object named like the event: its fields and their types ("long" = number). */
const DETAIL: Record<Channel, Record<string, Fields>> = {
  email: {
    delivery: { timestamp: 'number' },
    open: { timestamp: 'number', client_headers: 'string' },
    click: { timestamp: 'number', sort: 'string', link_url: 'string', client_headers: 'string' },
    bounce: { timestamp: 'number', code: 'string', type: 'number', reason: 'string' },
    complaint: { timestamp: 'number' },
  },
  sms: {
    delivery: { timestamp: 'number', point: 'number', srcaddr: 'string' },
    bounce: { timestamp: 'number', code: 'string', reason: 'string' },
  },
};

/** Spec section 6: `mail` {id, subject, content, from, to, variables}; `sms_data` {id, content, recipient, address, country_code, variables, alive_mins}. */
const MESSAGE: Record<Channel, { name: string; fields: Fields }> = {
  email: { name: 'mail', fields: { id: 'string', subject: 'string', content: 'string', from: 'string', to: 'string', variables: 'variables' } },
  sms: { name: 'sms_data', fields: { id: 'string', content: 'string', recipient: 'string', address: 'string', country_code: 'string', variables: 'variables', alive_mins: 'number' } },
};

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** A fresh id per trigger, so a consumer that ignores repeats of (id, event) still takes the next one. */
export function syntheticId(): string {
  return `mailctl-test-${crypto.randomBytes(6).toString('hex')}`;
}

/**
 * A synthetic event as the service would POST it (spec section 6). The values are made up but
 * plausible: reserved example addresses and numbers, an SMTP 550 permanent bounce, `timestamp`
 * in epoch milliseconds ("long").
 */
export function syntheticPayload(channel: Channel, event: string, o: { id: string; now: number }): Payload {
  const t = o.now;
  if (channel === 'email') {
    const to = 'recipient@example.com';
    const details: Record<string, Payload> = {
      delivery: { timestamp: t },
      open: { timestamp: t, client_headers: BROWSER },
      click: { timestamp: t, sort: '0', link_url: 'https://example.com/', client_headers: BROWSER },
      bounce: { timestamp: t, code: '550', type: 1, reason: `550 5.1.1 <${to}>: Recipient address rejected: User unknown` },
      complaint: { timestamp: t },
    };
    return {
      event,
      mail: { id: o.id, subject: 'mailctl test event', content: '<p>A test event sent by mailctl webhook trigger.</p>', from: 'noreply@example.com', to, variables: {} },
      [event]: details[event],
    };
  }
  const details: Record<string, Payload> = {
    delivery: { timestamp: t, point: 1, srcaddr: '0900000000' },
    bounce: { timestamp: t, code: 'UNDELIV', reason: 'Undeliverable: the handset was unreachable for the whole alive_mins window' },
  };
  return {
    event,
    sms_data: { id: o.id, content: '[mailctl] test message', recipient: '886912345678', address: '0912345678', country_code: '886', variables: {}, alive_mins: 5 },
    [event]: details[event],
  };
}

/** `--form NAME` (case-insensitive): one of WEBHOOK_FORMS (src/webhook/forms.ts), default the spec's. */
export function parseForm(value: string | undefined): FormName {
  if (value === undefined) return 'spec';
  const v = value.trim().toLowerCase();
  if ((FORM_NAMES as string[]).includes(v)) return v as FormName;
  throw new UsageError(`--form "${value}" is not a webhook form.`, `Use one of ${FORM_NAMES.join(', ')} (\`mailctl webhook trigger --help\` says what each changes).`);
}

/**
 * The spec's payload recast in another form (decisions row 27): the event under `eventType` and/or
 * as its type code, the id moved out of mail / sms_data to a top-level `id`. The spec's form is
 * returned as it is. Keys keep a readable order: id, the event, the message, the event's detail.
 */
export function applyForm(payload: Payload, channel: Channel, event: string, name: FormName): Payload {
  const form = WEBHOOK_FORMS[name];
  const msgKey = MESSAGE[channel].name;
  const { event: _stated, [msgKey]: message, ...rest } = payload as Payload & { [k: string]: unknown };
  const msg = { ...(message as Payload) };
  const out: Payload = {};
  if (form.idAt === 'top') {
    out.id = msg.id;
    delete msg.id;
  }
  out[form.eventField] = form.eventAs === 'code' ? EVENT_TYPE_CODES[event] : event;
  out[msgKey] = msg;
  return { ...out, ...rest };
}

/** The type the spec gives the field at `path` of this payload, or undefined when the spec has no such field. */
function specType(channel: Channel, event: string, path: string[], formName: FormName = 'spec'): FieldType | 'object' | undefined {
  const [top, field, ...rest] = path;
  const msg = MESSAGE[channel];
  // The form's own fields (decisions row 27): the event field, a code is a number; a top-level id.
  const form = WEBHOOK_FORMS[formName];
  if (path.length === 1 && top === form.eventField) return form.eventAs === 'code' ? 'number' : 'string';
  if (path.length === 1 && top === 'id' && form.idAt === 'top') return 'string';
  if (path.length === 1) return top === msg.name || top === event ? 'object' : undefined;
  if (top === msg.name) {
    const t = msg.fields[field];
    if (t === 'variables') return rest.length === 0 ? 'variables' : rest.length === 1 ? 'string' : undefined;
    return rest.length === 0 ? t : undefined;
  }
  if (top === event && rest.length === 0) return DETAIL[channel][event]?.[field];
  return undefined;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export interface Override {
  path: string[];
  value: unknown;
  /** The --set text as given, for messages. */
  text: string;
  /** True when the spec has no such field in this payload (sent anyway, with a warning). */
  unknown: boolean;
}

/**
 * One `--set` value: `path=value` typed by the spec (numbers for `timestamp`, bounce `type`,
 * SMS `point` and `alive_mins`; an ISO date for a `timestamp`; text otherwise), or `path:=JSON`
 * for any value as written (httpie's convention), to send what the spec does not allow on purpose.
 */
export function parseOverride(text: string, channel: Channel, event: string, form: FormName = 'spec'): Override {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set "${text}" is not FIELD=VALUE.`, 'For example: --set mail.subject=Hello --set bounce.type=0 (FIELD:=JSON for a raw JSON value).');
  const raw = text.slice(0, eq);
  const json = raw.endsWith(':');
  const pathText = json ? raw.slice(0, -1) : raw;
  const value = text.slice(eq + 1);
  const path = pathText.split('.');
  if (path.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) throw new UsageError(`--set "${text}": the field "${pathText}" must be names joined by dots, such as mail.subject or mail.variables.name.`);
  if (path.some((p) => FORBIDDEN_KEYS.has(p))) throw new UsageError(`--set "${text}": "${path.find((p) => FORBIDDEN_KEYS.has(p))}" cannot be a field name.`);
  const type = specType(channel, event, path, form);
  const out = (v: unknown): Override => ({ path, value: v, text, unknown: type === undefined });
  if (json) {
    try {
      return out(JSON.parse(value));
    } catch {
      throw new UsageError(`--set "${text}": the value after := is not JSON.`, `Quote it for the shell, e.g. --set '${pathText}:={"name":"Ann"}' or --set '${pathText}:="text"'.`);
    }
  }
  if (type === 'number') {
    const timestamp = path[path.length - 1] === 'timestamp';
    // An ISO date goes through the one date parser (src/core/date.ts): Date.parse would turn
    // 2024-02-30 into 1 March and "May 1" into 2001 without a word.
    if (timestamp && /^\s*\d{4}-/.test(value)) return out(parseTime(value, `--set ${pathText}`, 0, { spans: false }));
    const n = value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : NaN;
    if (!Number.isFinite(n)) {
      const what = timestamp ? 'a number (epoch milliseconds) or an ISO date such as 2024-05-01T12:00:00Z' : 'a number';
      throw new UsageError(`--set "${text}": ${pathText} is ${what} in the spec.`, `To send another type on purpose, give JSON: --set '${pathText}:="${value}"'.`);
    }
    return out(n);
  }
  if (type === 'object' || type === 'variables') {
    throw new UsageError(`--set "${text}": ${pathText} is an object; set one of its fields (${type === 'variables' ? `${pathText}.NAME=value` : `${pathText}.FIELD=value`}) or give JSON with ${pathText}:={...}.`);
  }
  return out(value);
}

/** Applies the overrides in order, creating objects along a path; a path through a non-object is refused. */
export function applyOverrides(payload: Payload, overrides: Override[]): Payload {
  const copy = structuredClone(payload);
  for (const o of overrides) {
    let node: Record<string, unknown> = copy;
    for (let i = 0; i < o.path.length - 1; i++) {
      const k = o.path[i];
      if (node[k] === undefined) node[k] = {};
      const next = node[k];
      if (!next || typeof next !== 'object' || Array.isArray(next)) {
        throw new UsageError(`--set "${o.text}": ${o.path.slice(0, i + 1).join('.')} is not an object, so it has no field ${o.path[i + 1]}.`);
      }
      node = next as Record<string, unknown>;
    }
    node[o.path[o.path.length - 1]] = o.value;
  }
  return copy;
}
