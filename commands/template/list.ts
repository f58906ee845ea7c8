import type { Context } from '../../src/run/context.js';
import { printList } from '../../src/run/output/format.js';
import { forTerminal } from '../../src/core/sanitize.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.campaign();
  const { capacity, templates } = await client.listTemplates();
  await printList(
    ctx.io,
    templates,
    [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'UPDATED', value: (t) => t.updateDate, kind: 'date' },
    ],
    { capacity, templates },
    { empty: 'This account has no templates yet (they are made in the back office).' },
  );
  if (!ctx.io.json) ctx.io.info(capacity === null ? `${templates.length} templates (the service gave no capacity)` : `${templates.length} of ${forTerminal(capacity, 20)} templates used`);
}
