// mailctl events tail: follow new email (or SMS) events by polling the lookup endpoint, within
// its limits (SMS: 30 days, 50 rows; a full answer is paged forward, src/events/follow.ts). A
// table line per event on a terminal, NDJSON (a stream) when piped. --json (and --query, which
// implies it) keeps the contract every command keeps — stdout is one JSON document — so the
// events are held and printed as one document when the tail ends: at --for/--until, or on
// Ctrl-C (without either, Ctrl-C is the only end). Ctrl-C or --for ends it with exit 0. A lookup
// that fails after events were held still prints them: the document says stopped "error" and
// carries the error; the exit code is the error's.
import { CliError, errorJson, UsageError } from '../../src/core/errors.js';
import { errorWords } from '../../src/cli/error-text.js';
import type { EmailEvent, SmsEvent } from '../../src/api/notify-types.js';
import { isoSeconds, parseTimeRange } from '../../src/core/date.js';
import { EventFollower, NARROW_OVERLAP_MS, ROW_CAP } from '../../src/events/follow.js';
import { checkCountryCodeFlag, checkRecipient, EMAIL_STATUSES, LOOKUP_DAYS, parseStatuses, SMS_STATUSES, startWithinWindow, warnIdOverRecipient } from './query.js';
import { suggest } from '../../src/core/suggest.js';
import { followSpan, pauseUntilNext, stoppedLine } from './follow-span.js';
import { eventLine } from './event-line.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareTail } from './index.js';

const MIN_INTERVAL_MS = 2000;
/** How far back each lookup may reach (query.ts LOOKUP_DAYS: spec 001 section 8, decisions row P9). */
const LOOKUP_SPAN_MS = LOOKUP_DAYS * 86_400_000;

type AnyEvent = EmailEvent & SmsEvent;

export const run: Verb<typeof declareTail> = async (ctx, opts) => {
  if (opts.history) return (await import('./tail-history.js')).tailHistory(ctx, opts);
  if (opts.store !== undefined) throw new UsageError('--store names the event store that --history follows; add --history.');
  const now = ctx.clock.now();
  const range = parseTimeRange(opts, now);
  const recipient = checkRecipient(opts.recipient, !!opts.sms);
  const { interval, stopAt } = followSpan(range, opts, now, { intervalMs: MIN_INTERVAL_MS, why: ', to keep the lookups light' });
  const status = opts.status === undefined ? undefined : parseStatuses(opts.status, opts.sms ? SMS_STATUSES : EMAIL_STATUSES, !!opts.sms);
  let cc: string | undefined;
  if (opts.sms) {
    if (!opts.id && !(recipient && opts.countryCode)) {
      throw new UsageError('Following SMS events needs --id, or --recipient with --country-code (the SMS lookup has no "all numbers" query).', `For example: ${suggest(ctx, 'events', 'tail', '--sms', '--recipient', '0912345678', '--country-code', '886')}`);
    }
    cc = checkCountryCodeFlag(opts.countryCode);
  } else if (opts.countryCode !== undefined) throw new UsageError('--country-code is for SMS; add --sms.');
  // decisions row 30: a lookup by id sends the id alone (the client leaves the recipient out).
  warnIdOverRecipient(ctx, opts.id, recipient);
  const sinceAt = startWithinWindow((t) => ctx.io.warn(t), range, opts.since, now, opts.sms ? 'SMS events' : 'email events');

  const client = await ctx.notify();
  const start = sinceAt ?? now;
  const follow = new EventFollower<AnyEvent>(start, ROW_CAP);
  const asDocument = ctx.io.json;
  const ndjson = !asDocument && !ctx.io.isTTY;
  const held: AnyEvent[] = [];
  // One document, filtered by --query as a whole: `--query 'events[].messageId'`.
  const document = (stopped: 'interrupted' | 'time' | 'error', error?: unknown) => ({
    channel: opts.sms ? 'sms' : 'email',
    since: isoSeconds(start),
    until: isoSeconds(ctx.clock.now()),
    stopped,
    count: held.length,
    events: held,
    ...(stopped === 'error' ? { error: errorJson(error, error instanceof CliError ? errorWords(error, ctx) : undefined) } : {}),
  });
  let shown = 0;
  if (ctx.io.isTTY || asDocument) {
    const end = asDocument ? `the JSON document prints when it stops (${stopAt === Infinity ? 'Ctrl-C' : 'at the end of --for/--until, or Ctrl-C'})` : 'Ctrl-C stops';
    ctx.io.info(`Following ${opts.sms ? 'SMS' : 'email'} events${sinceAt !== undefined ? ` since ${isoSeconds(sinceAt)}` : ''}; ${end}.`);
  }
  while (!ctx.signal.aborted && ctx.clock.now() < stopAt) {
    const toMs = Math.ceil(ctx.clock.now() / 1000) * 1000;
    // Never more than the lookup covers: `--since 30d` (whole seconds, rounded outwards), or a
    // tail left running with nothing new, would otherwise ask for more than 30 days.
    const fromMs = Math.max(follow.windowStart(), toMs - LOOKUP_SPAN_MS);
    const from = isoSeconds(fromMs);
    // Never before `from`: a lookup whose range runs backwards is refused.
    const to = isoSeconds(Math.max(fromMs, toMs));
    let logs: AnyEvent[];
    try {
      logs = (opts.sms
        ? await client.smsEvents({ id: opts.id, recipient: opts.id ? undefined : recipient, country_code: opts.id ? undefined : cc, from, to, status })
        : await client.emailEvents({ id: opts.id, recipient, from, to, status })) as AnyEvent[];
    } catch (e) {
      if (ctx.signal.aborted) break;
      // Events already held for the document are not lost to a later failure: the one document
      // carries them with the error (exit code and stderr sentence stay the error's, main's).
      if (asDocument && held.length > 0) ctx.io.printJson(document('error', e));
      throw e;
    }
    const wasNarrowed = follow.narrowed;
    const got = follow.take(logs, fromMs);
    if (got.full && !wasNarrowed) {
      const cap = opts.sms ? `the service's cap of ${ROW_CAP} rows` : `${logs.length} rows (the vendor's reference caps the email lookup at ${ROW_CAP})`;
      ctx.io.warn(`A lookup returned ${cap}; the rest are read page by page, and from now on only events up to ${NARROW_OVERLAP_MS / 1000}s older than the newest shown are looked for (one recorded later than that is missed). Narrow the tail with --status or --id.`);
    }
    if (got.crowdedSecond !== undefined) {
      ctx.io.warn(`${ROW_CAP} or more events share the second ${isoSeconds(got.crowdedSecond)}; the lookup returns at most ${ROW_CAP}, so any others of that second are missed.`);
    }
    for (const e of got.fresh) {
      shown++;
      if (asDocument) held.push(e);
      else if (ndjson) ctx.io.printJsonLine(e);
      else ctx.io.out(eventLine(ctx, e, !!opts.sms));
    }
    // More rows wait beyond the cap: page on at once — unless the window already starts at now
    // (a service that ignores `from` must not be asked in a tight loop).
    if (got.full && fromMs < ctx.clock.now()) continue;
    if (!(await pauseUntilNext(ctx.clock, ctx.signal, interval, stopAt))) break;
  }
  if (asDocument) ctx.io.printJson(document(ctx.signal.aborted ? 'interrupted' : 'time'));
  if (ctx.io.isTTY) ctx.io.info(stoppedLine(shown, asDocument));
};


