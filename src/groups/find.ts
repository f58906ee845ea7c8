// Finding groups the way operators name them: a group code, or a name. Names are not unique in
// the service, so one name shared by several groups is never guessed at. Used by import,
// contacts remove and campaign create (one group or many).
import type { Context } from '../run/context.js';
import { UsageError } from '../core/errors.js';
import type { Group } from '../api/campaign-types.js';
import { forTerminal } from '../core/sanitize.js';
import { suggest } from '../core/suggest.js';

/**
 * Every page in turn; the client's limiter paces the calls to 2/s. A page shorter than `size`
 * ends the walk, unless `untilEmpty`: then only an empty page does (decisions row P13: the spec
 * sets no page-size cap, so a server may return fewer rows than asked on every page). Complete
 * walks are for `groups list --all` and for the lookup before creating a group, where stopping
 * early would show too few groups or create a duplicate; a lookup that can only fail with "no
 * such group" may stop at a short page.
 */
export async function listAllGroups(ctx: Context, size = 100, o: { untilEmpty?: boolean } = {}): Promise<Group[]> {
  const client = await ctx.campaign();
  const out: Group[] = [];
  const seen = new Set<string>();
  const spin = await ctx.io.spinner('Fetching groups…');
  try {
    for (let page = 0; ; page++) {
      const batch = await client.listGroups(page, size);
      // A server that ignores paging returns the same rows again: stop instead of looping.
      const fresh = batch.filter((g) => !seen.has(g.sn));
      fresh.forEach((g) => seen.add(g.sn));
      out.push(...fresh);
      spin.text(`Fetching groups… ${out.length}`);
      if (fresh.length === 0 || (!o.untilEmpty && batch.length < size)) break;
    }
  } finally {
    spin.stop();
  }
  const { writeGroupCache } = await import('../config/completion-cache.js');
  writeGroupCache(ctx.configDir, await completionScope(ctx), out);
  return out;
}

/** Whose groups these are, for the completion cache: the sandbox or the profile in use. */
export async function completionScope(ctx: Context): Promise<string> {
  const { groupCacheScope } = await import('../config/completion-cache.js');
  return groupCacheScope(await ctx.settings());
}

export type GroupMatch = { group: Group } | { none: true } | { several: Group[] };

/** A code matches exactly; else a name, exactly, then ignoring case and surrounding spaces. */
export function matchGroup(all: Group[], given: string): GroupMatch {
  const wanted = given.trim();
  const byCode = all.find((g) => g.sn === wanted);
  if (byCode) return { group: byCode };
  const named = groupsNamed(all, wanted);
  if (named.length === 1) return { group: named[0] };
  return named.length ? { several: named } : { none: true };
}

/**
 * The groups a name finds, as every command that takes --group finds them: those of exactly that
 * name, else those of that name ignoring case and surrounding spaces. `groups create` refuses a
 * name that finds any (a second one would make the name ambiguous for every later --group).
 */
export function groupsNamed(all: Group[], name: string): Group[] {
  const wanted = name.trim();
  const exact = all.filter((g) => g.name === wanted);
  return exact.length ? exact : all.filter((g) => g.name.trim().toLowerCase() === wanted.toLowerCase());
}

export interface ResolvedGroup {
  sn: string;
  name: string;
  status?: string;
  created?: boolean;
}

/**
 * --dry-run: the group lookup a real run makes first (its first page, as listAllGroups asks for
 * it), recorded and not made. The groups stay as given: exact when given as codes; a name stands
 * where a real run puts the code it finds.
 */
export async function groupLookupForDryRun(ctx: Context, given: string[], flag = '--group'): Promise<void> {
  const client = await ctx.campaign();
  const shown = given.map((g) => `"${forTerminal(g, 100)}"`).join(', ');
  const why = `the groups, to find the code of ${shown} (${flag}) and check that ${given.length === 1 ? 'it is' : 'they are'} not importing; shown as given below (exact when given as a code)`;
  await (await ctx.recorder()).lookup(why, () => client.listGroups(0, 100));
}

/** One group, or a UsageError. `create` makes a missing one; `canCreate` says --create-group exists to suggest. */
export async function resolveGroup(ctx: Context, given: string, o: { create?: boolean; canCreate?: boolean } = {}): Promise<ResolvedGroup> {
  const wanted = given.trim();
  if (!wanted) throw new UsageError('--group is empty.', `Give a group name or code; list them with \`${suggest(ctx, 'groups', 'list', '--all')}\`.`);
  if (ctx.dryRun) {
    await groupLookupForDryRun(ctx, [wanted]);
    return { sn: wanted, name: wanted };
  }
  // Creating when the group is missing: the walk must be complete, or a group on a later page
  // (of a server that caps its pages) would be created again (decisions row P13).
  const m = matchGroup(await listAllGroups(ctx, 100, { untilEmpty: !!o.create }), wanted);
  if ('group' in m) return { sn: m.group.sn, name: m.group.name, status: m.group.status };
  if ('several' in m) {
    throw new UsageError(
      `${m.several.length} groups are named "${forTerminal(wanted, 100)}": ${m.several.map((g) => forTerminal(g.sn, 60)).join(', ')}.`,
      `Give the code of the one you mean, for example --group ${forTerminal(m.several[0].sn, 60)}.`,
    );
  }
  if (o.create) {
    const { sn } = await (await ctx.campaign()).createGroup(wanted);
    ctx.io.info(`Created group "${forTerminal(wanted, 100)}" (${forTerminal(sn, 60)}).`);
    return { sn, name: wanted, status: 'GENERAL', created: true };
  }
  throw new UsageError(
    `No group has the name or code "${wanted}".`,
    o.canCreate
      ? `List groups with \`${suggest(ctx, 'groups', 'list', '--all')}\`, or add --create-group to create "${wanted}".`
      : `List groups with \`${suggest(ctx, 'groups', 'list', '--all')}\`.`,
  );
}
