import type { Context } from '../../src/run/context.js';
import { settingRows } from '../../src/config/sources.js';
import { printList } from '../../src/run/output/format.js';

export async function run(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const store = await ctx.config();
  const rows = settingRows(s, ctx);
  await printList(ctx.io, rows, [
    { header: 'SETTING', value: (r) => r.setting },
    { header: 'VALUE', value: (r) => r.value },
    { header: 'SOURCE', value: (r) => r.source },
  ], { profile: s.profileName, path: store.path, settings: Object.fromEntries(rows.map((r) => [r.setting, { value: r.value, source: r.source }])) });
}
