// The account balance (spec 000 endpoint 21 → {email, sms}) read for a check
// rather than for display: a lookup that fails is a reason, not an error, because no send is
// blocked on it (decisions row P8). Used by `send` / `send sms` (src/send/forecast.ts) and by
// `campaign create` (warnOverBalance below).
import type { Context } from '../run/context.js';
import { AuthError } from '../core/errors.js';
import type { Group } from '../api/campaign-types.js';
import { forTerminal } from '../core/sanitize.js';
import { suggest } from '../core/suggest.js';
import { lookup } from '../run/output/dry-run.js';

/**
 * `dryRun`: not read — a dry run shows the lookup a real run makes and reads nothing. `error`: what
 * stopped the lookup, for a caller whose whole point is the balance (`send --forecast`).
 */
export type BalanceRead = { ok: true; email?: number; sms?: number } | { ok: false; reason: string; dryRun?: true; error?: unknown };

/** Why a dry run has no balance, in words. */
export const NOT_READ_IN_DRY_RUN = 'not read: a dry run makes no request';

/** One balance lookup (endpoint 21). Ctrl-C still stops the command; every other failure becomes a reason. */
export async function readBalance(ctx: Context, why: string): Promise<BalanceRead> {
  let b: { email: number | null; sms: number | null };
  try {
    const client = await ctx.campaign();
    // Read through the endpoint's declaration: a figure not given is null (no figure, never 0,
    // which here would refuse a send); an answer in no known shape is an error, and so a reason.
    const notRead = Symbol('not read');
    const answer = await lookup<typeof b | symbol>(ctx, why, () => client.balance(), () => notRead);
    if (answer === notRead) return { ok: false, reason: NOT_READ_IN_DRY_RUN, dryRun: true };
    b = answer as typeof b;
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    // A key that is missing (nothing was sent) is the common case for notification-only users.
    if (e instanceof AuthError && e.facts.reached === 'no') return { ok: false, reason: 'no API key for the campaign service, which keeps the balance', error: e };
    return { ok: false, reason: forTerminal(e instanceof Error ? e.message : String(e), 200).replace(/\.$/, ''), error: e };
  }
  return { ok: true, email: b.email ?? undefined, sms: b.sms ?? undefined };
}

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
