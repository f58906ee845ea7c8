// Sends the pending recipients of a journal in batches of 100, a few requests at a time, for
// every kind (email, SMS, automation): the kind supplies the request and the mapping of its
// answer. Each batch is journaled before its request goes out and again when its fate is
// known, so a kill at any moment leaves nothing that could be sent twice by `--resume`.
import { certainlyNotDone } from '../core/errors.js';
import { BATCH_SIZE, chunk } from './batches.js';
import { runPool } from '../core/pool.js';
import { conflictState, keyOf, NOT_LISTED, type Journal, type PlanRecord, type RecipientState, type WireRecipient } from './journal.js';
import type { BatchAnswer } from './kinds.js';

export interface RunnerOptions<R> {
  journal: Journal;
  plan: PlanRecord;
  states: Map<string, RecipientState>;
  /** The first batch id to use (a sequence over the journal). */
  firstBatch: number;
  concurrency: number;
  signal: AbortSignal;
  now: () => number;
  /** Sends one request body (the plan's message plus a batch of recipients). */
  send: (body: Record<string, unknown>) => Promise<R>;
  /** The kind's reading of an answer, keyed like the journal. */
  answer: (plan: PlanRecord, wires: WireRecipient[], res: R) => BatchAnswer;
  /** After each batch: recipients answered so far, of `total`. */
  onProgress?: (done: number, total: number) => void;
}

export interface RunnerOutcome {
  requestIds: string[];
  /** Requests made (each batch tried, whatever its answer); requestIds has only those the service took. */
  made: number;
  batches: number;
  /** The error that stopped the run (a request refused as a whole, no key, the daily cap, Ctrl-C…). */
  stoppedBy?: Error;
}

export async function sendPending<R>(o: RunnerOptions<R>): Promise<RunnerOutcome> {
  const { plan, states, journal } = o;
  const pending = plan.recipients.filter((r) => states.get(keyOf(plan, r))?.state === 'pending');
  const batches = chunk(pending, plan.batchSize || BATCH_SIZE);
  const requestIds: string[] = [];
  let stoppedBy: Error | undefined;
  let nextId = o.firstBatch;
  let done = 0;
  const iso = () => new Date(o.now()).toISOString();

  await runPool(batches, o.concurrency, async (wires) => {
    const batch = String(nextId++);
    const keys = wires.map((w) => keyOf(plan, w));
    const at = iso();
    await journal.append({ type: 'intent', batch, keys, at });
    for (const key of keys) states.set(key, { state: 'inflight', batch, at });
    let res: R;
    try {
      res = await o.send({ ...plan.message, recipients: wires });
    } catch (e) {
      const fate = requestFate(e);
      const reason = (e as Error).message || String(e);
      await journal.append({ type: fate, batch, at: iso(), reason });
      for (const key of keys) states.set(key, fate === 'unsent' ? { state: 'pending', lastError: reason } : { state: 'doubt', batch, at, reason });
      stoppedBy ??= e as Error;
      return;
    }
    const { requestId, success, failure, conflict, unmatched } = o.answer(plan, wires, res);
    const conflicts = Object.keys(conflict).length ? { conflict } : {};
    await journal.append({ type: 'result', batch, at: iso(), ...(requestId ? { requestId } : {}), success, failure, ...conflicts, ...(unmatched.length ? { unmatched } : {}) });
    if (requestId) requestIds.push(requestId);
    for (const key of keys) {
      if (Object.hasOwn(conflict, key)) states.set(key, conflictState(batch, at, conflict[key]));
      else if (Object.hasOwn(success, key)) states.set(key, { state: 'sent', id: success[key] || undefined, batch, requestId });
      else if (Object.hasOwn(failure, key)) states.set(key, { state: 'failed', reason: failure[key] });
      else states.set(key, { state: 'doubt', batch, at, reason: NOT_LISTED });
    }
    done += wires.length;
    o.onProgress?.(done, pending.length);
  }, () => !stoppedBy && !o.signal.aborted);

  return { requestIds, made: nextId - o.firstBatch, batches: batches.length, stoppedBy };
}

/**
 * Did a failed request certainly not go out ("unsent": safe to send again), or may it have
 * ("doubt": must be checked first)? Read from the error's facts only: refusals with an answer
 * (4xx, Forbidden, the rate limit, the daily cap) and failures to connect at all are certain;
 * time-outs, resets, 5xx and Ctrl-C are not.
 */
export function requestFate(e: unknown): 'unsent' | 'doubt' {
  return certainlyNotDone(e) ? 'unsent' : 'doubt';
}
