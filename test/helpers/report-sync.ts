// Fixtures for the `report sync` tests: finished campaigns made over plain HTTP (so the CLI's
// requests are the only report traffic a test looks at), and views of what the sandbox received.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GROUP_SETUP, campaignApi, campaignBody, campaignUntil, groupWith, emails } from './campaign-api.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

/** What finishedCampaigns() asks the sandbox for, as useSandbox({ expect }) entries. */
export const FINISHED_CAMPAIGNS = [...GROUP_SETUP, 'POST /campaign/v1/campaign/normal/submit', 'GET /campaign/v1/campaign/normal/:sn'];
/** What report sync reads after the files, for its dashboard (DIR/index.html): the metrics. */
export const SYNC_METRICS = 'POST /campaign/v1/report/campaigns/metrics';
/** What exporting a campaign's reports and downloading them asks for (report export --wait, report sync). */
export const REPORT_EXPORT = ['POST /campaign/v1/report/:sn/export', 'GET /campaign/v1/report/:sn/link', 'GET /files/d/:token'];

/** `n` campaigns sent to a group of `people` contacts, each COMPLETE (named `names[i]` if given). Returns their codes. */
export async function finishedCampaigns(get: () => RunningSandbox, n: number, people = 30, names: string[] = []): Promise<string[]> {
  const api = campaignApi(get);
  const group = await groupWith(api, emails(people, `sync${Date.now()}-`), `Sync ${Date.now()}`);
  const sns: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = campaignBody([group]);
    b.form.name = names[i] ?? `Sync campaign ${i}`;
    const r = await api.post('/v1/campaign/normal/submit', b);
    if (r.status !== 200) throw new Error(`campaign not created: ${r.text}`);
    sns.push(r.json.sn);
  }
  for (const sn of sns) await campaignUntil(api, sn, 'COMPLETE');
  return sns;
}

export function syncTraffic(get: () => RunningSandbox, from = 0) {
  const all = get().sandbox.requests().slice(from);
  return {
    all,
    exports: all.filter((r) => r.method === 'POST' && /^\/v1\/report\/[^/]+\/export$/.test(r.path)),
    downloads: all.filter((r) => r.service === 'files' && r.method === 'GET'),
  };
}

/** The sandbox's own link of each report type of a campaign (after it has been exported). */
export function sandboxLinks(get: () => RunningSandbox, sn: string): Record<string, string> {
  const c = get().sandbox.state.campaign.campaigns.find((x) => x.sn === sn);
  return Object.fromEntries((c?.export?.links ?? []).map((l) => [l.reportType, l.link]));
}

export const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The folder a campaign's files go to: DIR/<finished-date>_<code>. */
export function folderOf(get: () => RunningSandbox, dir: string, sn: string): string {
  const c = get().sandbox.state.campaign.campaigns.find((x) => x.sn === sn)!;
  return path.join(dir, `${new Date(c.sentEndAt!).toISOString().slice(0, 10)}_${sn}`);
}

export const TYPES = ['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain'];
