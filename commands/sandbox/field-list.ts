import type { Context } from '../../src/run/context.js';
import { printList } from '../../src/run/output/format.js';
import { notSandbox } from './field-add.js';
import { suggest } from '../../src/core/suggest.js';

import type { SandboxField as Field } from '../../src/api/campaign-types.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.campaign();
  let fields: Field[];
  try {
    fields = await client.sandboxFields();
  } catch (e) {
    throw notSandbox(e);
  }
  await printList(ctx.io, fields, [
    { header: 'NAME', value: (f) => f.name },
    { header: 'TYPE', value: (f) => f.type },
    { header: 'CREATED', value: (f) => f.createDate, kind: 'date' },
  ], fields, { empty: `The sandbox has no custom fields; add one with \`${suggest(ctx, 'sandbox', 'field', 'add', 'NAME', 'TYPE')}\`.` });
}
