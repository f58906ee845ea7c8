// The account balance (spec 000 endpoint 21 → {email, sms}) read for a check
// rather than for display: a lookup that fails is a reason, not an error, because no send is
// blocked on it (decisions row P8). Used by `send` / `send sms` (src/send/forecast.ts) and by
// `campaign create` (src/campaign/balance-check.ts): the campaign feature uses send's read, so
// the two folders never import each other both ways.
import type { Context } from '../run/context.js';
import { AuthError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';
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
