// The contact store: contacts keyed by lower-cased email across groups, membership per group,
// and the group counts derived from it.
//
// Bound: the state is one JSON document rewritten after every request in --sandbox mode, so
// it cannot hold the ten million contacts a 500 MB import may carry. The sandbox stores at
// most MAX_STORED_CONTACTS contacts; rows beyond that are still parsed, validated and counted
// (insertCnt, subscribedCnt via SbGroup.unstored) but not kept, so they cannot be removed by
// endpoint 6 and re-importing them counts them again.
import type { CampaignState, SbContact, SbGroup } from './state.js';
import { iso } from './common.js';

export const MAX_STORED_CONTACTS = 50_000;

export interface Upsert {
  email: string;
  name: string;
  /** Only the custom-field columns present in the file (others stay unchanged). */
  fields: Record<string, string>;
}

export const contactKey = (email: string): string => email.trim().toLowerCase();

export function storedCount(state: CampaignState): number {
  return Object.keys(state.contacts).length;
}

/**
 * Adds or updates contacts and makes them members of listSn. Spec section 2: "Re-importing the
 * same EMAIL overwrites values of the same-named columns. Columns not listed in the file are
 * left unchanged." NAME is a column of every file, so it is always overwritten (even when empty).
 */
export function applyUpserts(state: CampaignState, listSn: string, upserts: Iterable<Upsert>, uncollected: number, now: number): void {
  const at = iso(now);
  let room = MAX_STORED_CONTACTS - storedCount(state);
  let unstored = uncollected;
  for (const u of upserts) {
    const k = contactKey(u.email);
    let c = state.contacts[k];
    if (!c) {
      if (room <= 0) {
        unstored += 1;
        continue;
      }
      room -= 1;
      c = state.contacts[k] = { email: u.email.trim(), name: '', fields: {}, lists: [], createDate: at, updateDate: at };
    }
    c.name = u.name;
    Object.assign(c.fields, u.fields);
    if (!c.lists.includes(listSn)) c.lists.push(listSn);
    c.updateDate = at;
  }
  const g = state.groups.find((x) => x.sn === listSn);
  if (g) g.unstored += unstored;
}

export function membersOf(state: CampaignState, listSn: string): SbContact[] {
  return Object.values(state.contacts).filter((c) => c.lists.includes(listSn));
}

/** Removes listSn membership from the given contacts; the contacts stay (spec section 2). */
export function removeMembership(state: CampaignState, listSn: string, contacts: SbContact[], now: number): number {
  let n = 0;
  for (const c of contacts) {
    const i = c.lists.indexOf(listSn);
    if (i < 0) continue;
    c.lists.splice(i, 1);
    c.updateDate = iso(now);
    n += 1;
  }
  return n;
}

/**
 * Recomputes subscribedCnt (valid members), excludeCnt (members with a bounce, unsubscribe or
 * complaint on record) and the open/click rates. Spec: "openedRate: total opens / total
 * deliveries, over valid members that have send records"; the sandbox keeps those totals per
 * group as its campaigns complete (see campaign-send.ts).
 */
export function recountGroups(state: CampaignState, now: number, only?: string[]): void {
  const tally = new Map<string, { ok: number; ex: number }>();
  for (const g of state.groups) if (!only || only.includes(g.sn)) tally.set(g.sn, { ok: 0, ex: 0 });
  for (const c of Object.values(state.contacts)) {
    for (const sn of c.lists) {
      const t = tally.get(sn);
      if (t) c.suppressed ? t.ex++ : t.ok++;
    }
  }
  for (const g of state.groups) {
    const t = tally.get(g.sn);
    if (!t) continue;
    const subscribed = t.ok + g.unstored;
    if (subscribed !== g.subscribedCnt || t.ex !== g.excludeCnt) {
      g.subscribedCnt = subscribed;
      g.excludeCnt = t.ex;
      g.segVersion += 1;
      g.updateDate = iso(now);
    }
    g.openedRate = rate(g.opened, g.delivered);
    g.clickedRate = rate(g.clicked, g.delivered);
  }
}

const rate = (n: number, d: number): number => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : 0);

export function findGroup(state: CampaignState, sn: string): SbGroup | undefined {
  return state.groups.find((g) => g.sn === sn);
}
