// Waiting on the service, the one loop every --wait uses: poll with a backoff from
// tuning.pollMinMs to pollMaxMs on the run's clock (so Ctrl-C ends the wait at once), with a
// spinner for a person watching. Running out of --timeout is exit 4 ("timed out"), like a
// network wait; the caller says how to pick the wait up again. A status lookup that fails in a
// way that is safe to repeat (5xx, network, time-out: the error's facts say so) does not end the
// wait: it keeps polling for up to tuning.waitThroughFaultsMs, then says the state is unknown
// (exit 4), never that the operation failed.
import type { Context } from './context.js';
import { factsOf, InterruptedError, LimitError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

export interface PollOptions<T> {
  /** What we wait for, for the spinner: "Waiting for CP1…". */
  label: string;
  /** Spinner text for the latest value. */
  describe?: (v: T) => string;
  /** Give up after this long (ms); undefined waits until done or Ctrl-C. */
  timeoutMs?: number;
  /** Sentence for giving up. */
  timeoutMessage?: (v: T) => string;
  /** How to pick the wait up again, after a time-out or Ctrl-C. */
  resumeHint?: string;
  /** Sentence for Ctrl-C during the wait. */
  interruptedMessage?: string;
  /** No spinner of its own (the caller shows one progress display for many waits). */
  silent?: boolean;
}

export async function pollUntil<T>(ctx: Context, probe: () => Promise<T>, done: (v: T) => boolean, o: PollOptions<T>): Promise<T> {
  const spin = o.silent ? { text() {}, stop() {} } : await ctx.io.spinner(o.label);
  const deadline = o.timeoutMs === undefined ? Infinity : ctx.clock.now() + o.timeoutMs;
  let delay = ctx.tuning.pollMinMs;
  let failingSince: number | undefined;
  try {
    for (;;) {
      let v: T;
      try {
        v = await probe();
        failingSince = undefined;
      } catch (e) {
        if (ctx.signal.aborted || !factsOf(e).retryable) throw e;
        failingSince ??= ctx.clock.now();
        const gaveUp = ctx.clock.now() - failingSince >= ctx.tuning.waitThroughFaultsMs || ctx.clock.now() >= deadline;
        if (gaveUp) {
          // Not the lookup's own code (SERVICE_FAILED, NETWORK…): the operation did not fail,
          // it went on at the service and only its state could not be read.
          const { serviceCode, status } = factsOf(e);
          throw new LimitError(`${o.label} its state is unknown: checking it kept failing (${(e as Error).message})`, o.resumeHint, { code: 'STATE_UNKNOWN', reached: 'yes', refused: false, retryable: true, serviceCode, status });
        }
        spin.text(`${o.label} the status lookup failed; trying again…`);
        await ctx.clock.sleep(Math.min(delay, Math.max(0, deadline - ctx.clock.now())), ctx.signal);
        delay = Math.min(ctx.tuning.pollMaxMs, Math.round(delay * 1.5));
        continue;
      }
      if (done(v)) return v;
      // describe() shows the service's words (a status): only through the sanitiser.
      if (o.describe) spin.text(`${o.label} ${forTerminal(o.describe(v), 200)}`);
      const left = deadline - ctx.clock.now();
      if (left <= 0) throw new LimitError(o.timeoutMessage ? o.timeoutMessage(v) : `Gave up waiting: ${o.label}`, o.resumeHint);
      await ctx.clock.sleep(Math.min(delay, left), ctx.signal);
      delay = Math.min(ctx.tuning.pollMaxMs, Math.round(delay * 1.5));
    }
  } catch (e) {
    // Ctrl-C may land during the sleep or during a status request (whose own error knows
    // nothing of the wait): either way, say which wait stopped and how to pick it up.
    if (ctx.signal.aborted) throw new InterruptedError(o.interruptedMessage, o.resumeHint);
    throw e;
  } finally {
    spin.stop();
  }
}
