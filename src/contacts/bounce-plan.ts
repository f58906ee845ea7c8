// Bounce hygiene across the two services: the notification service knows which addresses
// bounce or complain; the campaign service keeps the groups they are still in. A plan lists, per
// address, why it should go (a permanent bounce, a complaint, or — when asked — a temporary
// bounce), how many such events and the latest one.
import type { EmailEvent } from '../api/notify-types.js';

export type Reason = 'complaint' | 'permanent bounce' | 'temporary bounce';

export interface PlanRow {
  address: string;
  reason: Reason;
  events: number;
  lastAt: string;
}

/** Spec 001: a bounce's rawEvent.type is "1" permanent, "0" temporary. */
function reasonOf(e: EmailEvent): Reason | undefined {
  if (e.status === 'complaint') return 'complaint';
  if (e.status !== 'bounce') return undefined;
  return String((e.rawEvent as { type?: unknown } | undefined)?.type) === '1' ? 'permanent bounce' : 'temporary bounce';
}

const RANK: Record<Reason, number> = { complaint: 3, 'permanent bounce': 2, 'temporary bounce': 1 };

export function buildPlan(events: EmailEvent[], o: { includeTemporary: boolean }): PlanRow[] {
  const by = new Map<string, PlanRow>();
  for (const e of events) {
    const reason = reasonOf(e);
    if (!reason || (reason === 'temporary bounce' && !o.includeTemporary)) continue;
    const address = String(e.mail?.to ?? e.mail?.recipient ?? '').trim().toLowerCase();
    if (!address) continue;
    const row = by.get(address);
    if (!row) {
      by.set(address, { address, reason, events: 1, lastAt: e.eventTime ?? '' });
      continue;
    }
    row.events++;
    if (RANK[reason] > RANK[row.reason]) row.reason = reason;
    if ((e.eventTime ?? '') > row.lastAt) row.lastAt = e.eventTime ?? '';
  }
  return [...by.values()].sort((a, b) => RANK[b.reason] - RANK[a.reason] || a.address.localeCompare(b.address));
}
