// mailctl events: delivery-status lookup for email or SMS (spec 001's event lookups, src/api/notify.ts).
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { printList, type Column } from '../../src/run/output/format.js';
import { checkCountryCodeFlag, checkRecipient, EMAIL_STATUSES, parseStatuses, SMS_STATUSES, startWithinWindow, warnIdOverRecipient } from './query.js';
import { EMAIL_COLUMNS, SMS_COLUMNS } from './columns.js';
import { isoSeconds, parseTimeRange } from '../../src/core/date.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareEvents } from './index.js';

/** Spec section 8: the SMS lookup returns at most the first 50 rows (its 30 days: startWithinWindow). */
const SMS_ROW_CAP = 50;

export const run: Verb<typeof declareEvents> = async (ctx, opts) => {
  if (opts.history) return (await import('./history.js')).history(ctx, opts);
  if (opts.store !== undefined) throw new UsageError('--store names the event store that --history reads; add --history.');
  const now = ctx.clock.now();
  const range = parseTimeRange(opts, now);
  const recipient = checkRecipient(opts.recipient, !!opts.sms);
  const to = range.until === undefined ? undefined : isoSeconds(range.until);

  if (!opts.sms) {
    if (opts.countryCode !== undefined) throw new UsageError('--country-code is for SMS lookups; add --sms.');
    const status = opts.status === undefined ? undefined : parseStatuses(opts.status, EMAIL_STATUSES, false);
    const from = range.since === undefined ? undefined : isoSeconds(range.since);
    // decisions row 30: the lookup sends the id alone (the client leaves the recipient out).
    warnIdOverRecipient(ctx, opts.id, recipient);
    const logs = await (await ctx.notify()).emailEvents({ id: opts.id, recipient, from, to, status });
    return output(ctx, logs, EMAIL_COLUMNS, 'email events');
  }

  if (!opts.id && !(recipient && opts.countryCode)) {
    throw new UsageError('An SMS lookup needs --id, or --recipient with --country-code.', `For example: ${suggest(ctx, 'events', '--sms', '--recipient', '0912345678', '--country-code', '886')}`);
  }
  const cc = checkCountryCodeFlag(opts.countryCode);
  warnIdOverRecipient(ctx, opts.id, recipient);
  const status = opts.status === undefined ? undefined : parseStatuses(opts.status, SMS_STATUSES, true);
  const since = startWithinWindow((t) => ctx.io.warn(t), range, opts.since, now, 'SMS events');
  const from = since === undefined ? undefined : isoSeconds(since);
  // The service's default end is "one month after from", which can stop short of today;
  // someone asking "since X" means up to now.
  // Rounded up to the second so the events of the last moments are inside it.
  const until = to ?? (from ? new Date(Math.ceil(now / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z') : undefined);
  const logs = await (await ctx.notify()).smsEvents({ id: opts.id, recipient: opts.id ? undefined : recipient, country_code: opts.id ? undefined : cc, from, to: until, status });
  if (logs.length >= SMS_ROW_CAP) {
    ctx.io.warn(`The service returns at most the first ${SMS_ROW_CAP} rows, and this lookup hit that cap: there may be more. Narrow it with --since/--until or --status.`);
  }
  return output(ctx, logs, SMS_COLUMNS, 'SMS events');
};

/** Table, TSV, CSV (a header even when empty) or {logs} under --json: src/run/output/format.ts. */
async function output<T>(ctx: Context, rows: T[], columns: Array<Column<T>>, what: string): Promise<void> {
  // `source` says which answered: the service's lookup here, the event store under --history.
  await printList(ctx.io, rows, columns, { source: 'service', logs: rows }, { empty: `No ${what} matched this lookup.` });
}
