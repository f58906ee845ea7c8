import type { Context } from '../../src/run/context.js';
import { printList } from '../../src/run/output/format.js';
import { profileInUse } from './common.js';

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const active = await profileInUse(ctx);
  const names = store.profileNames();
  if (!names.includes(active)) names.push(active);
  const rows = names.sort().map((name) => ({ name, active: name === active }));
  await printList(ctx.io, rows, [
    { header: 'ACTIVE', value: (r) => (r.active ? '*' : '') },
    { header: 'PROFILE', value: (r) => r.name },
  ], rows, { empty: 'No profiles.' });
}
