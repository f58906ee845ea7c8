// `mailctl contacts clean --group G --since 30d`: from the notification service's bounce and
// complaint events, a plan of addresses to remove from a campaign group — shown as a dry run by
// default; `--yes` applies it through the contact-removal endpoint (spec 000 endpoint 6, `keys`),
// in batches, reporting what each batch removed.
import type { Context } from '../../src/cli/context.js';
import { certainlyNotDone, PartialError, UsageError } from '../../src/cli/errors.js';
import { parseDuration } from '../../src/cli/duration.js';
import { suggest } from '../../src/cli/suggest.js';
import { buildPlan } from '../../src/contacts/bounce-plan.js';
import { resolveGroup } from '../../src/groups.js';
import { printList } from '../../src/output/format.js';
import { forTerminal } from '../../src/output/sanitize.js';

interface Opts {
  group?: string;
  since?: string;
  includeTemporary?: boolean;
  yes?: boolean;
  dryRun?: boolean;
}

/** Addresses per removal request: small enough that one refused batch names few addresses. */
export const CLEAN_BATCH = 100;
const MAX_SINCE_MS = 365 * 86_400_000;

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const given = opts.group?.trim();
  if (!given) throw new UsageError('Say which group to clean with --group NAME_OR_CODE.');
  const since = parseDuration(opts.since ?? '30d', '--since', { positive: true });
  if (since > MAX_SINCE_MS) throw new UsageError(`--since reaches back at most a year; got "${opts.since}".`);
  const now = ctx.clock.now();
  const from = new Date(now - since).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const to = new Date(Math.ceil(now / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const group = await resolveGroup(ctx, given);
  const notify = await ctx.notify();
  const events = await notify.emailEvents({ from, to, status: 'bounce,complaint' });
  const plan = buildPlan(events, { includeTemporary: !!opts.includeTemporary });
  const apply = !!opts.yes && !opts.dryRun;

  if (!apply) {
    if (ctx.io.json) ctx.io.printJson({ group: { sn: group.sn, name: group.name }, from, to, applied: false, plan });
    else if (!plan.length) ctx.io.info(`No bounces or complaints since ${from}: nothing to remove from "${forTerminal(group.name, 100)}".`);
    else {
      await printList(ctx.io, plan, COLUMNS);
      ctx.io.info(`Plan: remove ${plan.length} address${plan.length === 1 ? '' : 'es'} from "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)}); nothing was removed. Apply it with: ${forTerminal(suggest(ctx, 'contacts', 'clean', '--group', group.sn, '--since', opts.since ?? '30d', ...(opts.includeTemporary ? ['--include-temporary'] : []), '--yes'), 2000)}`);
    }
    return;
  }

  const campaign = await ctx.campaign();
  let removed = 0;
  const notDone: string[] = [];
  let firstError: unknown;
  for (let i = 0; i < plan.length; i += CLEAN_BATCH) {
    const keys = plan.slice(i, i + CLEAN_BATCH).map((r) => r.address);
    try {
      const r = await campaign.removeContacts(group.sn, { keys });
      removed += Number(r?.updated_count ?? 0);
    } catch (e) {
      // Removal is safe to repeat; a batch that failed is named so a re-run can finish it.
      notDone.push(...keys);
      firstError ??= e;
      if (!certainlyNotDone(e) && ctx.signal.aborted) break;
    }
  }
  const doc = { group: { sn: group.sn, name: group.name }, from, to, applied: true, planned: plan.length, removed, notDone };
  if (ctx.io.json) ctx.io.printJson(doc);
  else ctx.io.out(`${ctx.io.isTTY ? `${ctx.io.paint('green', '✓')} ` : ''}Removed ${removed} of ${plan.length} planned address${plan.length === 1 ? '' : 'es'} from "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)})${removed < plan.length - notDone.length ? '; the others were not in the group' : ''}.`);
  if (notDone.length) {
    const why = firstError instanceof Error ? firstError.message : String(firstError);
    if (notDone.length === plan.length) throw firstError;
    throw new PartialError(`${notDone.length} address${notDone.length === 1 ? ' was' : 'es were'} not removed (${why}).`, `Run the same command again to finish: ${suggest(ctx, 'contacts', 'clean', '--group', group.sn, '--since', opts.since ?? '30d', '--yes')}`);
  }
}

const COLUMNS = [
  { header: 'ADDRESS', value: (r: ReturnType<typeof buildPlan>[number]) => r.address },
  { header: 'REASON', value: (r: ReturnType<typeof buildPlan>[number]) => r.reason },
  { header: 'EVENTS', value: (r: ReturnType<typeof buildPlan>[number]) => r.events },
  { header: 'LAST', value: (r: ReturnType<typeof buildPlan>[number]) => r.lastAt, date: true },
];
