// Endpoints 14–17: finished campaigns, metrics, export of detail files, file links.
// Decisions where the spec is silent:
//   - "Finished" means COMPLETE. Newest first (by sentEndDate).
//   - 14 with both dates: campaigns whose sentBeginDate lies in [startDate, endDate]; a
//     date-only endDate (2026-10-31) covers that whole day. Unparseable dates or startDate after
//     endDate count as an invalid range, like a single date: the 10 most recent.
//   - 15: any unknown code in campaignSns → 403 40303 for the whole request; a body without a
//     campaignSns array → 400 {"message":"Invalid request body"}. A campaign still sending
//     reports what has gone out so far.
//   - 16: the 10-second rate check comes first (429), then the code (403 40303 when unknown or
//     not finished). The 200 body is {"message":"success"} (spec: not shown; decisions row 7). A
//     repeat for the same campaign within an hour is answered 200 and ignored (its webhookUrl
//     too). A later export reuses the earlier files (spec 17: "otherwise the earlier files are
//     reused": a finished campaign's data does not change here) and calls its webhook again.
//   - 17 before the files are ready: {"Reports": []}; unknown code → 403 40303. With the
//     shape reportLinks 'bare' (decisions row 8: the typed description shows a bare array) the
//     list itself is the body, here and in the export webhook.
import path from 'node:path';
import type { Route, SbContext, SbResponse } from '../types.js';
import type { SandboxShapes } from '../shapes.js';
import { INVALID_REPORT_CODE, isObj, iso } from './common.js';
import { metricsFor } from './campaign-metrics.js';
import { finished as jobFinished, forgetJob } from './jobs.js';
import { listRecipients } from './recipients.js';
import { REPORT_TYPES, campaignAudience, writeReportFiles, type ReportType } from './report-files.js';
import type { SbCampaign } from './state.js';

export const EXPORT_REPEAT_MS = 60 * 60 * 1000;
export const EXPORT_EVERY_MS = 10 * 1000;
const LATEST = 10;

const finished = (c: SbCampaign) => c.status === 'COMPLETE' && c.sentBeginAt !== undefined && c.sentEndAt !== undefined;

function parseDate(v: string | null, endOfDay: boolean): number | undefined {
  if (!v) return undefined;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(t)) return undefined;
  return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(v) ? t + 86_400_000 - 1 : t;
}

function linksBody(c: SbCampaign, shapes: SandboxShapes) {
  const links = c.export?.links && c.export.links.length ? c.export.links : [];
  if (shapes.reportLinks === 'link') {
    // The vendor's "returns the download URL": one link (the delivery file's), none while not ready.
    const one = links.find((l) => l.reportType === 'delivery') ?? links[0];
    return one ? { link: one.link } : { Reports: [] };
  }
  return shapes.reportLinks === 'bare' ? links : { Reports: links };
}

