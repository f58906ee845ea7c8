// `mailctl contacts clean --group G --since 30d`: from the notification service's bounce and
// complaint events, a plan of addresses to remove from a campaign group — shown as a dry run by
// default; `--yes` applies it through the contact-removal endpoint (spec 000 endpoint 6, `keys`),
// in batches, reporting what the service says each removed (`updated_count`). The API lists no
// group's members, so the plan is every address that bounced or complained, and the service
// ignores those not in the group. The events are read a day at a time (src/contacts/bounce-events.ts).
import { InterruptedError, PartialError, UsageError } from '../../src/core/errors.js';
import { withoutPassword } from '../../src/store/location.js';
import { isoSeconds, parseTimeRange } from '../../src/core/date.js';
import { suggest, suggestWithNote } from '../../src/core/suggest.js';
import { buildPlan } from '../../src/contacts/bounce-plan.js';
import { bounceEvents } from '../../src/contacts/bounce-events.js';
import { resolveGroup } from '../../src/groups/find.js';
import { printList, printRecord, type Column } from '../../src/run/output/format.js';
import { lookup, printDryRun } from '../../src/run/output/dry-run.js';
import { forTerminal } from '../../src/core/sanitize.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareClean } from './index.js';
import { plural } from '../../src/core/human.js';
import type { EmailEvent } from '../../src/api/notify-types.js';

/**
 * Addresses per removal request (decisions row P9): spec 000 endpoint 6 gives `keys` no maximum;
 * 100 is the limit of every other list body of both services, and keeps a refused batch small.
 */
export const CLEAN_BATCH = 100;
const MAX_SINCE_MS = 365 * 86_400_000;

export const run: Verb<typeof declareClean> = async (ctx, opts) => {
  const given = opts.group?.trim();
  if (!given) throw new UsageError('Say which group to clean with --group NAME_OR_CODE.');
  const now = ctx.clock.now();
  if (opts.store !== undefined && !opts.history) throw new UsageError('--store names the event store that --history reads; add --history.');
  const range = parseTimeRange({ since: opts.since ?? '30d', until: opts.until }, now);
  // The service's lookups reach a year at most; the store holds what the listener kept, any age.
  if (!opts.history && now - range.since! > MAX_SINCE_MS) throw new UsageError(`--since reaches back at most a year; got "${opts.since}".`, 'Older bounces are in the event store, if a listener received them: add --history.');
  if (range.since! > now) throw new UsageError(`--since "${opts.since}" is in the future; give a span such as 30d or a past date.`);
  const from = isoSeconds(range.since!);
  // Rounded up to the second so the events of the last moments are inside the window.
  const to = isoSeconds(range.until ?? Math.ceil(now / 1000) * 1000);
  // A password in a --store URL is never shown (docs/events-store.md): the line to paste leaves it out.
  const bareStore = opts.store === undefined ? undefined : withoutPassword(opts.store);
  const span = ['--since', opts.since ?? '30d', ...(opts.until !== undefined ? ['--until', opts.until] : []), ...(opts.history ? ['--history', ...(opts.store !== undefined ? ['--store', bareStore ?? opts.store] : [])] : [])];
  const withPassword = bareStore ? ' (with the store\'s password in PGPASSWORD)' : '';

  const group = await resolveGroup(ctx, given);
  const found = opts.history ? await fromStore(ctx, opts.store, range.since!, Date.parse(to)) : await fromService(ctx, range.since!, from, to);
  if (ctx.signal.aborted) throw new InterruptedError('Interrupted while reading the event log; nothing was removed.');
  if (found.possiblyCapped.length) {
    const shown = found.possiblyCapped.slice(0, 3).map((c) => `${c.from} to ${c.to} (${c.rows})`).join(', ');
    const more = found.possiblyCapped.length > 3 ? ` and ${found.possiblyCapped.length - 3} more` : '';
    ctx.io.warn(`The event lookup returned a round number of events for ${shown}${more}: that may be the service's row cap, so bounces there may be missing from this plan.`);
  }
  const plan = buildPlan(found.events, { includeTemporary: !!opts.includeTemporary });
  const apply = !!opts.yes && !opts.dryRun;
  // Where the bounces came from: the service's lookups, or the event store (--history).
  const lookups = found.store !== undefined ? { source: 'store', store: found.store } : { source: 'service', lookups: found.lookups, possiblyCapped: found.possiblyCapped };
  const again = (later = false) => (later ? suggestWithNote : suggest)(ctx, 'contacts', 'clean', '--group', group.sn, ...span, ...(opts.includeTemporary ? ['--include-temporary'] : []), '--yes');
  if (found.store !== undefined && ctx.io.isTTY && !ctx.io.json) ctx.io.info(`Bounces and complaints from the event store ${forTerminal(found.store, 300)} (webhooks received by \`mailctl webhook listen\`).`);

  if (opts.dryRun) {
    // The addresses come from the events, which a dry run does not read: the removal is shown with a placeholder.
    await (await ctx.campaign()).removeContacts(group.sn, { keys: [`(each address that bounced or complained, at most ${CLEAN_BATCH} per request)`] });
    return printDryRun(ctx);
  }
  if (!apply) {
    if (ctx.io.json) ctx.io.printJson({ group: { sn: group.sn, name: group.name }, from, to, applied: false, plan, ...lookups });
    else if (!plan.length) {
      await printList(ctx.io, plan, COLUMNS, plan, { empty: `No bounces or complaints from ${from} to ${to}: nothing to remove from "${forTerminal(group.name, 100)}".` });
    } else {
      await printList(ctx.io, plan, COLUMNS);
      // The API lists no group's members, so the plan cannot be narrowed to them: say so.
      const notChecked = plan.length === 1
        ? 'It is not checked against the group\'s members (the API cannot list them); if it is not in the group, the service ignores it.'
        : 'They are not checked against the group\'s members (the API cannot list them); those not in the group are ignored by the service.';
      ctx.io.info(`Plan: remove from "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)}) the ${plural(plan.length, 'address', 'addresses')} that bounced or complained in transactional mail from ${from} to ${to}. ${notChecked} Nothing was removed. Apply it with: ${forTerminal(again(), 2000)}${withPassword}`);
    }
    return;
  }

  const campaign = await ctx.campaign();
  let removed = 0;
  // Addresses of batches answered after a lost answer that the retry did not remove: the first
  // attempt may have removed them, so they are "already gone", not "not in the group".
  let alreadyGone = 0;
  const batches: Array<{ addresses: number; updated_count?: number; retriedAfterLostAnswer?: boolean; error?: string }> = [];
  const notDone: string[] = [];
  let firstError: unknown;
  for (let i = 0; i < plan.length; i += CLEAN_BATCH) {
    const keys = plan.slice(i, i + CLEAN_BATCH).map((r) => r.address);
    if (ctx.signal.aborted) {
      notDone.push(...keys);
      firstError ??= new InterruptedError();
      continue;
    }
    try {
      const r = await campaign.removeContacts(group.sn, { keys });
      const count = r.updated_count;
      removed += count;
      if (r.retriedAfterLostAnswer) alreadyGone += Math.max(0, keys.length - count);
      batches.push({ addresses: keys.length, updated_count: count, retriedAfterLostAnswer: r.retriedAfterLostAnswer });
    } catch (e) {
      // Removal is safe to repeat; a batch that failed is named so a re-run can finish it.
      notDone.push(...keys);
      firstError ??= e;
      batches.push({ addresses: keys.length, error: e instanceof Error ? e.message : String(e) });
    }
  }
  const requested = plan.length - notDone.length;
  const notInGroup = Math.max(0, requested - removed - alreadyGone);
  const retriedAfterLostAnswer = batches.some((b) => b.retriedAfterLostAnswer);
  const doc = { group: { sn: group.sn, name: group.name }, from, to, applied: true, planned: plan.length, requested, removed, notInGroup, alreadyGone, retriedAfterLostAnswer, batches, notDone, ...lookups };
  if (ctx.io.json) ctx.io.printJson(doc);
  else if (ctx.io.output === 'csv') {
    const count = 'count' as const;
    await printRecord(ctx.io, [['group', group.sn], ['planned', plan.length, count], ['requested', requested, count], ['removed', removed, count], ['not in group', notInGroup, count], ['already gone', alreadyGone, count], ['not done', notDone.length, count]], doc);
  } else {
    const gone = alreadyGone > 0 ? `; ${alreadyGone} ${alreadyGone === 1 ? 'was' : 'were'} already gone (removed by the first attempt, whose answer was lost, or never in the group)` : '';
    ctx.io.out(`${ctx.io.isTTY ? `${ctx.io.paint('green', '✓')} ` : ''}Removed ${removed} of ${plan.length} planned address${plan.length === 1 ? '' : 'es'} from "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)}), as the service counted them (updated_count)${gone}${notInGroup > 0 ? `; the other ${notInGroup} sent were not in the group, and the service ignored them` : ''}.`);
  }
  if (notDone.length) {
    if (notDone.length === plan.length) throw firstError;
    const why = firstError instanceof Error ? firstError.message : String(firstError);
    throw new PartialError(`${notDone.length} of the ${plan.length} addresses were not removed (${why}).`, `Removing is safe to repeat; run the same command again to finish: ${again(true)}${withPassword}`);
  }
};

