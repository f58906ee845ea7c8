// `campaign create`'s balance warning: the chosen groups' subscribed contacts against the email
// balance, read as `send` reads it for its forecast (src/send/balance.ts: a failed read is a
// reason, never an error).
import type { Context } from '../run/context.js';
import type { Group } from '../api/campaign-types.js';
import { suggest } from '../core/suggest.js';
import { readBalance } from '../send/balance.js';

/**
 * `campaign create`: one line when the chosen groups hold more subscribed contacts than the email
 * balance. From the group list already fetched (no extra group request) and one balance request;
 * silent when the balance cannot be read (the service refuses an uncovered campaign itself, 40012).
 */
export async function warnOverBalance(ctx: Context, groups: Group[], codes: string[]): Promise<void> {
  if (!codes.length) return;
  const chosen = groups.filter((g) => codes.includes(g.sn));
  const subscribed = chosen.reduce((n, g) => n + (Number.isFinite(Number(g.subscribedCnt)) ? Number(g.subscribedCnt) : 0), 0);
  const b = await readBalance(ctx, 'the email balance, to warn when the chosen groups hold more contacts than it covers (no warning in a dry run)');
  if (!b.ok || b.email === undefined || subscribed <= b.email) return;
  ctx.io.warn(`The chosen group${codes.length === 1 ? ' holds' : 's hold'} ${subscribed} subscribed contacts and the email balance is ${b.email}: the campaign may be refused or stop as OVER_LIMIT (overlaps and --exclude groups lower the count; check with \`${suggest(ctx, 'balance')}\`).`);
}
