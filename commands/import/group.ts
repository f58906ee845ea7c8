// Finding the group an operator means by what they typed: a group code, or a name. Names are
// not unique in the service, so a name shared by several groups is refused with their codes.
import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import type { Group } from '../../src/api/campaign-types.js';
import { listAllGroups } from '../groups/list.js';

export interface ResolvedGroup {
  sn: string;
  name: string;
  status?: string;
  created?: boolean;
}

/** `create` makes a missing group; `canCreate` says the command has --create-group to suggest. */
export async function resolveGroup(ctx: Context, given: string, o: { create?: boolean; canCreate?: boolean } = {}): Promise<ResolvedGroup> {
  const wanted = given.trim();
  if (!wanted) throw new UsageError('--group is empty.', 'Give a group name or code; list them with `mailctl groups list --all`.');
  const groups = await listAllGroups(ctx);
  const byCode = groups.find((g) => g.sn === wanted);
  if (byCode) return view(byCode);
  let named = groups.filter((g) => g.name === wanted);
  if (!named.length) named = groups.filter((g) => g.name.trim().toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return view(named[0]);
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} groups are named "${wanted}": ${named.map((g) => g.sn).join(', ')}.`,
      `Give the code of the one you mean, for example --group ${named[0].sn}.`,
    );
  }
  if (o.create) {
    const { sn } = await (await ctx.campaign()).createGroup(wanted);
    ctx.io.info(`Created group "${wanted}" (${sn}).`);
    return { sn, name: wanted, status: 'GENERAL', created: true };
  }
  throw new UsageError(
    `No group has the name or code "${wanted}".`,
    o.canCreate
      ? `List groups with \`mailctl groups list --all\`, or add --create-group to create "${wanted}".`
      : 'List groups with `mailctl groups list --all`.',
  );
}

function view(g: Group): ResolvedGroup {
  return { sn: g.sn, name: g.name, status: g.status };
}
