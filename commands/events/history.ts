// mailctl events --history: the same question as `events`, answered from the event store that
// `webhook listen` fills (src/store) instead of the service's lookup — any age, no row cap, the
// same filters and output formats. Where the answer came from is said: a line on stderr on a
// terminal, `source` and `store` in --json.
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { printList } from '../../src/run/output/format.js';
import { checkCountryCodeFlag, checkRecipient, EMAIL_STATUSES, parseStatuses, SMS_STATUSES } from './query.js';
import { EMAIL_COLUMNS, SMS_COLUMNS } from './columns.js';
import { parseTimeRange } from '../../src/core/date.js';
import { storeLocation } from '../../src/store/location.js';
import { openStore } from '../../src/store/open.js';
import { allRows, type EventStore, type StoreQuery } from '../../src/store/store.js';
import { asEmailEvent, asSmsEvent, smsTo, type HistoryEmailEvent, type HistorySmsEvent } from '../../src/store/as-lookup.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { plural } from '../../src/core/human.js';
import { SIGNED_EVENTS } from '../../src/webhook/signature.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declareEvents } from './index.js';

/** The filters `events` and `events tail` share, as `--history` reads them. */
export type HistoryFlags = Pick<OptsOf<typeof declareEvents>, 'sms' | 'id' | 'recipient' | 'countryCode' | 'status' | 'since' | 'until' | 'store'>;

export interface HistoryFilter {
  query: StoreQuery;
  /** SMS: the national number and calling code every row must match (checked on the payload). */
  sms?: { number: string; countryCode?: string };
}

/** The flags as a store query (`by`: which time --since/--until bound). Bad flags: UsageError. */
export function historyFilter(opts: HistoryFlags, now: number, by: StoreQuery['by']): HistoryFilter {
  const range = parseTimeRange(opts, now);
  const sms = !!opts.sms;
  const recipient = checkRecipient(opts.recipient, sms);
  if (!sms && opts.countryCode !== undefined) throw new UsageError('--country-code is for SMS; add --sms.');
  const cc = checkCountryCodeFlag(opts.countryCode);
  const status = opts.status === undefined ? undefined : parseStatuses(opts.status, sms ? SMS_STATUSES : EMAIL_STATUSES, sms).split(',');
  // The store keeps only what webhooks carry: accept and retry have no webhook (spec 001 section 2),
  // so asking the store for them is a question it can never answer, not an empty result.
  const carried = SIGNED_EVENTS[sms ? 'sms' : 'email'];
  const never = status?.filter((x) => !carried.includes(x)) ?? [];
  if (never.length) {
    throw new UsageError(
      `--status ${never.join(',')}: the event store holds only what webhooks carry (${carried.join(', ')}${sms ? ' for SMS' : ''}), and no webhook reports ${never.join(' or ')}.`,
      'Drop --history to ask the service, which keeps those for its own window, or leave those statuses out.',
    );
  }
  const query: StoreQuery = { by, channel: sms ? 'sms' : 'email', id: opts.id, since: range.since, until: range.until, events: status };
  if (recipient !== undefined && !sms) query.recipient = recipient;
  if (recipient !== undefined && sms) query.recipientDigits = recipient.replace(/\D/g, '').replace(/^0+/, '');
  return { query, sms: recipient !== undefined && sms ? { number: recipient, countryCode: cc } : undefined };
}

export async function openHistory(ctx: Context, store: string | undefined): Promise<EventStore> {
  return openStore(storeLocation(store, ctx.configDir), { create: false });
}

/** The rows of `f` in the lookup's shape, in time order. */
export async function historyEvents(s: EventStore, f: HistoryFilter): Promise<Array<HistoryEmailEvent | HistorySmsEvent>> {
  const out: Array<HistoryEmailEvent | HistorySmsEvent> = [];
  for await (const r of allRows(s, f.query)) {
    if (r.channel === 'sms') {
      const e = asSmsEvent(r);
      if (!f.sms || smsTo(e, f.sms.number, f.sms.countryCode)) out.push(e);
    } else out.push(asEmailEvent(r));
  }
  return out;
}

export async function history(ctx: Context, opts: HistoryFlags): Promise<void> {
  const f = historyFilter(opts, ctx.clock.now(), 'event');
  const s = await openHistory(ctx, opts.store);
  let rows;
  try {
    rows = await historyEvents(s, f);
  } finally {
    await s.close();
  }
  if (ctx.io.isTTY && !ctx.io.json) ctx.io.info(`From the event store ${forTerminal(s.shown, 300)} (webhooks received by \`mailctl webhook listen\`): ${plural(rows.length, 'event')}.`);
  const doc = { source: 'store', store: s.shown, logs: rows };
  const empty = `No ${opts.sms ? 'SMS' : 'email'} events in the event store matched.`;
  if (opts.sms) await printList(ctx.io, rows as HistorySmsEvent[], SMS_COLUMNS, doc, { empty });
  else await printList(ctx.io, rows as HistoryEmailEvent[], EMAIL_COLUMNS, doc, { empty });
}
