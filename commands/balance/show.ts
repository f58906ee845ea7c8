import type { Context } from '../../src/run/context.js';
import { printRecord } from '../../src/run/output/format.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.campaign();
  const b = await client.balance();
  // A figure the service did not give: "not given" for a person, null under --json, never 0.
  await printRecord(ctx.io, [['email', b.email ?? 'not given', 'count'], ['sms', b.sms ?? 'not given', 'count']], b);
}
