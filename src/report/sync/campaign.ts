// One campaign of a sync: is it complete in the directory (every file the state lists still
// whole), and if not: export (unless ours from less than an hour ago, which the service would
// ignore), wait for the links, download what is missing.
import type { Context } from '../../run/context.js';
import type { CampaignClient } from '../../api/campaign.js';
import type { ReportLink } from '../../api/campaign-types.js';
import { ServiceError, factsOf } from '../../core/errors.js';
import type { DiskError } from '../../fs/append-whole.js';
import { pollUntil } from '../../run/poll.js';
import { REPORT_TYPES } from '../download.js';
import { campaignFolder, fetchReportFile, prepareFolder, refuseInTheWay, reportFile, stillWhole } from './files.js';
import type { CampaignRecord, SyncState } from './state.js';

/** Spec 000 endpoint 16: "Repeated calls for the same campaign within 1 hour are ignored." */
export const EXPORT_REPEAT_MS = 60 * 60_000;

export interface SyncRun {
  ctx: Context;
  client: CampaignClient;
  dir: string;
  state: SyncState;
  save(): Promise<void>;
  /** Bounds the downloads running at once, across campaigns. */
  downloadSlot: <T>(task: () => Promise<T>) => Promise<T>;
  /** Resolves when the first export of this run may go (pacing after the previous run). */
  exportGate(): Promise<void>;
  /** Campaigns finished at or after this are re-exported (--refresh-days); undefined: none. */
  refreshFrom?: number;
  linkTimeoutMs: number;
  progress: { downloading: number; exports: number; update(): void };
  /** `${sn}/${type}` of each file downloaded in this run. */
  fresh: Set<string>;
  /**
   * The directory's disk refused a write (a report file, the state): the run stops starting
   * work (every later write would meet the same disk) and ends with this error.
   */
  diskError?: DiskError;
}

export type Plan = { kind: 'complete' } | { kind: 'deferred'; until: number } | { kind: 'work'; types: string[]; refresh: boolean };

export async function planCampaign(run: SyncRun, sn: string, rec: CampaignRecord): Promise<Plan> {
  const folder = campaignFolder(sn, rec.sentEndDate);
  // Before any export: one requested for a campaign that cannot be saved is wasted (1 per 10 s).
  refuseInTheWay(run.dir, folder, sn);
  const missing: string[] = [];
  for (const t of REPORT_TYPES) {
    const f = rec.files[t];
    if (f && f.path === reportFile(folder, t) && (await stillWhole(run.dir, f))) continue;
    if (f) delete rec.files[t]; // changed or gone since: fetched again
    missing.push(t);
  }
  if (missing.length) return { kind: 'work', types: missing, refresh: false };
  if (run.refreshFrom === undefined || Date.parse(rec.sentEndDate) < run.refreshFrom) return { kind: 'complete' };
  const last = rec.exportedAt ? Date.parse(rec.exportedAt) : NaN;
  if (run.ctx.clock.now() - last < EXPORT_REPEAT_MS) return { kind: 'deferred', until: last + EXPORT_REPEAT_MS };
  return { kind: 'work', types: [...REPORT_TYPES], refresh: true };
}

/** Returns the number of files downloaded (0: a refresh found the service reusing the same files). */
export async function syncCampaign(run: SyncRun, sn: string, rec: CampaignRecord, plan: { types: string[]; refresh: boolean }): Promise<number> {
  const { ctx, client } = run;
  if (run.diskError) throw run.diskError;
  const last = rec.exportedAt ? Date.parse(rec.exportedAt) : NaN;
  const recent = ctx.clock.now() - last < EXPORT_REPEAT_MS;
  if (!recent) await requestExport(run, sn, rec);
  const links = await pollUntil(ctx, () => client.reportLinks(sn), (l) => l.length > 0, {
    label: `Waiting for the report files of ${sn}…`,
    silent: true,
    timeoutMs: run.linkTimeoutMs,
    timeoutMessage: () => `The report files of ${sn} were not ready after ${Math.round(run.linkTimeoutMs / 1000)} s.`,
    resumeHint: 'The export goes on at the service; the next run picks the files up.',
  });
  const byType = newestByType(links);
  const folder = campaignFolder(sn, rec.sentEndDate);
  prepareFolder(run.dir, folder, sn);
  const onceAnHour = recent
    ? ` It was exported less than an hour ago (${rec.exportedAt}); the service ignores a repeat export until ${new Date(last + EXPORT_REPEAT_MS).toISOString()}, so a run after that gets fresh links.`
    : '';
  let downloaded = 0;
  const results = await Promise.allSettled(
    plan.types.filter((t) => byType.has(t)).map(async (t) => {
      const link = byType.get(t)!;
      const had = rec.files[t];
      if (plan.refresh && had && link.createdDate && had.createdDate === link.createdDate) return; // the service reused the same file
      const f = await run.downloadSlot(async () => {
        if (run.diskError) throw run.diskError;
        run.progress.downloading++;
        run.progress.update();
        try {
          return await fetchReportFile(ctx, run.dir, reportFile(folder, t), link.link, {
            what: `the ${t} file of ${sn}`,
            expiredHint: `Links expire.${onceAnHour || ' The next run exports the campaign again and gets fresh ones.'}`,
            now: () => ctx.clock.now(),
            // The run's --timeout bounds each download as a whole (the lock is held meanwhile).
            deadlineMs: run.linkTimeoutMs,
          });
        } finally {
          run.progress.downloading--;
          run.progress.update();
        }
      });
      rec.files[t] = { ...f, createdDate: link.createdDate };
      run.fresh.add(`${sn}/${t}`);
      downloaded++;
      await run.save();
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const absent = plan.types.filter((t) => !byType.has(t));
  if (absent.length) {
    throw new ServiceError(`The service gave no link for the ${absent.join(', ')} file${absent.length === 1 ? '' : 's'} of ${sn}.${onceAnHour}`, {
      facts: { code: 'BAD_RESPONSE', refused: false },
    });
  }
  return downloaded;
}

async function requestExport(run: SyncRun, sn: string, rec: CampaignRecord): Promise<void> {
  await run.exportGate();
  try {
    await run.client.exportReport(sn);
  } catch (e) {
    // Another process (a manual `report export`) took the 10-second slot: wait one and try once more.
    if (factsOf(e).code !== 'RATE_LIMITED') throw e;
    await run.ctx.clock.sleep(10_000, run.ctx.signal);
    await run.client.exportReport(sn);
  }
  const at = new Date(run.ctx.clock.now()).toISOString();
  rec.exportedAt = at;
  run.state.lastExportAt = at;
  run.progress.exports++;
  run.progress.update();
  await run.save();
}

/** One link per type; when the service lists a type twice, the newest file. */
function newestByType(links: ReportLink[]): Map<string, ReportLink> {
  const out = new Map<string, ReportLink>();
  for (const l of links) {
    if (typeof l?.reportType !== 'string' || typeof l.link !== 'string') continue;
    const had = out.get(l.reportType);
    if (!had || (Date.parse(l.createdDate ?? '') || 0) > (Date.parse(had.createdDate ?? '') || 0)) out.set(l.reportType, l);
  }
  return out;
}
