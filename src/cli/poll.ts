// Waiting on the service, the one loop every --wait uses: poll with a backoff from
// tuning.pollMinMs to pollMaxMs on the run's clock (so Ctrl-C ends the wait at once), with a
// spinner for a person watching. Running out of --timeout is exit 4 ("timed out"), like a
// network wait; the caller says how to pick the wait up again.
import type { Context } from './context.js';
import { InterruptedError, LimitError } from './errors.js';

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
  try {
    for (;;) {
      const v = await probe();
      if (done(v)) return v;
      if (o.describe) spin.text(`${o.label} ${o.describe(v)}`);
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
