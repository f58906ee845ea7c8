// The metrics step of `report sync`: after the files, read endpoint 15 for the campaigns whose
// rates still move (history.ts) and keep a snapshot of each. A failure here costs the dashboard
// its newest figures, not the files: it is reported (exit 5 when nothing else failed), never
// swallowed, and the next run reads them again.
import type { CampaignClient } from '../../api/campaign.js';
import type { CampaignMetrics } from '../../api/campaign-types.js';
import { CliError, ExitCode, factsOf } from '../../core/errors.js';
import { addSnapshot, METRICS_DAYS, METRICS_PER_REQUEST, snapshotRows } from './history.js';
import { DAY_MS } from './range.js';
import type { SyncState } from './state.js';

export interface MetricsStep {
  /** Campaigns whose metrics were asked for. */
  asked: number;
  /** Campaigns that got a new snapshot (figures changed). */
  changed: number;
  error?: { code: string; message: string; exitCode: number };
}

/** The campaigns to read: not gone, and finished within METRICS_DAYS or never read yet. */
export function metricsDue(state: SyncState, now: number): string[] {
  return [...state.campaigns]
    .filter(([, c]) => !c.goneAt && (!c.metrics?.length || now - Date.parse(c.sentEndDate) <= METRICS_DAYS * DAY_MS))
    .map(([sn]) => sn);
}

export async function readMetrics(client: CampaignClient, state: SyncState, now: number, signal: AbortSignal): Promise<MetricsStep> {
  const due = metricsDue(state, now);
  const step: MetricsStep = { asked: 0, changed: 0 };
  const at = new Date(now).toISOString();
  for (let i = 0; i < due.length && !signal.aborted; i += METRICS_PER_REQUEST) {
    const chunk = due.slice(i, i + METRICS_PER_REQUEST);
    let rows: CampaignMetrics[];
    try {
      rows = await client.metrics(chunk);
    } catch (e) {
      step.error = { code: factsOf(e).code, message: (e as Error).message, exitCode: e instanceof CliError ? e.exitCode : ExitCode.FAILED };
      return step;
    }
    step.asked += chunk.length;
    // Maps: a code is the service's word, `__proto__` a key like any other.
    const bySn = new Map<string, CampaignMetrics[]>();
    for (const r of Array.isArray(rows) ? rows : []) {
      if (typeof r?.campaignSn !== 'string') continue;
      bySn.set(r.campaignSn, [...(bySn.get(r.campaignSn) ?? []), r]);
    }
    for (const sn of chunk) {
      const rec = state.campaigns.get(sn)!;
      const own = bySn.get(sn);
      if (!own?.length) continue; // the service has no figures for it (yet)
      rec.metrics ??= [];
      if (addSnapshot(rec.metrics, { at, rows: snapshotRows(own) })) step.changed++;
      rec.metricsCheckedAt = at;
    }
  }
  return step;
}
