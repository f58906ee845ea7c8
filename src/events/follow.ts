// Following the event lookup as new events arrive: each poll asks for the window from a little
// before the newest event already seen (events can be recorded late, with an earlier time) up to
// now, and only events not shown before come out — keyed by message, status and time, and
// forgotten once they fall out of the overlap window so memory stays bounded.

export interface FollowedEvent {
  messageId?: string;
  status?: string;
  eventTime?: string;
}

/** How far back each poll reaches behind the newest event seen. */
export const OVERLAP_MS = 5 * 60_000;

export class EventFollower<E extends FollowedEvent> {
  private readonly seen = new Map<string, number>();
  private newest: number;

  constructor(startMs: number) {
    this.newest = startMs;
  }

  /** Where the next lookup starts. */
  windowStart(): number {
    return this.newest - OVERLAP_MS;
  }

  /** The events of one poll not shown before, oldest first. */
  take(events: E[], startMs: number): E[] {
    const fresh: Array<[number, E]> = [];
    for (const e of events) {
      const t = Date.parse(e.eventTime ?? '');
      if (Number.isNaN(t) || t < startMs) continue; // before the run began, or unreadable
      const key = `${e.messageId ?? ''}\u0000${e.status ?? ''}\u0000${t}`;
      if (this.seen.has(key)) continue;
      this.seen.set(key, t);
      fresh.push([t, e]);
      if (t > this.newest) this.newest = t;
    }
    const horizon = this.windowStart();
    for (const [k, t] of this.seen) if (t < horizon) this.seen.delete(k);
    return fresh.sort((a, b) => a[0] - b[0]).map(([, e]) => e);
  }

  /** How many keys are remembered (bounded by the events of one overlap window). */
  get remembered(): number {
    return this.seen.size;
  }
}
