import type { Context } from '../../src/cli/context.js';
import type { ExclusiveNumber } from '../../src/api/notify-types.js';
import { printList, type Column } from '../../src/output/format.js';

const COLUMNS: Column<ExclusiveNumber>[] = [
  { header: 'NUMBER', value: (n) => n.phoneNumber },
  { header: 'CREATED', value: (n) => n.createDate, date: true },
  { header: 'UPDATED', value: (n) => n.updateDate, date: true },
];

export async function run(ctx: Context): Promise<void> {
  const numbers = await (await ctx.notify()).exclusiveNumbers();
  if (!numbers.length && !ctx.io.json) {
    if (ctx.io.output === 'csv') await printList(ctx.io, numbers, COLUMNS); // an empty list is still a header
    ctx.io.info('This account has no exclusive sending number.');
    return;
  }
  await printList(ctx.io, numbers, COLUMNS, { phoneNumbers: numbers });
}
