// Settling recipients "in doubt" — their request was in flight when a run died, or it timed
// out — with the event lookup, before anything is sent to them again (email and SMS; automation
// has no event log, so its in-doubt recipients stay in doubt).
//
// The rule (stated in `mailctl send --help` and docs/sending.md, "Resume"):
//   SENT      a message in the log for this recipient is an EXACT match of what this batch
//             would have delivered to it — email: recipient, sender address (the event's
//             mail.from or mail.sender), subject and content, each as rendered with the
//             recipient's variables or as written with equal variables; SMS: content the same
//             way, country code and number — and it was accepted (its `accept` event) no earlier
//             than the batch's own start (its intent in the journal). Events are judged per
//             message: a message's later events (delivery, open, click) come after the batch
//             started even when the message itself is older, so only its accept time says when
//             it was sent. Its message id is recorded; nothing is sent again.
//   UNKNOWN   an exact match accepted before the start but within CLOCK_SKEW_MS of it (it may
//             be this message or an identical earlier one); an exact match whose accept event is
//             not in the log (when it was sent cannot be told); an event that does not carry a
//             field compared above, or no eventTime, and is not otherwise different; content
//             that differs only in its links (the service rewrites links for tracking); a lookup
//             that failed or may have been cut short; or too early to tell. Reported as
//             unsettled, never as accepted, never sent again by itself; a later `--resume`
//             looks again.
//   NOT SENT  a complete lookup (fewer rows than the cap) with none of the above, at least
//             `settleAfterMs` after the batch started. Sent again.
// A message whose earliest event is older than the start minus CLOCK_SKEW_MS is an earlier
// message (it was sent before its first event) and is ignored.
// SMS lookups are bounded to the batch: `from` = its start minus CLOCK_SKEW_MS (a time, per the
// spec), so a busy recipient's older messages do not fill the 50-row cap. Email lookups ask for
// the recipient alone first; only when that page is full (it may have been cut short) is a second
// lookup bounded by `from` made. The spec does not say what `from` means for email (decisions row
// P10 reads it as a UTC time, the range start, as the SMS lookup documents it), so that second
// lookup can prove "sent" (an exact match) or keep a recipient unsettled, but never prove "not
// sent": were `from` read some other way, an empty answer would otherwise resend a message that
// went out.
// A recipient the send's answer listed both as accepted and as refused (a conflict, issue 19
// item 8) is looked up by the message id the answer gave it, alone (decisions row 30), when it
// gave one; the lookup can prove it SENT, never NOT SENT: it is never sent again by itself.
import type { NotifyClient } from '../api/notify.js';
import type { EmailEvent, SmsEvent } from '../api/notify-types.js';
import { runPool } from '../core/pool.js';
import { CONFLICT, keyOf, type PlanRecord, type RecipientState, type Settlement, type WireRecipient } from './journal.js';
import { render } from './variables.js';
import { bareNational } from './sms-rules.js';

/** Server and client clocks are assumed to agree within this. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Spec section 8 caps SMS lookups at 50 rows; the email cap is not shown, so the same is assumed. */
export const LOOKUP_ROW_CAP = 50;
export const DEFAULT_SETTLE_AFTER_MS = 5 * 60_000;

export interface SettleOptions {
  plan: PlanRecord;
  states: Map<string, RecipientState>;
  client: Pick<NotifyClient, 'emailEvents' | 'smsEvents'>;
  now: () => number;
  settleAfterMs: number;
  concurrency: number;
  signal: AbortSignal;
}

