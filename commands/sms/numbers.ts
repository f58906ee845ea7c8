import type { Context } from '../../src/run/context.js';
import type { ExclusiveNumber } from '../../src/api/notify-types.js';
import { printList, type Column } from '../../src/run/output/format.js';

const COLUMNS: Column<ExclusiveNumber>[] = [
  { header: 'NUMBER', value: (n) => n.phoneNumber },
  { header: 'CREATED', value: (n) => n.createDate, kind: 'date' },
  { header: 'UPDATED', value: (n) => n.updateDate, kind: 'date' },
];

export async function run(ctx: Context): Promise<void> {
  const numbers = await (await ctx.notify()).exclusiveNumbers();
  await printList(ctx.io, numbers, COLUMNS, { phoneNumbers: numbers }, { empty: 'This account has no exclusive sending number.' });
}
