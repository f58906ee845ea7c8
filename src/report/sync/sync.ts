// `mailctl report sync`: every finished campaign in the range complete in one directory, under a
// lock, with the state and the manifest written atomically. Exports go out one per 10 s across
// the run (the client's export limiter, plus a pause after the previous run's last export);
// downloads run four at a time; every campaign's failure is its own.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../run/context.js';
import { CliError, ExitCode, InterruptedError, UsageError, factsOf } from '../../core/errors.js';
import { forTerminal } from '../../core/sanitize.js';
import { lookup } from '../../run/output/dry-run.js';
import { PRIVATE_DIR_MODE, writeFileAtomic } from '../../fs/safe-write.js';
import { DiskError, isDiskProblem } from '../../fs/append-whole.js';
import { sameCommand } from '../../core/suggest.js';
import { safeFileName } from '../../fs/safe-name.js';
import { acquireLock, LOCK_FILE } from './lock.js';
import { loadState, stateSaver, STATE_FILE, type CampaignRecord } from './state.js';
import { isoSecond, syncRange, DAY_MS, type SyncRange } from './range.js';
import { EXPORT_REPEAT_MS, planCampaign, syncCampaign, type Plan, type SyncRun } from './campaign.js';
import { manifestRows, writeManifest, MANIFEST_FILE, type ManifestRow } from './manifest.js';
import { REPORT_TYPES } from '../download.js';
import { slots } from './slots.js';
import { readMetrics, type MetricsStep } from './metrics.js';
import { DASHBOARD_FILE, dashboardPage } from '../dashboard/page.js';

export const DOWNLOADS_AT_ONCE = 4;
const EXPORT_EVERY_MS = 10_000;
/** Spec 000 section 7: report endpoints, invalid campaign code. */
const INVALID_CAMPAIGN = '40303';

export interface SyncOptions {
  dir: string;
  /** The flag that named DIR, for messages. */
  dirFlag?: string;
  since?: string;
  until?: string;
  refreshDays: number;
  waitLockMs: number;
  linkTimeoutMs: number;
}

export interface Failure {
  sn: string;
  name: string;
  code: string;
  exitCode: number;
  message: string;
}

export interface SyncReport {
  dir: string;
  range: { from: string; to: string; why: string };
  listed: number;
  exports: number;
  downloaded: number;
  complete: number;
  unchanged: number;
  /** Complete, with a refresh asked for but not possible yet (the once-an-hour rule): until when. */
  deferred: Array<{ sn: string; until: string }>;
  /** Incomplete from an earlier run, and the service no longer knows them: not tried again. */
  gone: string[];
  failed: Failure[];
  rows: Array<ManifestRow & { updated: boolean }>;
  /** How long the run waited for another run's lock (--wait-lock). */
  waitedMs: number;
  /** The metrics read for the dashboard (undefined: not reached, the run was stopped first). */
  metrics?: MetricsStep;
  /** DIR/index.html, rewritten at the end of every run. */
  dashboard?: string;
}

export async function runSync(ctx: Context, o: SyncOptions): Promise<SyncReport> {
  syncRange({ ...o, now: ctx.clock.now() }); // flag mistakes are exit 2 before anything else happens
  prepareDir(o.dir, o.dirFlag);
  const lock = await acquireLock(ctx, o.dir, o.waitLockMs, '--wait-lock');
  try {
    return { ...(await locked(ctx, o)), waitedMs: lock.waitedMs };
  } finally {
    lock.release();
  }
}

/** --out-dir must be a directory or nothing yet; returns whether it exists. */
function checkDir(dir: string, flag = '--out-dir'): boolean {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new UsageError(`${dir} (${flag}) is a file, not a directory; report sync keeps a directory of report files.`, `Give a directory${flag === '--out-dir' ? ' with --out-dir DIR' : ''} (it is created if missing).`);
  return !!st;
}

function prepareDir(dir: string, flag?: string): void {
  checkDir(dir, flag);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    if (isDiskProblem(e)) throw new DiskError(dir, e.code!);
    throw new UsageError(`Cannot create the directory ${dir}: ${(e as Error).message}.`);
  }
}

/**
 * What a run killed while writing its state or manifest leaves in DIR (the temporary file of
 * writeFileAtomic, `.<name>.<12 hex>.part`), or while moving a stale lock aside. Only these exact
 * names: anything else in DIR is the user's. Called under the lock, so no live run is writing them.
 */