export async function settleDoubts(o: SettleOptions): Promise<Settlement | undefined> {
  const { plan, states } = o;
  const doubtful = plan.recipients.filter((r) => states.get(keyOf(plan, r))?.state === 'doubt');
  if (!doubtful.length) return undefined;
  const rec: Settlement = { type: 'settled', at: new Date(o.now()).toISOString(), sent: {}, unsent: [], unknown: {} };
  await runPool(doubtful, o.concurrency, async (w) => {
    const key = keyOf(plan, w);
    const st = states.get(key) as Extract<RecipientState, { state: 'doubt' }>;
    const start = Date.parse(st.at);
    let events: Array<EmailEvent | SmsEvent>;
    const from = new Date(start - CLOCK_SKEW_MS).toISOString();
    try {
      events = st.id
        // The message id the service gave: the lookup by id alone (decisions row 30).
        ? await (plan.kind === 'email' ? o.client.emailEvents({ id: st.id }) : o.client.smsEvents({ id: st.id }))
        : plan.kind === 'email'
          ? await o.client.emailEvents({ recipient: w.address })
          : await o.client.smsEvents({ recipient: w.address, country_code: w.country_code, from });
    } catch (e) {
      rec.unknown[key] = `the event lookup failed: ${(e as Error).message}`;
      return;
    }
    let judged = judgeLog(plan, w, events, start);
    const cut = events.length >= LOOKUP_ROW_CAP;
    if (cut && plan.kind === 'email' && !judged.some((j) => j.verdict !== 'other')) {
      // A full page without this message in it: look again from the batch's start (decisions row P10).
      // What this finds can settle "sent"; finding nothing proves nothing (see the header).
      try {
        const bounded = await o.client.emailEvents({ recipient: w.address, from });
        judged = judgeLog(plan, w, bounded, start);
      } catch {
        /* the unbounded answer stands: cut short */
      }
    }
    const same = judged.find((j) => j.verdict === 'same');
    const unclear = judged.find((j) => j.verdict === 'unclear');
    if (same) {
      rec.sent[key] = { id: same.id, ...(same.eventTime ? { eventTime: same.eventTime } : {}) };
    } else if (st.conflict) {
      // Nothing here proves it sent, and nothing may prove it unsent: the service said both.
      rec.unknown[key] = CONFLICT;
    } else if (unclear) {
      rec.unknown[key] = unclear.why;
    } else if (cut) {
      rec.unknown[key] = plan.kind === 'email'
        ? `the event lookup returned ${events.length} rows and may have been cut short, and a lookup from the batch's start found no exact match (what that bound means for email is not documented, so it cannot prove the message was not sent)`
        : `the event lookup returned ${events.length} rows and may have been cut short`;
    } else if (o.now() - start < o.settleAfterMs) {
      const when = new Date(start + o.settleAfterMs).toISOString();
      rec.unknown[key] = `no event yet, but the request was only ${Math.round((o.now() - start) / 1000)} s ago; the log may not show it until later (try --resume after ${when})`;
    } else {
      rec.unsent.push(key);
    }
  }, () => !o.signal.aborted);
  return rec;
}

type Judged = { verdict: 'same'; id: string; eventTime?: string } | { verdict: 'unclear'; why: string } | { verdict: 'other' };

/** One field of an event against what this batch would have put there. */
type Field = 'same' | 'other' | 'missing' | 'links';

/** Every message in the log for `w`, each judged against what this batch would have delivered. */
export function judgeLog(plan: PlanRecord, w: WireRecipient, events: Array<EmailEvent | SmsEvent>, start: number): Judged[] {
  const messages = new Map<string, Record<string, unknown>[]>();
  const judged: Judged[] = [];
  for (const event of events) {
    if (!event || typeof event !== 'object') continue;
    const e = event as unknown as Record<string, unknown>;
    const id = e.messageId === undefined || e.messageId === null || e.messageId === '' ? undefined : String(e.messageId);
    // An entry without a message id cannot be grouped with its message: judged on its own.
    if (id === undefined) judged.push(judgeMessage(plan, w, undefined, [e], start));
    else messages.set(id, [...(messages.get(id) ?? []), e]);
  }
  for (const [id, entries] of messages) judged.push(judgeMessage(plan, w, id, entries, start));
  return judged;
}

const FIELD_RANK: Record<Field, number> = { other: 3, same: 2, links: 1, missing: 0 };

/** Is this message (all its log entries) the one this batch would have delivered to `w`? */
function judgeMessage(plan: PlanRecord, w: WireRecipient, id: string | undefined, entries: Record<string, unknown>[], start: number): Judged {
  const times = entries.map((e) => (typeof e.eventTime === 'string' ? Date.parse(e.eventTime) : NaN));
  const known = times.filter((t) => !Number.isNaN(t));
  // A message is sent before its first event: one whose first event is older than the batch
  // by more than clocks can disagree is an earlier message, whatever it holds.
  if (known.length && Math.min(...known) < start - CLOCK_SKEW_MS) return { verdict: 'other' };
  // The entries of one message carry the same mail; per field, one that differs decides, then one that agrees.
  const fields: Record<string, Field> = {};
  for (const e of entries) {
    const f = plan.kind === 'email' ? emailFields(plan, w, e) : smsFields(plan, w, e);
    for (const [name, v] of Object.entries(f)) if (!fields[name] || FIELD_RANK[v] > FIELD_RANK[fields[name]]) fields[name] = v;
  }
  if (Object.values(fields).includes('other')) return { verdict: 'other' };
  const missing = Object.keys(fields).filter((f) => fields[f] === 'missing');
  if (known.length < times.length) missing.push('event time');
  if (id === undefined) missing.push('message id');
  const which = `the event log entry${id ? ` of message ${id}` : ''}`;
  if (missing.length) return { verdict: 'unclear', why: `${which} carries no ${missing.join(', ')}, so it cannot be told apart from this message` };
  if (Object.values(fields).includes('links')) return { verdict: 'unclear', why: `${which} differs from this message only in its links (the service rewrites links for tracking), so it may be this message` };
  const accepted = entries.filter((e, i) => e.status === 'accept' && !Number.isNaN(times[i])).map((e) => ({ time: Date.parse(e.eventTime as string), at: e.eventTime as string }));
  if (!accepted.length) {
    return { verdict: 'unclear', why: `an identical message (${id}) is in the log, but not its accept event, so when it was sent cannot be told; it may be this message or an earlier one. Check it, then send again by hand if needed` };
  }
  const first = accepted.reduce((a, b) => (b.time < a.time ? b : a));
  if (first.time < start) {
    return { verdict: 'unclear', why: `an identical message (${id}) was accepted at ${first.at}, before this batch started at ${new Date(start).toISOString()}; clocks may differ by up to ${CLOCK_SKEW_MS / 60_000} minutes, so it may be this message or an earlier one. Check it, then send again by hand if needed` };
  }
  return { verdict: 'same', id: id!, eventTime: first.at };
}

