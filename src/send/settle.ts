// Settling recipients "in doubt" — their request was in flight when a run died, or it timed
// out — with the event lookup, before anything is sent to them again.
//
// The rule (documented in `mailctl send --help`):
//   SENT      the lookup shows an event for this recipient that is not older than the
//             request minus CLOCK_SKEW_MS and, where the event carries them, with the same
//             recipient and the same subject (email) or text (SMS) — rendered or as written.
//             Its message id is recorded; nothing is sent again.
//   NOT SENT  no such event, the lookup was complete (fewer rows than the 50-row cap), and at
//             least `settleAfterMs` has passed since the request, long enough for an accepted
//             request to show up in the log. Sent again.
//   UNKNOWN   anything else — too early, the lookup failed, or it may have been cut short. Not
//             sent; reported, and a later `--resume` tries again.
// Email lookups pass only `recipient` (the spec does not say what `from`/`to` mean for email);
// SMS lookups also pass `from` (a time, per the spec) to stay under the 50-row cap.
import type { NotifyClient } from '../api/notify.js';
import type { EmailEvent, SmsEvent } from '../api/notify-types.js';
import { runPool } from './batches.js';
import { keyOf, type JournalRecord, type PlanRecord, type RecipientState, type WireRecipient } from './journal.js';
import { render } from './variables.js';

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

export type Settlement = Extract<JournalRecord, { t: 'settled' }>;

export async function settleDoubts(o: SettleOptions): Promise<Settlement | undefined> {
  const { plan, states } = o;
  const doubtful = plan.recipients.filter((r) => states.get(keyOf(plan.kind, r))?.s === 'doubt');
  if (!doubtful.length) return undefined;
  const rec: Settlement = { t: 'settled', at: new Date(o.now()).toISOString(), sent: {}, unsent: [], unknown: {} };
  await runPool(doubtful, o.concurrency, async (w) => {
    const key = keyOf(plan.kind, w);
    const st = states.get(key) as Extract<RecipientState, { s: 'doubt' }>;
    const sentAt = Date.parse(st.at);
    let events: Array<EmailEvent | SmsEvent>;
    try {
      events = plan.kind === 'email'
        ? await o.client.emailEvents({ recipient: w.address })
        : await o.client.smsEvents({ recipient: w.address, country_code: w.country_code, from: new Date(sentAt - CLOCK_SKEW_MS).toISOString() });
    } catch (e) {
      rec.unknown[key] = `the event lookup failed: ${(e as Error).message}`;
      return;
    }
    const hit = events.find((e) => matches(plan, w, e, sentAt));
    if (hit) {
      rec.sent[key] = { id: String(hit.messageId), eventTime: hit.eventTime };
    } else if (events.length >= LOOKUP_ROW_CAP) {
      rec.unknown[key] = `the event lookup returned ${events.length} rows and may have been cut short`;
    } else if (o.now() - sentAt < o.settleAfterMs) {
      const when = new Date(sentAt + o.settleAfterMs).toISOString();
      rec.unknown[key] = `no event yet, but the request was only ${Math.round((o.now() - sentAt) / 1000)} s ago; the log may not show it until later (try --resume after ${when})`;
    } else {
      rec.unsent.push(key);
    }
  }, () => !o.signal.aborted);
  return rec;
}

/** Applies a settlement to the in-memory states (the journal replays it the same way). */
export function applySettlement(states: Map<string, RecipientState>, rec: Settlement): void {
  for (const [key, v] of Object.entries(rec.sent)) states.set(key, { s: 'sent', id: v.id, settled: true });
  for (const key of rec.unsent) states.set(key, { s: 'pending', lastError: 'in doubt; the event lookup showed it was not sent' });
  for (const [key, reason] of Object.entries(rec.unknown)) {
    const st = states.get(key);
    if (st?.s === 'doubt') states.set(key, { ...st, reason });
  }
}

function matches(plan: PlanRecord, w: WireRecipient, e: EmailEvent | SmsEvent, sentAt: number): boolean {
  if (!e || e.messageId === undefined || e.messageId === null) return false;
  const t = Date.parse(e.eventTime);
  if (!Number.isNaN(t) && t < sentAt - CLOCK_SKEW_MS) return false;
  const vars = w.variables ?? {};
  const same = (seen: unknown, template: unknown) => seen === undefined || seen === null || seen === '' || (typeof template === 'string' && (seen === template || seen === render(template, vars)));
  if (plan.kind === 'email') {
    // The lookup already filtered by recipient; mail.to/mail.recipient are not compared because
    // which of them holds the address is not shown (one may hold the name), and every extra
    // condition here is one more way to mistake a sent message for an unsent one.
    return same((e as EmailEvent).mail?.subject, plan.message.subject);
  }
  const sms = e as SmsEvent;
  if (sms.countryCode && w.country_code && String(sms.countryCode).replace(/^\+/, '') !== w.country_code) return false;
  return same(sms.content, plan.message.content);
}