const LEFTOVER = new RegExp(`^(\\.(${[STATE_FILE, MANIFEST_FILE, DASHBOARD_FILE].map(literal).join('|')})\\.[0-9a-f]{12}\\.part|${literal(LOCK_FILE)}\\.[0-9a-f]{12}\\.stale)$`);

function literal(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * In a campaign's folder, what a run killed mid-download left: the file being downloaded
 * (`.<type>.csv.<12 hex>.download`, files.ts) and its own temporary (`..<type>.csv.<12 hex>.download.<12 hex>.part`).
 */
const LEFT_DOWNLOAD = /^\.\.?[^/]+\.csv\.[0-9a-f]{12}\.download(\.[0-9a-f]{12}\.part)?$/;

function removeLeftovers(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (LEFTOVER.test(entry.name)) fs.rmSync(`${dir}/${entry.name}`, { force: true });
    // A campaign folder (a real directory, never followed through a link).
    else if (entry.isDirectory()) {
      for (const name of fs.readdirSync(`${dir}/${entry.name}`)) if (LEFT_DOWNLOAD.test(name)) fs.rmSync(`${dir}/${entry.name}/${name}`, { force: true });
    }
  }
}

async function locked(ctx: Context, o: SyncOptions): Promise<SyncReport> {
  removeLeftovers(o.dir);
  const state = loadState(o.dir);
  const range = syncRange({ ...o, highWater: state.highWater, now: ctx.clock.now() });
  const client = await ctx.campaign();
  const save = stateSaver(o.dir, state);
  const spin = await ctx.io.spinner(`Listing the campaigns finished ${isoSecond(range.from)} – ${isoSecond(range.to)}…`);
  const report: SyncReport = {
    dir: o.dir,
    range: { from: isoSecond(range.from), to: isoSecond(range.to), why: range.why },
    listed: 0, exports: 0, downloaded: 0, complete: 0, unchanged: 0, deferred: [], gone: [], failed: [], rows: [], waitedMs: 0,
  };
  const run: SyncRun = {
    ctx, client, dir: o.dir, state, save,
    downloadSlot: slots(DOWNLOADS_AT_ONCE),
    exportGate: once(() => paceAfterLastRun(ctx, state.lastExportAt)),
    refreshFrom: o.refreshDays ? ctx.clock.now() - o.refreshDays * DAY_MS : undefined,
    linkTimeoutMs: o.linkTimeoutMs,
    progress: { downloading: 0, exports: 0, update: () => {} },
    fresh: new Set(),
  };
  try {
    const listed = await listInRange(run, range, report);
    const todo = campaignsToCheck(state, listed);
    const plans = await planAll(run, todo, report);
    const work = plans.filter((p): p is { sn: string; plan: Extract<Plan, { kind: 'work' }> } => p.plan.kind === 'work');
    let done = 0;
    run.progress.update = () =>
      spin.text(`Syncing reports: ${done} of ${work.length} campaign${work.length === 1 ? '' : 's'} done, ${run.progress.exports} export${run.progress.exports === 1 ? '' : 's'} requested, ${run.progress.downloading} file${run.progress.downloading === 1 ? '' : 's'} downloading…`);
    run.progress.update();
    await Promise.all(
      work.map(async ({ sn, plan }) => {
        const rec = state.campaigns.get(sn)!;
        try {
          const n = await syncCampaign(run, sn, rec, plan);
          delete rec.lastError;
          if (n) report.downloaded++;
          else report.unchanged++;
        } catch (e) {
          if (ctx.signal.aborted) return;
          // Not this campaign's failure but the run's: it ends with the disk error (below).
          if (e instanceof DiskError) {
            run.diskError ??= e;
            return;
          }
          const at = new Date(ctx.clock.now()).toISOString();
          if (!listed.includes(sn) && factsOf(e).serviceCode === INVALID_CAMPAIGN) {
            // Retried from an earlier run, and the service no longer knows it (deleted, and its reports with it).
            rec.goneAt = at;
            report.gone.push(sn);
            return;
          }
          report.failed.push(failure(sn, rec, e));
          rec.lastError = { code: factsOf(e).code, message: (e as Error).message, at };
        } finally {
          done++;
          run.progress.update();
        }
      }),
    );
    if (range.movesHighWater && !ctx.signal.aborted) {
      const hw = Math.max(range.to, state.highWater ? Date.parse(state.highWater) || 0 : 0);
      state.highWater = new Date(hw).toISOString();
    }
    if (!ctx.signal.aborted) {
      spin.text('Reading the metrics for the dashboard…');
      report.metrics = await readMetrics(client, state, ctx.clock.now(), ctx.signal);
    }
  } finally {
    spin.stop();
    try {
      await save();
      // The manifest and the dashboard show what the state on disk holds: after a state that
      // could not be saved they are left as they were, so none claims a file the others do not.
      const rows = manifestRows(state);
      await writeManifest(o.dir, rows);
      // Last, from the state as saved: the page shows only files that are whole and figures that were read.
      report.dashboard = path.join(o.dir, DASHBOARD_FILE);
      await writeFileAtomic(report.dashboard, dashboardPage(state, { dir: o.dir, generatedAt: new Date(ctx.clock.now()).toISOString(), metricsError: report.metrics?.error?.message }));
      report.rows = rows.map((r) => ({ ...r, updated: run.fresh.has(`${r.campaignCode}/${r.type}`) }));
    } catch (e) {
      if (!(e instanceof DiskError)) throw e;
      run.diskError ??= e;
    }
    report.exports = run.progress.exports;
  }
  if (run.diskError) {
    // Only whole files are in DIR under their names, and the state lists only what it could
    // save: a run once there is room checks each file and fetches the rest.
    throw run.diskError.withHint(`Files already whole in ${o.dir} are kept, and the next run checks them. ${run.diskError.fix}, then run the command again: ${sameCommand(ctx)}`);
  }
  if (ctx.signal.aborted) {
    throw new InterruptedError(
      `Report sync stopped; ${run.fresh.size} file${run.fresh.size === 1 ? '' : 's'} saved in this run are kept.`,
      `Run it again, and complete files are not downloaded again while the rest are: ${sameCommand(ctx)}`,
    );
  }
  return report;
}

