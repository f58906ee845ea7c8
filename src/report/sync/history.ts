// Rates over time for the dashboard: each `report sync` run reads the metrics of its recent
// campaigns (endpoint 15) and keeps a snapshot in the campaign's record of the sync state, when
// the figures changed since the last one. Bounded: only campaigns finished in the last
// METRICS_DAYS get new snapshots (opens and clicks settle within days), and a campaign keeps its
// first snapshot and the newest MAX_SNAPSHOTS - 1, so the state stays small however often cron runs.
import type { CampaignMetrics } from '../../api/campaign-types.js';

export const METRICS_DAYS = 30;
export const MAX_SNAPSHOTS = 48;
/** Codes per metrics request: the spec gives campaignSns no maximum; small requests keep each answer small. */
export const METRICS_PER_REQUEST = 50;

/** The figures a snapshot keeps of one row; null: the service gave no number. */
export const FIGURES = ['recipientCnt', 'delivered', 'opened', 'clicked', 'bounced', 'unsubscribed', 'complained'] as const;
export type Figure = (typeof FIGURES)[number];

export interface SnapshotRow extends Record<Figure, number | null> {
  /** TOTAL, TEST_A, TEST_B, WINNING (the service's word). */
  reportType: string;
  /** Kept for A/B rows: the WINNING row's subject tells which version won (decisions row P14). */
  subject?: string;
}

export interface MetricSnapshot {
  /** When this run read the figures (ISO). */
  at: string;
  rows: SnapshotRow[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a state file's `metrics` value is a history this code wrote (undefined: none yet). */
export function isHistory(v: unknown): boolean {
  if (v === undefined) return true;
  return Array.isArray(v) && v.every((s) => isObject(s) && typeof s.at === 'string' && Array.isArray(s.rows)
    && s.rows.every((r) => isObject(r) && typeof r.reportType === 'string' && FIGURES.every((f) => r[f] === null || typeof r[f] === 'number')));
}

const figure = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One campaign's rows of an answer as a snapshot row each (a figure that is not a number kept as null, never 0). */
export function snapshotRows(rows: CampaignMetrics[]): SnapshotRow[] {
  return rows.map((m) => {
    const r = { reportType: String(m.reportType) } as SnapshotRow;
    for (const f of FIGURES) r[f] = figure(m[f]);
    if (m.reportType !== 'TOTAL' && typeof m.subject === 'string') r.subject = m.subject;
    return r;
  });
}

/**
 * Adds a snapshot unless the figures are the same as the last one's (then only `checkedAt`
 * moves, which the caller keeps). Returns whether one was added.
 */
export function addSnapshot(history: MetricSnapshot[], snap: MetricSnapshot): boolean {
  const last = history.at(-1);
  if (last && JSON.stringify(last.rows) === JSON.stringify(snap.rows)) return false;
  history.push(snap);
  if (history.length > MAX_SNAPSHOTS) history.splice(1, history.length - MAX_SNAPSHOTS);
  return true;
}

/**
 * A snapshot row as the metrics item it was read from, for the code that reads those (rates, the
 * A/B winner). A figure not given becomes NaN, so a rate made from it is no number ("n/a"), never 0.
 */
export function asMetrics(sn: string, name: string, r: SnapshotRow): CampaignMetrics {
  const m = { campaignSn: sn, name, channel: 'MAIL', reportType: r.reportType, subject: r.subject } as Record<string, unknown>;
  for (const f of FIGURES) m[f] = r[f] ?? Number.NaN;
  return m as unknown as CampaignMetrics;
}
