import path from 'node:path';
import type { Context } from '../../src/run/context.js';
import { ExitCode, SilentExit, UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { suggest } from '../../src/core/suggest.js';
import { bytes, count, plural } from '../../src/core/human.js';
import { isoSecond, parseRefreshDays } from '../../src/report/sync/range.js';
import { planSync, runSync, type SyncOptions, type SyncPlan, type SyncReport } from '../../src/report/sync/sync.js';
import { outDirOf } from '../../src/report/out-dir.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareSync } from './index.js';

export const DEFAULT_WAIT_LOCK_MS = 10 * 60_000;

export const run: Verb<typeof declareSync> = async (ctx, opts, dir) => {
  // `report sync DIR` (as issue 22 writes it) is `report sync --out-dir DIR`; both is one too many.
  if (dir !== undefined && opts.outDir !== undefined) throw new UsageError(`The directory is given twice: "${forTerminal(dir, 200)}" and --out-dir "${forTerminal(opts.outDir, 200)}".`, 'Give it once, as DIR or as --out-dir DIR.');
  const out = outDirOf(opts, dir);
  // stderr is the cron log: each error line is dated and names the run, like the summary line.
  ctx.io.errorLead = () => `${logLead(ctx, out?.dir)} `;
  if (!out) throw new UsageError('report sync needs the directory it keeps complete (created if missing): report sync DIR, or --out-dir DIR.');
  const o: SyncOptions = {
    dir: out.dir,
    dirFlag: out.flag,
    since: opts.since,
    until: opts.until,
    refreshDays: parseRefreshDays(opts.refreshDays),
    waitLockMs: opts.waitLock === undefined ? 0 : opts.waitLock === true ? DEFAULT_WAIT_LOCK_MS : parseDuration(opts.waitLock, '--wait-lock', { positive: true }),
    linkTimeoutMs: opts.timeout === undefined ? 10 * 60_000 : parseDuration(opts.timeout, '--timeout', { positive: true }),
  };
  // A --timeout given bounds every API request of the run too, its answer read whole.
  if (opts.timeout !== undefined) ctx.limitRequestsTo(o.linkTimeoutMs);
  if (opts.dryRun) return printPlan(ctx, await planSync(ctx, o));
  const report = await runSync(ctx, o);
  const exitCode = exitCodeOf(report);
  const summary = summaryLine(ctx, report);
  if (ctx.io.json) {
    ctx.io.printJson({
      dir: report.dir,
      range: report.range,
      listed: report.listed,
      exports: report.exports,
      waitedForLockMs: report.waitedMs,
      campaigns: { downloaded: report.downloaded, alreadyComplete: report.complete, unchanged: report.unchanged, deferred: report.deferred, gone: report.gone, failed: report.failed },
      files: report.rows,
      metrics: report.metrics ?? null,
      dashboard: report.dashboard ?? null,
      exitCode,
      ...(exitCode ? { error: { code: exitCode === ExitCode.PARTIAL ? 'PARTIAL' : report.failed[0].code, message: summary, exitCode } } : {}),
    });
  } else {
    // Under cron (no terminal) the run is quiet: the summary line only; -v lists the files too.
    if (ctx.io.isTTY || ctx.globals.verbose) for (const r of report.rows) if (r.updated) ctx.io.out(path.join(report.dir, r.path));
    // A person watching gets a line per campaign the summary only counts; a log gets the summary.
    if (ctx.io.stderrTTY) for (const line of notes(report)) ctx.io.info(forTerminal(line, 2000));
    if (ctx.io.stderrTTY && report.dashboard) ctx.io.info(`Dashboard: ${forTerminal(report.dashboard, 500)}`);
  }
  if (exitCode) {
    ctx.io.error(summary);
    throw new SilentExit(exitCode);
  }
  // --json: the document says it all, and stderr stays empty on success.
  if (!ctx.io.json) ctx.io.info(summary);
};

/** The start of every line a run writes to its log: the time and the directory. */
function logLead(ctx: Context, dir: string | undefined): string {
  return `${isoSecond(ctx.clock.now())} report sync${dir ? ` ${forTerminal(dir, 200)}` : ''}:`;
}

/** A line for each campaign the summary counts as deferred or gone (names come from the service). */
function notes(r: Pick<SyncReport, 'dir' | 'deferred' | 'gone'>): string[] {
  return [
    ...r.deferred.map((d) => `${d.sn}: not re-exported yet — the service ignores a repeat export of a campaign within an hour; a run after ${d.until} refreshes it.`),
    ...r.gone.map((sn) => `${sn}: the service no longer knows this campaign (deleted?); it is not tried again. Files already saved stay in ${r.dir}.`),
  ];
}

/**
 * 0 every campaign complete · 5 some failed, others synced, or only the dashboard's metrics could
 * not be read · when every campaign that needed work failed: 4 if all for limits, network or
 * time-outs, else 1.
 */
export function exitCodeOf(r: SyncReport): number {
  if (!r.failed.length) return r.metrics?.error ? ExitCode.PARTIAL : ExitCode.OK;
  if (r.downloaded + r.unchanged > 0) return ExitCode.PARTIAL;
  return r.failed.every((f) => f.exitCode === ExitCode.LIMIT) ? ExitCode.LIMIT : ExitCode.FAILED;
}

function summaryLine(ctx: Context, r: SyncReport): string {
  const n = plural;
  const fresh = r.rows.filter((x) => x.updated);
  const size = bytes(fresh.reduce((s, x) => s + x.bytes, 0));
  const parts = [
    `${n(r.downloaded, 'campaign')} downloaded (${n(fresh.length, 'file')}, ${size})`,
    `${count(r.complete)} already complete`,
    r.unchanged ? `${count(r.unchanged)} unchanged at the service` : '',
    r.deferred.length ? `${count(r.deferred.length)} refresh deferred (the service takes one export of a campaign an hour; a run after ${earliest(r.deferred.map((d) => d.until))} refreshes the first)` : '',
    r.gone.length ? `${count(r.gone.length)} no longer known at the service (deleted?), not tried again` : '',
    r.failed.length ? `${count(r.failed.length)} failed: ${r.failed.map((f) => `${forTerminal(f.sn, 40)} (${forTerminal(f.message, 300)})`).join('; ')}` : '',
    r.metrics?.error ? `metrics not read (${forTerminal(r.metrics.error.message.replace(/\.$/, ''), 300)}; index.html shows the last ones read)` : '',
  ].filter(Boolean);
  const waited = r.waitedMs >= 1000 ? ` after waiting ${Math.round(r.waitedMs / 1000)} s for another run's lock` : '';
  return `${logLead(ctx, r.dir)} ${n(r.listed, 'finished campaign')} from ${r.range.from} to ${r.range.to}${waited}; ${parts.join(', ')}; ${n(r.exports, 'export')} requested.`;
}

function earliest(isoTimes: string[]): string {
  return isoSecond(Math.min(...isoTimes.map((t) => Date.parse(t))));
}

async function printPlan(ctx: Context, p: SyncPlan): Promise<void> {
  // The listing is not read in a dry run: `listed` is unknown, and the plan covers the campaigns DIR's state knows.
  const plan = { dir: p.dir, range: p.range, listed: null, known: p.known, work: p.work, alreadyComplete: p.complete, deferred: p.deferred, failed: p.failed };
  if (ctx.io.json) return printDryRun(ctx, plan);
  ctx.io.info(
    `Dry run: nothing listed, exported, downloaded or written. A run lists the campaigns finished from ${p.range.from} to ${p.range.to} (${p.range.why}) and syncs each one not complete in ${forTerminal(p.dir, 200)}; `
    + `of the ${p.known} its state already knows, ${p.complete} ${p.complete === 1 ? 'is' : 'are'} complete. \`${suggest(ctx, 'report', 'list', '--since', p.range.from, '--until', p.range.to)}\` shows what the listing holds.`,
  );
  for (const w of p.work) {
    ctx.io.out(`${forTerminal(w.sn, 40)}\t${forTerminal(w.name, 80)}\t${w.export ? (w.refresh ? 'refresh: export' : 'export') : 'no export (one within the hour)'}, then download ${w.files.join(', ')}`);
  }
  for (const line of notes({ ...p, gone: [] })) ctx.io.info(forTerminal(line, 2000));
  for (const f of p.failed) ctx.io.warn(`${forTerminal(f.sn, 40)}: ${forTerminal(f.message, 300)}`);
  await printDryRun(ctx);
}