/** Endpoint 14 with both dates: "all finished campaigns in the range" (the spec names no pages). */
async function listInRange(run: SyncRun, range: SyncRange, report: SyncReport): Promise<string[]> {
  const found = await run.client.listFinishedCampaigns(isoSecond(range.from), isoSecond(range.to));
  const listed: string[] = [];
  for (const c of Array.isArray(found) ? found : []) {
    const sn = typeof c?.sn === 'string' ? c.sn : '';
    try {
      safeFileName(sn, 'campaign code');
      if (typeof c.sentEndDate !== 'string' || Number.isNaN(Date.parse(c.sentEndDate))) {
        throw new CliError(`The service listed campaign ${sn} as finished without a finish date (sentEndDate).`, ExitCode.FAILED, undefined, { code: 'BAD_RESPONSE', reached: 'yes', refused: false, retryable: false });
      }
    } catch (e) {
      report.failed.push({ sn: forTerminal(sn, 80), name: forTerminal(c?.name, 80), code: factsOf(e).code, exitCode: ExitCode.FAILED, message: (e as Error).message });
      continue;
    }
    let rec = run.state.campaigns.get(sn);
    if (!rec) run.state.campaigns.set(sn, (rec = { name: '', sentEndDate: c.sentEndDate, files: {} }));
    rec.name = typeof c.name === 'string' ? c.name : '';
    delete rec.goneAt;
    rec.sentBeginDate = c.sentBeginDate;
    rec.sentEndDate = c.sentEndDate;
    listed.push(sn);
  }
  report.listed = listed.length;
  return listed;
}

/** Listed campaigns, and any earlier campaign still incomplete (failed before, now outside the range). */
function campaignsToCheck(state: SyncRun['state'], listed: string[]): string[] {
  const seen = new Set(listed);
  const earlier = [...state.campaigns]
    .filter(([sn, c]) => !seen.has(sn) && !c.goneAt && REPORT_TYPES.some((t) => !c.files[t]))
    .map(([sn]) => sn);
  const finished = (sn: string) => state.campaigns.get(sn)!.sentEndDate;
  return [...listed, ...earlier].sort((a, b) => finished(a).localeCompare(finished(b)) || a.localeCompare(b));
}

async function planAll(run: SyncRun, sns: string[], report: SyncReport): Promise<Array<{ sn: string; plan: Plan }>> {
  const disk = slots(DOWNLOADS_AT_ONCE);
  const out: Array<{ sn: string; plan: Plan }> = [];
  await Promise.all(
    sns.map((sn) =>
      disk(async () => {
        const rec = run.state.campaigns.get(sn)!;
        try {
          out.push({ sn, plan: await planCampaign(run, sn, rec) });
        } catch (e) {
          report.failed.push(failure(sn, rec, e));
        }
      }),
    ),
  );
  for (const { sn, plan } of out) {
    if (plan.kind === 'complete') report.complete++;
    if (plan.kind === 'deferred') report.deferred.push({ sn, until: new Date(plan.until).toISOString() });
  }
  const order = new Map(sns.map((sn, i) => [sn, i]));
  return out.sort((a, b) => order.get(a.sn)! - order.get(b.sn)!);
}

