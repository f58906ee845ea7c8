// Time moves message histories forward: every event whose time has come becomes visible to
// lookup and, when a webhook of its type is registered at that moment, is POSTed.
import type { SbContext } from '../types.js';
import type { MessageRecord } from './state.js';
import { fireWebhook } from './webhooks.js';
import { RETENTION_MS } from './events.js';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export function advanceNotify(ctx: SbContext): void {
  const s = ctx.state.notify;
  if (s.unfolding.length) {
    s.unfolding = s.unfolding.filter((id) => {
      const m = s.messages[id];
      return !!m && step(ctx, m);
    });
  }
  // History older than the lookup window is of no use to anyone: drop it now and then so
  // the persisted state of a long-lived --sandbox stays small.
  if (ctx.now - s.prunedAt > PRUNE_EVERY_MS) {
    s.prunedAt = ctx.now;
    for (const [id, m] of Object.entries(s.messages)) if (m.createdAt < ctx.now - RETENTION_MS) delete s.messages[id];
  }
}

/** A new message: what happens at once (accept) happens now; the rest is tracked. */
export function startUnfolding(ctx: SbContext, m: MessageRecord): void {
  ctx.state.notify.messages[m.id] = m;
  if (step(ctx, m)) ctx.state.notify.unfolding.push(m.id);
}

/** Apply the events of one message that are due; true while some are still to come. */
function step(ctx: SbContext, m: MessageRecord): boolean {
  let open = false;
  for (const e of m.events) {
    if (!e.logged && e.at <= ctx.now) e.logged = true;
    if (!e.hooked && (e.hookAt ?? e.at) <= ctx.now) {
      e.hooked = true;
      fireWebhook(ctx, m, e);
    }
    if (!e.logged || !e.hooked) open = true;
  }
  return open;
}