/** The service's lookups, a day each (src/contacts/bounce-events.ts); a dry run shows them instead. */
async function fromService(ctx: Parameters<typeof run>[0], sinceMs: number, from: string, to: string) {
  const notify = await ctx.notify();
  const found = await lookup(
    ctx,
    `the bounce and complaint events from ${from} to ${to}, one UTC day per lookup (a day that looks capped is read again in halves): the addresses to remove`,
    () => bounceEvents(notify, sinceMs, Date.parse(to), () => !ctx.signal.aborted),
    () => ({ events: [], lookups: 0, possiblyCapped: [] }),
  );
  return { ...found, store: undefined };
}

/** The event store's bounces and complaints of the range (--history): a local read, no row cap. */
async function fromStore(ctx: Parameters<typeof run>[0], where: string | undefined, sinceMs: number, untilMs: number) {
  const { storeLocation } = await import('../../src/store/location.js');
  const { openStore } = await import('../../src/store/open.js');
  const { allRows } = await import('../../src/store/store.js');
  const { asEmailEvent } = await import('../../src/store/as-lookup.js');
  const store = await openStore(storeLocation(where, ctx.configDir), { create: false });
  const events: EmailEvent[] = [];
  try {
    for await (const r of allRows(store, { by: 'event', channel: 'email', events: ['bounce', 'complaint'], since: sinceMs, until: untilMs })) events.push(asEmailEvent(r));
  } finally {
    await store.close();
  }
  return { events, lookups: 0, possiblyCapped: [] as Array<{ from: string; to: string; rows: number }>, store: store.shown };
}

const COLUMNS: Column<ReturnType<typeof buildPlan>[number]>[] = [
  { header: 'ADDRESS', value: (r) => r.address },
  { header: 'REASON', value: (r) => r.reason },
  { header: 'EVENTS', value: (r) => r.events, kind: 'count' },
  { header: 'LAST', value: (r) => r.lastAt, kind: 'date' },
];
