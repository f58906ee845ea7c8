// The bounce and complaint events of a time range, read so that a row cap cannot silently hide
// any (decisions row P9). The email lookup's cap is "not shown" in spec 001 (the vendor's
// reference says 50 per query), so one lookup over 30 days proves nothing. The range is read one
// UTC day per lookup; a lookup that returns a round count (a multiple of 50) may have been cut
// off, so its range is split in halves and read again, down to one minute. What is still round
// at one minute — or once the lookup budget is spent — is reported, never dropped in silence.
// Ranges share their boundary second (the lookup's bounds are whole seconds and inclusive), so
// no event falls between two; events are de-duplicated by message, status and time.
import type { EmailEvent } from '../api/notify-types.js';
import type { NotifyClient } from '../api/notify.js';
import { isoSeconds } from '../core/date.js';
import { runPool } from '../core/pool.js';

const DAY_MS = 86_400_000;
/** Ranges are not split below this. */
export const MIN_SPAN_MS = 60_000;
/** The row count a cap would show: 50 (decisions row P9) or any multiple of it. */
export const ROUND = 50;
/** Lookups one run may make, splitting included (a service that always answers 50 must not be asked forever). */
export const MAX_LOOKUPS = 500;
/** decisions row 16: no documented rate limit for the notification service; a few in flight. */
const CONCURRENCY = 4;

export interface Span {
  from: string;
  to: string;
  rows: number;
}

export interface BounceEvents {
  events: EmailEvent[];
  lookups: number;
  /** Ranges whose count stayed round: events there may be missing. */
  possiblyCapped: Span[];
}

export const looksCapped = (rows: number): boolean => rows > 0 && rows % ROUND === 0;

/** [from, to] as whole UTC days (the first and last may be partial), sharing boundaries. */
export function daySpans(fromMs: number, toMs: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let a = fromMs;
  while (a < toMs) {
    const b = Math.min(toMs, (Math.floor(a / DAY_MS) + 1) * DAY_MS);
    spans.push([a, b]);
    a = b;
  }
  if (!spans.length) spans.push([fromMs, toMs]);
  return spans;
}

export async function bounceEvents(notify: Pick<NotifyClient, 'emailEvents'>, fromMs: number, toMs: number, shouldGoOn: () => boolean = () => true): Promise<BounceEvents> {
  const seen = new Map<string, EmailEvent>();
  const possiblyCapped: Span[] = [];
  let lookups = 0;
  const read = async (a: number, b: number): Promise<void> => {
    const from = isoSeconds(a);
    const to = isoSeconds(b);
    lookups++;
    const rows = await notify.emailEvents({ from, to, status: 'bounce,complaint' });
    for (const e of rows) seen.set(`${e.messageId ?? ''}\u0000${e.status ?? ''}\u0000${e.eventTime ?? ''}\u0000${e.mail?.to ?? ''}`, e);
    if (!looksCapped(rows.length)) return;
    if (b - a <= MIN_SPAN_MS || lookups + 2 > MAX_LOOKUPS || !shouldGoOn()) {
      possiblyCapped.push({ from, to, rows: rows.length });
      return;
    }
    const mid = Math.floor((a + b) / 2000) * 1000;
    await read(a, mid);
    await read(mid, b);
  };
  await runPool(daySpans(fromMs, toMs), CONCURRENCY, ([a, b]) => read(a, b), shouldGoOn);
  possiblyCapped.sort((x, y) => x.from.localeCompare(y.from));
  return { events: [...seen.values()], lookups, possiblyCapped };
}
