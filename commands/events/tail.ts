// mailctl events tail: follow new email (or SMS) events by polling the lookup endpoint, within
// its limits (SMS: 30 days, 50 rows). A table line per event on a terminal, NDJSON otherwise
// (a stream has no single document, so --json means NDJSON here too). Ctrl-C or --for ends it.
import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import type { EmailEvent, SmsEvent } from '../../src/api/notify-types.js';
import { parseDuration } from '../../src/cli/duration.js';
import { EventFollower } from '../../src/events/follow.js';
import { forTerminal, safeJson } from '../../src/output/sanitize.js';
import { checkCountryCode } from '../../src/send/sms-rules.js';
import { EMAIL_STATUSES, parseStatuses, SMS_STATUSES } from './query.js';

interface Opts {
  sms?: boolean;
  id?: string;
  recipient?: string;
  countryCode?: string;
  status?: string;
  since?: string;
  interval?: string;
  for?: string;
}

const SMS_ROW_CAP = 50;
const MIN_INTERVAL_MS = 2000;

type AnyEvent = EmailEvent & SmsEvent;

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const now = ctx.clock.now();
  const since = opts.since === undefined ? 0 : parseDuration(opts.since, '--since');
  if (since > 30 * 86_400_000) throw new UsageError(`--since reaches back at most 30 days (the SMS lookup's window); got "${opts.since}".`);
  const interval = opts.interval === undefined ? 5000 : parseDuration(opts.interval, '--interval', { positive: true });
  if (interval < MIN_INTERVAL_MS) throw new UsageError(`--interval must be at least ${MIN_INTERVAL_MS / 1000}s, to keep the lookups light; got "${opts.interval}".`);
  const stopAt = opts.for === undefined ? Infinity : now + parseDuration(opts.for, '--for', { positive: true });
  const status = opts.status === undefined ? undefined : parseStatuses(opts.status, opts.sms ? SMS_STATUSES : EMAIL_STATUSES, !!opts.sms);
  let cc: string | undefined;
  if (opts.sms) {
    if (!opts.id && !(opts.recipient && opts.countryCode)) {
      throw new UsageError('Following SMS events needs --id, or --recipient with --country-code (the SMS lookup has no "all numbers" query).', 'For example: mailctl events tail --sms --recipient 0912345678 --country-code 886');
    }
    if (opts.countryCode !== undefined) {
      const c = checkCountryCode(opts.countryCode);
      if ('error' in c) throw new UsageError(`--country-code: ${c.error}.`);
      cc = c.code;
    }
  } else if (opts.countryCode !== undefined) throw new UsageError('--country-code is for SMS; add --sms.');

  const client = await ctx.notify();
  const start = now - since;
  const follow = new EventFollower<AnyEvent>(start);
  const ndjson = ctx.io.json || !ctx.io.isTTY;
  let shown = 0;
  if (!ndjson) ctx.io.info(`Following ${opts.sms ? 'SMS' : 'email'} events${since ? ` from ${opts.since} ago` : ''}; Ctrl-C stops.`);
  while (!ctx.signal.aborted && ctx.clock.now() < stopAt) {
    const from = iso(Math.max(start, follow.windowStart()));
    const to = iso(Math.ceil(ctx.clock.now() / 1000) * 1000);
    let logs: AnyEvent[];
    try {
      logs = (opts.sms
        ? await client.smsEvents({ id: opts.id, recipient: opts.id ? undefined : opts.recipient, country_code: opts.id ? undefined : cc, from, to, status })
        : await client.emailEvents({ id: opts.id, recipient: opts.recipient, from, to, status })) as AnyEvent[];
    } catch (e) {
      if (ctx.signal.aborted) break;
      throw e;
    }
    if (opts.sms && logs.length >= SMS_ROW_CAP) ctx.io.warn(`This lookup returned the service's cap of ${SMS_ROW_CAP} rows: events beyond them may be missed. Narrow it with --status or --id.`);
    for (const e of follow.take(logs, start)) {
      shown++;
      if (ndjson) ctx.io.out(safeJson(e));
      else ctx.io.out(line(e, !!opts.sms));
    }
    const left = stopAt - ctx.clock.now();
    if (left <= 0) break;
    try {
      await ctx.clock.sleep(Math.min(interval, left), ctx.signal);
    } catch {
      break; // Ctrl-C during the pause: the normal way to stop following
    }
  }
  if (!ndjson || ctx.io.isTTY) ctx.io.info(`Stopped following; ${shown} event${shown === 1 ? '' : 's'} shown.`);
}

function line(e: AnyEvent, sms: boolean): string {
  const who = sms ? e.recipient ?? e.address : e.mail?.to ?? e.mail?.recipient;
  const what = sms ? e.content : e.mail?.subject;
  return [e.eventTime, (e.status ?? '').padEnd(9), e.messageId, who, what].map((v) => forTerminal(v ?? '', 80)).join('  ');
}

function iso(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