export const reportRoutes: Route[] = [
  {
    // 14. GET /v1/report/campaigns?startDate=&endDate=
    service: 'campaign', method: 'GET', path: '/v1/report/campaigns',
    handler: (req, ctx) => {
      const done = ctx.state.campaign.campaigns.filter(finished).sort((a, b) => b.sentEndAt! - a.sentEndAt!);
      const from = parseDate(req.query.get('startDate'), false);
      const to = parseDate(req.query.get('endDate'), true);
      const inRange = from !== undefined && to !== undefined && from <= to;
      const list = inRange ? done.filter((c) => c.sentBeginAt! >= from && c.sentBeginAt! <= to) : done.slice(0, LATEST);
      const codes = list.map((c) => ({ sn: c.sn, name: c.name, sentBeginDate: iso(c.sentBeginAt!), sentEndDate: iso(c.sentEndAt!) }));
      // The official CLI's stub wraps them (shapes.ts finished-campaigns=campaigns).
      return { status: 200, json: ctx.opts.shapes.finishedCampaigns === 'campaigns' ? { campaigns: codes } : codes };
    },
  },
  {
    // 15. POST /v1/report/campaigns/metrics, body campaignSns
    service: 'campaign', method: 'POST', path: '/v1/report/campaigns/metrics',
    handler: async (req, ctx): Promise<SbResponse> => {
      const body = await req.json();
      if (!isObj(body) || !Array.isArray(body.campaignSns)) return { status: 400, json: { message: 'Invalid request body' } };
      const all = ctx.state.campaign.campaigns;
      const found = body.campaignSns.map((sn) => all.find((c) => c.sn === sn));
      if (found.some((c) => !c)) return INVALID_REPORT_CODE;
      return { status: 200, json: (found as SbCampaign[]).flatMap(metricsFor) };
    },
  },
  {
    // 16. POST /v1/report/{campaign_sn}/export, optional webhookUrl
    service: 'campaign', method: 'POST', path: '/v1/report/:sn/export',
    handler: async (req, ctx, p): Promise<SbResponse> => {
      const st = ctx.state.campaign;
      if (ctx.opts.limits.exportEvery10s && st.lastExportAt !== undefined && ctx.now - st.lastExportAt < EXPORT_EVERY_MS) {
        return { status: 429, json: { message: 'too many requests' } };
      }
      st.lastExportAt = ctx.now;
      const body = await req.json();
      const c = st.campaigns.find((x) => x.sn === p.sn);
      if (!c || !finished(c)) return INVALID_REPORT_CODE;
      if (c.export && ctx.now - c.export.requestedAt < EXPORT_REPEAT_MS) return { status: 200, json: { message: 'success' } };
      const webhookUrl = isObj(body) && typeof body.webhookUrl === 'string' && body.webhookUrl ? body.webhookUrl : undefined;
      c.export = { requestedAt: ctx.now, readyAt: ctx.now + ctx.opts.delays.reportExport, webhookUrl, links: c.export?.links };
      return { status: 200, json: { message: 'success' } };
    },
  },
  {
    // 17. GET /v1/report/{campaign_sn}/link → {Reports: [{reportType, link, createdDate}]}
    service: 'campaign', method: 'GET', path: '/v1/report/:sn/link',
    handler: (_req, ctx, p) => {
      const c = ctx.state.campaign.campaigns.find((x) => x.sn === p.sn);
      if (!c) return INVALID_REPORT_CODE;
      return { status: 200, json: linksBody(c, ctx.opts.shapes) };
    },
  },
];

/** Generates the files of a due export (the request that finds it due waits for them); publishes them and calls the webhook. */
export async function advanceExports(ctx: SbContext): Promise<void> {
  const st = ctx.state.campaign;
  for (const c of st.campaigns) {
    const ex = c.export;
    if (!ex || ex.notified || ctx.now < ex.readyAt) continue;
    if (!ex.links) {
      const id = `export:${c.sn}`;
      const stored = (t: ReportType) => `report-${c.sn}-${t}.csv`;
      const members = listRecipients(st, c);
      const listPath = c.listFile ? ctx.filePath(c.listFile) : undefined;
      const snapshot = structuredClone(c);
      const now = ctx.now;
      const job = await jobFinished(st, id, async () => writeReportFiles(snapshot, await campaignAudience(snapshot, members, listPath), now, (t) => ctx.filePath(stored(t))));
      forgetJob(st, id);
      if (!job.result) continue; // could not write: try again on the next request
      const created = iso(ctx.now);
      ex.links = REPORT_TYPES.map((t) => ({
        reportType: t,
        link: ctx.publishStoredFile(path.basename(job.result![t]), `${c.sn}_${t}.csv`),
        createdDate: created,
      }));
    }
    ex.notified = true;
    if (ex.webhookUrl) ctx.queueWebhook({ url: ex.webhookUrl, body: linksBody(c, ctx.opts.shapes), dueAt: ctx.now });
  }
}
