// Following the event lookup as new events arrive: each poll asks for the window from a little
// before the newest event already seen (events can be recorded late, with an earlier time) up to
// now, and only events not shown before come out — keyed by message, status and time, and
// forgotten once they fall behind the window so memory stays bounded.
//
// A lookup returns at most the first `cap` rows (SMS: 50, spec 001 section 8; email: not shown,
// 50 by the vendor's reference — decisions row P9). A full answer means more rows may follow, so
// the window would keep returning the same first rows and the tail would stall. Instead the next
// lookup starts at the newest row of the full answer (paging forward at once), and from then on
// the look-back behind the newest event is narrowed, so a dense window is not re-read each poll.

export interface FollowedEvent {
  messageId?: string;
  status?: string;
  eventTime?: string;
}

/** How far back each poll reaches behind the newest event seen. */
export const OVERLAP_MS = 5 * 60_000;
/** The look-back once a lookup has come back full. */
export const NARROW_OVERLAP_MS = 10_000;
/** Rows one lookup returns at most (spec 001 section 8 for SMS; decisions row P9 for email). */
export const ROW_CAP = 50;

export interface Taken<E> {
  /** Events not shown before, oldest first. */
  fresh: E[];
  /** The answer held `cap` rows or more: more may follow; look again at once. */
  full: boolean;
  /** A full answer within one second: the rows beyond the cap in that second cannot be reached. */
  crowdedSecond?: number;
}

const floorSecond = (t: number) => Math.floor(t / 1000) * 1000;

export class EventFollower<E extends FollowedEvent> {
  private readonly seen = new Map<string, number>();
  private readonly startMs: number;
  private readonly cap: number;
  private newest: number;
  private floor: number;
  private overlap = OVERLAP_MS;

  constructor(startMs: number, cap = ROW_CAP) {
    this.startMs = startMs;
    this.cap = cap;
    this.newest = startMs;
    this.floor = floorSecond(startMs);
  }

  /** Whether the look-back has been narrowed (a lookup came back full). */
  get narrowed(): boolean {
    return this.overlap < OVERLAP_MS;
  }

  /** Where the next lookup starts: a whole second (the lookup's `from`), never earlier than before. */
  windowStart(): number {
    return Math.max(this.floor, floorSecond(Math.max(this.startMs, this.newest - this.overlap)));
  }

  /** One poll's answer to a lookup that started at `from`. */
  take(events: E[], from = this.windowStart()): Taken<E> {
    const fresh: Array<[number, E]> = [];
    let top = -Infinity;
    for (const e of events) {
      const t = Date.parse(e.eventTime ?? '');
      if (Number.isNaN(t)) continue; // unreadable: cannot be placed or de-duplicated
      top = Math.max(top, t);
      if (t < this.startMs) continue; // before the run began
      const key = `${e.messageId ?? ''}\u0000${e.status ?? ''}\u0000${t}`;
      if (this.seen.has(key)) continue;
      this.seen.set(key, t);
      fresh.push([t, e]);
      if (t > this.newest) this.newest = t;
    }
    const out: Taken<E> = { fresh: fresh.sort((a, b) => a[0] - b[0]).map(([, e]) => e), full: events.length >= this.cap };
    if (out.full) {
      // Page forward from the newest row returned (rows of its second may be beyond the cap too,
      // so that second is asked again and de-duplicated); a full second can only be skipped.
      let next = Number.isFinite(top) ? floorSecond(top) : from;
      if (next <= from) {
        out.crowdedSecond = from;
        next = from + 1000;
      }
      this.floor = Math.max(this.floor, next);
      this.overlap = NARROW_OVERLAP_MS;
    }
    // Later lookups start at windowStart() or after, so older keys cannot come back.
    const horizon = this.windowStart();
    for (const [k, t] of this.seen) if (t < horizon) this.seen.delete(k);
    return out;
  }

  /** How many keys are remembered (bounded by the events of one window). */
  get remembered(): number {
    return this.seen.size;
  }
}