function emailFields(plan: PlanRecord, w: WireRecipient, e: Record<string, unknown>): Record<string, Field> {
  const mail = (e.mail && typeof e.mail === 'object' ? e.mail : {}) as Record<string, unknown>;
  const vars = w.variables ?? {};
  return {
    'recipient address': addressField([mail.to, mail.recipient], w.address),
    'sender address': addressField([mail.from, mail.sender], String(plan.message.fromAddress ?? '')),
    subject: textField(mail.subject, String(plan.message.subject ?? ''), vars, mail.variables),
    content: textField(mail.content, String(plan.message.content ?? ''), vars, mail.variables),
  };
}

function smsFields(plan: PlanRecord, w: WireRecipient, e: Record<string, unknown>): Record<string, Field> {
  const cc = w.country_code ?? '';
  const bare = bareNational(w.address);
  const digits = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).replace(/[\s+-]/g, '') : '');
  let code: Field = digits(e.countryCode) ? (digits(e.countryCode) === cc ? 'same' : 'other') : 'missing';
  let number: Field = digits(e.address) ? (bareNational(digits(e.address)) === bare ? 'same' : 'other') : 'missing';
  // `recipient` is "country code plus number": it can stand in for either field when one is absent.
  if ((code === 'missing' || number === 'missing') && digits(e.recipient)) {
    const whole = digits(e.recipient) === `${cc}${bare}` ? 'same' : 'other';
    if (code === 'missing') code = whole;
    if (number === 'missing') number = whole;
  }
  return { 'country code': code, number, content: textField(e.content, String(plan.message.content ?? ''), w.variables ?? {}, e.variables) };
}

/** The address part of "Name <a@b>" or "a@b"; undefined when the value holds no address. */
function addressIn(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(v);
  const bare = angle ? angle[1] : v.trim();
  return /^[^\s@]+@[^\s@]+$/.test(bare) ? bare.toLowerCase() : undefined;
}

/** Of the event fields that may hold an address, one must be ours; one holding another address (and none ours) is another message. */
function addressField(values: unknown[], ours: string): Field {
  const found = values.map(addressIn).filter((a): a is string => a !== undefined);
  if (!found.length) return 'missing';
  return found.includes(ours.trim().toLowerCase()) ? 'same' : 'other';
}

/** Text as rendered with the recipient's variables, or as written with equal variables. */
function textField(seen: unknown, template: string, vars: Record<string, string>, seenVars: unknown): Field {
  if (typeof seen !== 'string' || seen === '') return 'missing';
  const rendered = render(template, vars);
  if (seen === rendered) return 'same';
  const asWritten = seen === template;
  if (asWritten) {
    if (!seenVars || typeof seenVars !== 'object') return 'missing';
    return sameVariables(seenVars as Record<string, unknown>, vars) ? 'same' : 'other';
  }
  if (maskLinks(seen) === maskLinks(rendered) || maskLinks(seen) === maskLinks(template)) return 'links';
  return 'other';
}

function sameVariables(seen: Record<string, unknown>, ours: Record<string, string>): boolean {
  const a = Object.keys(seen);
  const b = Object.keys(ours);
  return a.length === b.length && b.every((k) => Object.hasOwn(seen, k) && String(seen[k]) === ours[k]);
}

const LINK = /\bhttps?:\/\/[^\s"'<>]+/gi;
function maskLinks(s: string): string {
  return s.replace(LINK, '\u0000link');
}
