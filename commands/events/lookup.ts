// mailctl events: delivery-status lookup for email or SMS (spec 001's event lookups, src/api/notify.ts).
import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import type { EmailEvent, SmsEvent } from '../../src/api/notify-types.js';
import { printList, type Column } from '../../src/output/format.js';
import { checkCountryCode } from '../../src/send/sms-rules.js';
import { EMAIL_STATUSES, parseStatuses, SMS_STATUSES } from './query.js';
import { isoSeconds, parseTimeRange } from '../../src/cli/date.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareEvents } from './index.js';

/** Spec section 8: SMS lookup covers only the last 30 days and returns at most the first 50 rows. */
const SMS_WINDOW_DAYS = 30;
const SMS_ROW_CAP = 50;

export const run: Verb<typeof declareEvents> = async (ctx, opts) => {
  const now = ctx.clock.now();
  const range = parseTimeRange(opts, now);
  const from = range.since === undefined ? undefined : isoSeconds(range.since);
  const to = range.until === undefined ? undefined : isoSeconds(range.until);
  const client = await ctx.notify();

  if (!opts.sms) {
    if (opts.countryCode !== undefined) throw new UsageError('--country-code is for SMS lookups; add --sms.');
    const status = opts.status === undefined ? undefined : parseStatuses(opts.status, EMAIL_STATUSES, false);
    const logs = await client.emailEvents({ id: opts.id, recipient: opts.recipient, from, to, status });
    return output(ctx, logs, EMAIL_COLUMNS);
  }

  if (!opts.id && !(opts.recipient && opts.countryCode)) {
    throw new UsageError('An SMS lookup needs --id, or --recipient with --country-code.', `For example: ${suggest(ctx, 'events', '--sms', '--recipient', '0912345678', '--country-code', '886')}`);
  }
  let cc: string | undefined;
  if (opts.countryCode !== undefined) {
    const c = checkCountryCode(opts.countryCode);
    if ('error' in c) throw new UsageError(`--country-code: ${c.error}.`);
    cc = c.code;
  }
  if (opts.id && opts.recipient) ctx.io.warn('Both --id and --recipient given: the service uses --id.');
  const status = opts.status === undefined ? undefined : parseStatuses(opts.status, SMS_STATUSES, true);
  if (from && Date.parse(from) < now - SMS_WINDOW_DAYS * 86_400_000) {
    ctx.io.warn(`The service keeps SMS events for the last ${SMS_WINDOW_DAYS} days only; nothing before ${new Date(now - SMS_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10)} is returned.`);
  }
  // The service's default end is "one month after from", which can stop short of today;
  // someone asking "since X" means up to now.
  // Rounded up to the second so the events of the last moments are inside it.
  const until = to ?? (from ? new Date(Math.ceil(now / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z') : undefined);
  const logs = await client.smsEvents({ id: opts.id, recipient: opts.id ? undefined : opts.recipient, country_code: opts.id ? undefined : cc, from, to: until, status });
  if (logs.length >= SMS_ROW_CAP) {
    ctx.io.warn(`The service returns at most the first ${SMS_ROW_CAP} rows, and this lookup hit that cap: there may be more. Narrow it with --since/--until or --status.`);
  }
  return output(ctx, logs, SMS_COLUMNS);
};

/** Table, TSV, CSV (a header even when empty) or {logs} under --json: src/output/format.ts. */
async function output<T>(ctx: Context, rows: T[], columns: Array<Column<T>>): Promise<void> {
  if (!rows.length && ctx.io.output === 'tsv') ctx.io.info('No events matched.');
  await printList(ctx.io, rows, columns, { logs: rows }, { empty: 'No events matched.' });
}

function detail(raw: Record<string, unknown> | undefined): string {
  if (!raw) return '';
  const parts: string[] = [];
  for (const k of ['type', 'code', 'reason', 'linkUrl', 'point', 'srcaddr']) if (raw[k] !== undefined && raw[k] !== '') parts.push(k === 'type' ? (String(raw[k]) === '1' ? 'permanent' : 'temporary') : String(raw[k]));
  return parts.join(' ');
}

const EMAIL_COLUMNS: Column<EmailEvent>[] = [
  { header: 'TIME', value: (e) => e.eventTime, date: true },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'MESSAGE ID', value: (e) => e.messageId },
  { header: 'RECIPIENT', value: (e) => e.mail?.to ?? e.mail?.recipient },
  { header: 'SUBJECT', value: (e) => e.mail?.subject },
  { header: 'DETAIL', value: (e) => detail(e.rawEvent) },
];

const SMS_COLUMNS: Column<SmsEvent>[] = [
  { header: 'TIME', value: (e) => e.eventTime, date: true },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'MESSAGE ID', value: (e) => e.messageId },
  { header: 'RECIPIENT', value: (e) => e.recipient ?? (e.countryCode ? `+${e.countryCode} ${e.address ?? ''}` : e.address) },
  { header: 'CONTENT', value: (e) => e.content },
  { header: 'DETAIL', value: (e) => detail(e.rawEvent) },
];
