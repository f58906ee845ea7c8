// Sends the pending recipients of a journal in batches of 100, a few requests at a time. Each
// batch is journaled before its request goes out and again when its fate is known, so a kill
// at any moment leaves nothing that could be sent twice by `--resume`.
import { certainlyNotDone } from '../cli/errors.js';
import type { SendResult } from '../api/notify-types.js';
import { BATCH_SIZE, chunk, runPool } from './batches.js';
import { keyOf, type Journal, type PlanRecord, type RecipientState, type WireRecipient } from './journal.js';

export interface RunnerOptions {
  journal: Journal;
  plan: PlanRecord;
  states: Map<string, RecipientState>;
  /** The first batch id to use (a sequence over the journal). */
  firstBatch: number;
  concurrency: number;
  signal: AbortSignal;
  now: () => number;
  send: (body: Record<string, unknown>) => Promise<SendResult>;
  /** After each batch: recipients settled so far, of `total`. */
  onProgress?: (done: number, total: number) => void;
}

export interface RunnerOutcome {
  requestIds: string[];
  batches: number;
  /** The error that stopped the run (a request refused as a whole, no key, Ctrl-C…). */
  stoppedBy?: Error;
}

export async function sendPending(o: RunnerOptions): Promise<RunnerOutcome> {
  const { plan, states, journal } = o;
  const pending = plan.recipients.filter((r) => states.get(keyOf(plan.kind, r))?.s === 'pending');
  const batches = chunk(pending, plan.batchSize || BATCH_SIZE);
  const requestIds: string[] = [];
  let stoppedBy: Error | undefined;
  let nextId = o.firstBatch;
  let done = 0;
  const iso = () => new Date(o.now()).toISOString();

  await runPool(batches, o.concurrency, async (wires) => {
    const b = String(nextId++);
    const keys = wires.map((w) => keyOf(plan.kind, w));
    const at = iso();
    await journal.append({ t: 'intent', b, keys, at });
    for (const key of keys) states.set(key, { s: 'inflight', b, at });
    let res: SendResult;
    try {
      res = await o.send({ ...plan.message, recipients: wires });
    } catch (e) {
      const fate = requestFate(e);
      const reason = (e as Error).message || String(e);
      await journal.append({ t: fate, b, at: iso(), reason });
      for (const key of keys) states.set(key, fate === 'unsent' ? { s: 'pending', lastError: reason } : { s: 'doubt', b, at, reason });
      stoppedBy ??= e as Error;
      return;
    }
    const { success, failure, unmatched } = byKey(plan, wires, res);
    await journal.append({ t: 'result', b, at: iso(), requestId: res.id, success, failure, ...(unmatched.length ? { unmatched } : {}) });
    if (res.id) requestIds.push(res.id);
    for (const key of keys) {
      if (Object.hasOwn(success, key)) states.set(key, { s: 'sent', id: success[key], b, requestId: res.id });
      else if (Object.hasOwn(failure, key)) states.set(key, { s: 'failed', reason: failure[key] });
      else states.set(key, { s: 'doubt', b, at, reason: 'not listed in the service\'s answer' });
    }
    done += wires.length;
    o.onProgress?.(done, pending.length);
  }, () => !stoppedBy && !o.signal.aborted);

  return { requestIds, batches: batches.length, stoppedBy };
}

/**
 * Did a failed request certainly not go out ("unsent": safe to send again), or may it have
 * ("doubt": must be checked first)? Refusals with an answer (4xx, Forbidden, the rate-limit
 * gate) and failures to connect at all are certain; time-outs, resets, 5xx and Ctrl-C are not.
 */
export function requestFate(e: unknown): 'unsent' | 'doubt' {
  return certainlyNotDone(e) ? 'unsent' : 'doubt';
}

/** The service's success/failure lists keyed like the journal. SMS addresses may come back with or without the code. */
export function byKey(plan: PlanRecord, wires: WireRecipient[], res: SendResult): { success: Record<string, string>; failure: Record<string, string>; unmatched: string[] } {
  const lookup = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const w of wires) {
    const key = keyOf(plan.kind, w);
    for (const form of addressForms(plan.kind, w)) {
      // The same national number under two country codes: that form proves nothing.
      if (lookup.has(form) && lookup.get(form) !== key) ambiguous.add(form);
      else lookup.set(form, key);
    }
  }
  for (const form of ambiguous) lookup.delete(form);
  const find = (address: unknown) => (typeof address === 'string' ? lookup.get(normalise(plan.kind, address)) : undefined);
  const success: Record<string, string> = {};
  const failure: Record<string, string> = {};
  const unmatched: string[] = [];
  for (const s of res.success) {
    const key = find(s?.address);
    if (key) success[key] = String(s.id);
    else unmatched.push(String(s?.address));
  }
  for (const [address, reason] of Object.entries(res.failure)) {
    const key = find(address);
    if (key) failure[key] = String(reason);
    else unmatched.push(address);
  }
  return { success, failure, unmatched };
}

function normalise(kind: PlanRecord['kind'], address: string): string {
  return kind === 'email' ? address.trim().toLowerCase() : address.replace(/[\s+-]/g, '');
}

function addressForms(kind: PlanRecord['kind'], w: WireRecipient): string[] {
  if (kind === 'email') return [w.address.toLowerCase()];
  const national = w.address;
  const bare = national.replace(/^0+/, '');
  const cc = w.country_code ?? '';
  return [national, `${cc}${bare}`, `${cc}${national}`, `00${cc}${bare}`].map((f) => normalise(kind, f));
}
