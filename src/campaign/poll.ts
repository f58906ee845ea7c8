// Waiting on the service: poll with a backoff from tuning.pollMinMs to pollMaxMs on the run's
// clock (so Ctrl-C ends the wait at once), with a spinner for a person watching.
import type { Context } from '../cli/context.js';
import { ServiceError } from '../cli/errors.js';

export interface PollOptions<T> {
  /** What we wait for, for the spinner: "Waiting for CP1…". */
  label: string;
  /** Spinner text for the latest value. */
  describe?: (v: T) => string;
  /** Give up after this long (ms); undefined waits until done or Ctrl-C. */
  timeoutMs?: number;
  /** Sentence for giving up. */
  timeoutMessage?: (v: T) => string;
}

export async function pollUntil<T>(ctx: Context, probe: () => Promise<T>, done: (v: T) => boolean, o: PollOptions<T>): Promise<T> {
  const spin = await ctx.io.spinner(o.label);
  const start = ctx.clock.now();
  let delay = ctx.tuning.pollMinMs;
  try {
    for (;;) {
      const v = await probe();
      if (done(v)) return v;
      if (o.describe) spin.text(`${o.label} ${o.describe(v)}`);
      if (o.timeoutMs !== undefined && ctx.clock.now() - start + delay > o.timeoutMs) {
        throw new ServiceError(o.timeoutMessage ? o.timeoutMessage(v) : `Gave up waiting: ${o.label}`);
      }
      await ctx.clock.sleep(delay, ctx.signal);
      delay = Math.min(ctx.tuning.pollMaxMs, Math.round(delay * 1.5));
    }
  } finally {
    spin.stop();
  }
}
