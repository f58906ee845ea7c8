import type { Context } from '../../src/cli/context.js';
import { printRecord } from '../../src/output/format.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.campaign();
  const b = await client.balance();
  await printRecord(ctx.io, [['email', b.email, { count: true }], ['sms', b.sms, { count: true }]], b);
}
