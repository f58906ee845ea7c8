// Client-side rate limit: at most `max` request starts in any `windowMs` window (a sliding
// log, matching how a server counting arrivals per second sees us). Calls queue in order.
import type { Clock } from '../core/clock.js';

export interface Limiter {
  /** Resolves when a request may start; a ticket, when given, goes back to answered(). */
  take(signal?: AbortSignal): Promise<Ticket | void>;
  /**
   * The request that took this ticket settled: the service answered with `status`, or it failed
   * without an answer (no status). Either way it has arrived at the service, if it ever will.
   */
  answered?(ticket: Ticket, status?: number): Promise<void>;
}

export interface Ticket {
  readonly id: string;
}

export const unlimited: Limiter = { take: async () => {} };

export class SlidingWindowLimiter implements Limiter {
  private readonly stamps: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  /** marginMs absorbs jitter between our send time and the server's arrival time. */
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly marginMs = 50,
  ) {}

  take(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(async () => {
      if (this.stamps.length >= this.max) {
        const oldest = this.stamps[this.stamps.length - this.max];
        const wait = oldest + this.windowMs + this.marginMs - this.clock.now();
        if (wait > 0) await this.clock.sleep(wait, signal);
      }
      this.stamps.push(this.clock.now());
      if (this.stamps.length > this.max) this.stamps.splice(0, this.stamps.length - this.max);
    });
    this.queue = turn.catch(() => {});
    return turn;
  }
}
