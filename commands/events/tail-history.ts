// mailctl events tail --history: follows the event store instead of the service's lookup — each
// event as a listener stores it, read every --interval, with no row cap. Rows are followed by
// when they were received; each read looks OVERLAP_MS back and skips rows already shown, so a
// row committed a little late (another listener's batch, a clock a little behind) is not missed,
// and none is shown twice. Output as `events tail`: a line on a terminal, NDJSON piped, one
// document with --json (source "store").
import { isoSeconds, parseTimeRange } from '../../src/core/date.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { historyFilter, openHistory, historyEvents } from './history.js';
import { followSpan, pauseUntilNext, stoppedLine } from './follow-span.js';
import { eventLine } from './event-line.js';
import type { HistoryEmailEvent, HistorySmsEvent } from '../../src/store/as-lookup.js';
import type { Context } from '../../src/run/context.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declareTail } from './index.js';

const MIN_INTERVAL_MS = 1000;
/** How far back each read looks again for rows committed late. */
export const OVERLAP_MS = 10_000;

export async function tailHistory(ctx: Context, opts: OptsOf<typeof declareTail>): Promise<void> {
  const now = ctx.clock.now();
  const range = parseTimeRange(opts, now);
  const since = range.since;
  const { interval, stopAt } = followSpan(range, opts, now, { intervalMs: MIN_INTERVAL_MS, why: ' with --history' });
  // The other filters as `events --history` reads them; the range is this tail's own.
  const f = historyFilter({ ...opts, since: undefined, until: undefined }, now, 'received');
  const store = await openHistory(ctx, opts.store);
  const asDocument = ctx.io.json;
  const ndjson = !asDocument && !ctx.io.isTTY;
  const held: Array<HistoryEmailEvent | HistorySmsEvent> = [];
  const start = since ?? now;
  let cursor = start;
  /** Receipt time of each row shown within the overlap, by (channel, id, event). */
  let seen = new Map<string, number>();
  let shown = 0;
  if (ctx.io.isTTY || asDocument) ctx.io.info(`Following the event store ${forTerminal(store.shown, 300)}${since !== undefined ? ` since ${isoSeconds(since)}` : ''}; ${asDocument ? 'the JSON document prints when it stops' : 'Ctrl-C stops'}.`);
  try {
    while (!ctx.signal.aborted && ctx.clock.now() < stopAt) {
      const from = Math.max(start, cursor - OVERLAP_MS);
      const rows = await historyEvents(store, { ...f, query: { ...f.query, since: from } });
      for (const e of rows) {
        const key = JSON.stringify([e.channel, e.messageId, e.status]);
        if (seen.has(key)) continue;
        const at = Date.parse(e.receivedAt);
        seen.set(key, at);
        cursor = Math.max(cursor, at);
        shown++;
        if (asDocument) held.push(e);
        else if (ndjson) ctx.io.printJsonLine(e);
        else ctx.io.out(eventLine(ctx, e, e.channel === 'sms'));
      }
      const keepFrom = cursor - OVERLAP_MS;
      seen = new Map([...seen].filter(([, at]) => at >= keepFrom));
      if (!(await pauseUntilNext(ctx.clock, ctx.signal, interval, stopAt))) break;
    }
  } finally {
    await store.close();
  }
  if (asDocument) ctx.io.printJson({ source: 'store', store: store.shown, channel: opts.sms ? 'sms' : 'email', since: isoSeconds(start), until: isoSeconds(ctx.clock.now()), stopped: ctx.signal.aborted ? 'interrupted' : 'time', count: held.length, events: held });
  if (ctx.io.isTTY) ctx.io.info(stoppedLine(shown, asDocument));
}


