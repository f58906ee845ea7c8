// What differs between the kinds a journal can send — transactional email, SMS (notification
// service) and automation events (campaign service, endpoint 20) — kept in one table so the
// journal, runner, resume and report are one mechanism for all three: whether an event log can
// settle a batch in doubt, and how the service's answer maps onto journal keys. Which client
// method sends a batch is src/send/session.ts `clientsFor`; the paths live in src/api.
import type { SendResult } from '../api/notify-types.js';
import type { SendOutcome } from '../api/campaign-types.js';
import { keyOf, type Kind, type PlanRecord, type WireRecipient } from './journal.js';
import { bareNational } from './sms-rules.js';

/** One batch's answer, keyed like the journal. `success` maps key → message id ('' if none). */
export interface BatchAnswer {
  requestId?: string;
  success: Record<string, string>;
  failure: Record<string, string>;
  /**
   * Recipients the answer listed both in `success` and in `failure` (key → the message id it
   * gave, or ''): in neither map above. Neither accepted nor refused: in doubt (issue 19 item 8).
   */
  conflict: Record<string, string>;
  /** Addresses in the answer that match no recipient of the batch. */
  unmatched: string[];
}

export interface KindSpec {
  /** Whether an event log can settle an in-doubt recipient (automation has none). */
  lookup: boolean;
  answer(plan: PlanRecord, wires: WireRecipient[], res: unknown): BatchAnswer;
}

export const KIND: Record<Kind, KindSpec> = {
  email: { lookup: true, answer: (p, w, r) => notifyAnswer(p, w, r as SendResult) },
  sms: { lookup: true, answer: (p, w, r) => notifyAnswer(p, w, r as SendResult) },
  automation: { lookup: false, answer: (p, w, r) => automationAnswer(p, w, r as SendOutcome) },
};

/** Spec 001 section 4: `id` (request), `success` [{id, address}], `failure` {address: reason}. SMS addresses may come back with or without the code. */
export function notifyAnswer(plan: PlanRecord, wires: WireRecipient[], res: SendResult): BatchAnswer {
  const find = addressFinder(plan, wires);
  const out: BatchAnswer = { ...(typeof res.id === 'string' || typeof res.id === 'number' ? { requestId: String(res.id) } : {}), success: {}, failure: {}, conflict: {}, unmatched: [] };
  for (const s of res.success) {
    const key = find(s?.address);
    // An item without an id: accepted, with no message id to report or look up.
    if (key) out.success[key] = typeof s?.id === 'string' || typeof s?.id === 'number' ? String(s.id) : '';
    else out.unmatched.push(String(s?.address));
  }
  for (const [address, reason] of Object.entries(res.failure)) {
    const key = find(address);
    if (key) out.failure[key] = String(reason);
    else out.unmatched.push(address);
  }
  return separateConflicts(out);
}

/**
 * A recipient in both lists is in neither: the answer contradicts itself about it, so it is taken
 * out of both and kept, with the message id it was given, as a conflict. Decided from the lists'
 * keys alone, never from a reason's words.
 */
function separateConflicts(out: BatchAnswer): BatchAnswer {
  for (const key of Object.keys(out.success)) {
    if (!Object.hasOwn(out.failure, key)) continue;
    out.conflict[key] = out.success[key];
    delete out.success[key];
    delete out.failure[key];
  }
  return out;
}

/** Spec 000 endpoint 20: `success` is an array of accepted addresses, `failure` {address: reason}; no ids. */
export function automationAnswer(plan: PlanRecord, wires: WireRecipient[], res: SendOutcome): BatchAnswer {
  const find = addressFinder(plan, wires);
  const out: BatchAnswer = { success: {}, failure: {}, conflict: {}, unmatched: [] };
  for (const address of res.success) {
    const key = find(address);
    if (key) out.success[key] = '';
    else out.unmatched.push(String(address));
  }
  for (const [address, reason] of Object.entries(res.failure)) {
    const key = find(address);
    if (key) out.failure[key] = String(reason);
    else out.unmatched.push(address);
  }
  return separateConflicts(out);
}

function addressFinder(plan: PlanRecord, wires: WireRecipient[]): (address: unknown) => string | undefined {
  const lookup = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const w of wires) {
    const key = keyOf(plan, w);
    for (const form of addressForms(plan.kind, w)) {
      // The same national number under two country codes: that form proves nothing.
      if (lookup.has(form) && lookup.get(form) !== key) ambiguous.add(form);
      else lookup.set(form, key);
    }
  }
  for (const form of ambiguous) lookup.delete(form);
  return (address) => (typeof address === 'string' ? lookup.get(normalise(plan.kind, address)) : undefined);
}

function normalise(kind: Kind, address: string): string {
  return kind === 'sms' ? address.replace(/[\s+-]/g, '') : address.trim().toLowerCase();
}

function addressForms(kind: Kind, w: WireRecipient): string[] {
  if (kind !== 'sms') return [w.address.toLowerCase()];
  const national = w.address;
  const bare = bareNational(national);
  const cc = w.country_code ?? '';
  return [national, `${cc}${bare}`, `${cc}${national}`, `00${cc}${bare}`].map((f) => normalise(kind, f));
}
