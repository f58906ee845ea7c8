// `campaign list`: the ledger's campaigns (src/campaign/ledger.ts) each with its status now, and
// with --all the finished campaigns the service lists (endpoint 14) that the ledger lacks. What
// goes out and in order: newest first, the date and status filters, at most `limit` rows, so the
// status lookups (one per ledger campaign shown, paced by the shared rate budget under the
// client) stop as soon as enough rows are found.
import type { CampaignCode } from '../api/campaign-types.js';
import type { LedgerEntry, LedgerGroup } from './ledger.js';
import { sameStatus } from './list-statuses.js';

/** One row of the list: what the ledger recorded (null where a campaign made elsewhere leaves it unknown) and the status now. */
export interface ListedCampaign {
  code: string;
  name: string;
  status: string;
  kind: LedgerEntry['kind'] | null;
  abTest: LedgerEntry['abTest'];
  once: boolean | null;
  groups: LedgerGroup[] | null;
  exclude: LedgerGroup[] | null;
  /** When it is (or was) scheduled to go out; null: sent at creation, or not known. */
  scheduledDate: string | null;
  sentBeginDate: string | null;
  sentEndDate: string | null;
  createdAt: string | null;
  /** Where mailctl knows it from: its own ledger, or the service's list of finished campaigns. */
  source: 'ledger' | 'report';
}

/** What a status lookup says of one campaign (endpoint 13), or NOT_FOUND. */
export interface Live {
  status: string;
  scheduledDate?: string;
  sentBeginDate?: string;
  sentEndDate?: string;
}

export interface ListRules {
  /** Inclusive, ms; a ledger campaign's creation time, a finished one's send start. */
  since?: number;
  until?: number;
  statuses?: ReadonlySet<string>;
  limit: number;
}

type Candidate = { entry: LedgerEntry; at: number } | { finished: CampaignCode; at: number };

/**
 * The candidates newest first: the ledger's (the last record of a code wins) in the date range,
 * then the finished campaigns the ledger does not hold (the service already applied the range).
 */
export function candidates(entries: LedgerEntry[], finished: CampaignCode[], r: Pick<ListRules, 'since' | 'until'>): Candidate[] {
  const byCode = new Map<string, LedgerEntry>();
  for (const e of entries) byCode.set(e.code, e);
  const out: Candidate[] = [];
  for (const entry of byCode.values()) {
    const at = Date.parse(entry.createdAt);
    if ((r.since === undefined || at >= r.since) && (r.until === undefined || at <= r.until)) out.push({ entry, at });
  }
  for (const f of finished) {
    if (byCode.has(f.sn) || out.some((c) => 'finished' in c && c.finished.sn === f.sn)) continue;
    const at = f.sentBeginDate ? Date.parse(f.sentBeginDate) : NaN;
    out.push({ finished: f, at: Number.isNaN(at) ? 0 : at });
  }
  return out.sort((a, b) => b.at - a.at);
}

/**
 * Walks the candidates newest first, looking each ledger campaign up (`live`), keeping those the
 * status filter lets through, until `limit` rows. A finished campaign from the service's list is
 * COMPLETE (endpoint 14 "Lists finished campaigns") and needs no lookup.
 */
export async function listCampaigns(list: Candidate[], r: ListRules, live: (code: string) => Promise<Live>, progress?: (looked: number) => void): Promise<ListedCampaign[]> {
  const rows: ListedCampaign[] = [];
  let looked = 0;
  for (const c of list) {
    if (rows.length >= r.limit) break;
    let row: ListedCampaign;
    if ('entry' in c) {
      const e = c.entry;
      const now = await live(e.code);
      progress?.(++looked);
      row = {
        code: e.code, name: e.name, status: now.status, kind: e.kind, abTest: e.abTest, once: e.once, groups: e.groups, exclude: e.exclude,
        scheduledDate: now.scheduledDate ?? e.schedule?.date ?? null,
        sentBeginDate: now.sentBeginDate ?? null, sentEndDate: now.sentEndDate ?? null, createdAt: e.createdAt, source: 'ledger',
      };
    } else {
      const f = c.finished;
      row = {
        code: f.sn, name: f.name, status: 'COMPLETE', kind: null, abTest: null, once: null, groups: null, exclude: null, scheduledDate: null,
        sentBeginDate: f.sentBeginDate ?? null, sentEndDate: f.sentEndDate ?? null, createdAt: null, source: 'report',
      };
    }
    // The filter holds names as sameStatus gives them (list.ts): SENT and COMPLETE are one state.
    if (!r.statuses || r.statuses.has(sameStatus(row.status))) rows.push(row);
  }
  return rows;
}

/** "regular", "A/B subject", …; '' when the campaign was made elsewhere. */
export function kindLabel(row: ListedCampaign): string {
  if (row.kind === null) return '';
  return row.kind === 'A_B_TEST' ? `A/B ${row.abTest ?? 'test'}` : 'regular';
}

/** Who it goes to: the groups by name (their code when no name was known), or the one-time list. */
export function audienceLabel(row: ListedCampaign): string {
  if (row.once) return 'one-time list';
  if (!row.groups) return '';
  return row.groups.map((g) => g.name ?? g.code).join(', ');
}
