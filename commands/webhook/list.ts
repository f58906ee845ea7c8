import type { Webhook } from '../../src/api/notify-types.js';
import { LINK_CELL_MAX, printList, type Column } from '../../src/run/output/format.js';
import { typeName } from '../../src/webhook/types.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareList } from './index.js';

export const run: Verb<typeof declareList> = async (ctx, opts) => {
  const sms = !!opts.sms;
  const hooks = await (await ctx.notify()).listWebhooks(sms);
  const columns: Column<Webhook>[] = [
    { header: 'TYPE', value: (w) => w.type },
    { header: 'EVENT', value: (w) => typeName(w.type, sms) },
    { header: 'URL', value: (w) => w.url, max: LINK_CELL_MAX },
    { header: 'DOMAIN', value: (w) => w.domain },
    { header: 'CREATED', value: (w) => w.createDate, kind: 'date' },
  ];
  await printList(ctx.io, hooks, columns, hooks, { empty: `No ${sms ? 'SMS ' : 'email '}webhooks are registered. Add one with \`${suggest(ctx, 'webhook', 'set', ...(sms ? ['--sms'] : []), 'delivery', 'URL')}\`.` });
};