function failure(sn: string, rec: CampaignRecord | undefined, e: unknown): Failure {
  const exitCode = e instanceof CliError ? e.exitCode : ExitCode.FAILED;
  return { sn, name: forTerminal(rec?.name ?? '', 80), code: factsOf(e).code, exitCode, message: (e as Error)?.message ?? String(e) };
}

/** The service takes 1 export per 10 s from the account: the previous run's last one counts too. */
async function paceAfterLastRun(ctx: Context, lastExportAt: string | undefined): Promise<void> {
  if (!ctx.tuning.rateLimit || !lastExportAt) return;
  const wait = Date.parse(lastExportAt) + EXPORT_EVERY_MS + 100 - ctx.clock.now();
  if (wait > 0 && wait <= EXPORT_EVERY_MS + 100) await ctx.clock.sleep(wait, ctx.signal);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}

export interface SyncPlan {
  dir: string;
  range: SyncReport['range'];
  /** Campaigns in the range that DIR's state already knows (the listing itself is not read). */
  known: number;
  /** Campaigns a run would work on: the files it would fetch, and whether it would request an export first. */
  work: Array<{ sn: string; name: string; finished: string; files: string[]; export: boolean; refresh: boolean }>;
  complete: number;
  deferred: SyncReport['deferred'];
  failed: Failure[];
}

/**
 * --dry-run: what a run would do, decided as a run decides it from the files already in DIR and
 * the state, without the lock, any request, or writing anything (DIR is not even created). The
 * listing of finished campaigns is a read, which a dry run shows and does not make: the campaigns
 * of the range that the state already knows stand for it (a real run may find more), and the
 * exports they need are recorded, not sent.
 */
export async function planSync(ctx: Context, o: SyncOptions): Promise<SyncPlan> {
  syncRange({ ...o, now: ctx.clock.now() });
  checkDir(o.dir, o.dirFlag);
  const state = loadState(o.dir);
  const range = syncRange({ ...o, highWater: state.highWater, now: ctx.clock.now() });
  const report: SyncReport = {
    dir: o.dir,
    range: { from: isoSecond(range.from), to: isoSecond(range.to), why: range.why },
    listed: 0, exports: 0, downloaded: 0, complete: 0, unchanged: 0, deferred: [], gone: [], failed: [], rows: [], waitedMs: 0,
  };
  const run: SyncRun = {
    ctx, client: await ctx.campaign(), dir: o.dir, state,
    save: async () => {},
    downloadSlot: slots(1),
    exportGate: async () => {},
    refreshFrom: o.refreshDays ? ctx.clock.now() - o.refreshDays * DAY_MS : undefined,
    linkTimeoutMs: o.linkTimeoutMs,
    progress: { downloading: 0, exports: 0, update: () => {} },
    fresh: new Set(),
  };
  const inRange = (c: CampaignRecord) => !c.goneAt && Date.parse(c.sentEndDate) >= range.from && Date.parse(c.sentEndDate) <= range.to;
  const known = await lookup(
    ctx,
    `the campaigns finished from ${report.range.from} to ${report.range.to}: each one not complete in ${forTerminal(o.dir, 200)} is exported and downloaded (here only those its state already knows)`,
    () => listInRange(run, range, report),
    () => [...state.campaigns].filter(([, c]) => inRange(c)).map(([sn]) => sn),
  );
  const plans = await planAll(run, campaignsToCheck(state, known), report);
  const work = plans.flatMap(({ sn, plan }) => {
    if (plan.kind !== 'work') return [];
    const rec = state.campaigns.get(sn)!;
    const recent = rec.exportedAt !== undefined && ctx.clock.now() - Date.parse(rec.exportedAt) < EXPORT_REPEAT_MS;
    return [{ sn, name: rec.name, finished: rec.sentEndDate, files: plan.types, export: !recent, refresh: plan.refresh }];
  });
  // The exports a run would request first, recorded by the client (then it waits for links and downloads).
  for (const w of work) if (w.export) await run.client.exportReport(w.sn);
  return { dir: o.dir, range: report.range, known: known.length, work, complete: report.complete, deferred: report.deferred, failed: report.failed };
}
