import type { Context } from '../../src/run/context.js';
import type { ReportLink } from '../../src/api/campaign-types.js';
import { pollUntil } from '../../src/run/poll.js';
import { parseDuration } from '../../src/core/duration.js';
import { checkUrl } from '../../src/core/url.js';
import { checkOutDir, downloadLinks, type Saved } from '../../src/report/download.js';
import { LINK_CELL_MAX, printList, type Column } from '../../src/run/output/format.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { outDirOf } from '../../src/report/out-dir.js';
import { envNote, suggest, suggestWithNote } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareExport } from './index.js';

// Endpoint 16 starts the export (decisions row 7: any 2xx means accepted; its body is not shown),
// then endpoint 17 is polled until links appear. The client paces exports to 1 per 10 s.
export const run: Verb<typeof declareExport> = async (ctx, opts, sn) => {
  if (opts.webhookUrl !== undefined) opts.webhookUrl = checkUrl(opts.webhookUrl, { name: '--webhook-url', example: 'https://hooks.example.com/report' });
  const timeoutMs = opts.timeout === undefined ? 10 * 60_000 : parseDuration(opts.timeout, '--timeout', { positive: true });
  if (opts.timeout !== undefined) ctx.limitRequestsTo(timeoutMs);
  const out = outDirOf(opts);
  if (out) checkOutDir(ctx, out, sn, opts.force);
  const client = await ctx.campaign();
  const requestedAt = ctx.clock.now();
  await client.exportReport(sn, opts.webhookUrl);
  if (opts.dryRun) return printDryRun(ctx);
  if (!opts.wait && !out) {
    if (ctx.io.json) ctx.io.printJson({ sn, exportRequested: true, webhookUrl: opts.webhookUrl ?? null });
    else ctx.io.info(`Export of ${sn} requested. The files take a while; get their links with \`${suggest(ctx, 'report', 'links', sn)}\`${envNote(ctx)} (or run this with --wait).`);
    if (!ctx.io.json && !ctx.io.isTTY) ctx.io.out(sn);
    return;
  }
  const links = await pollUntil(ctx, () => client.reportLinks(sn), (l) => l.length > 0, {
    label: `Waiting for the report files of ${sn}…`,
    timeoutMs,
    timeoutMessage: () => `The report files of ${sn} were not ready after ${opts.timeout ?? '10m'}.`,
    resumeHint: `The export goes on at the service; get the files later with: ${suggestWithNote(ctx, 'report', 'links', sn, ...(out ? ['--out-dir', out.dir] : []))}`,
    interruptedMessage: `Stopped waiting for the report files of ${sn}.`,
  });
  // "Re-export regenerates files only when new data exists; otherwise the earlier files are reused."
  const newest = Math.max(...links.map((l) => Date.parse(l.createdDate ?? '') || 0));
  if (newest && newest < requestedAt - 60_000) ctx.io.info(`These files were made at ${new Date(newest).toISOString()}: the service reuses earlier files when there is no new data (and ignores a repeat export within an hour).`);
  // --timeout bounds each download too, however steadily a file trickles in.
  if (out) await printSaved(ctx, sn, await downloadLinks(ctx, sn, links, out, opts.force, timeoutMs));
  else await printLinks(ctx, links);
};

/** The report files' links (report links, report export --wait). */
export const LINK_COLUMNS: Column<ReportLink>[] = [
  { header: 'TYPE', value: (l) => l.reportType },
  { header: 'CREATED', value: (l) => l.createdDate, kind: 'date' },
  { header: 'LINK', value: (l) => l.link, max: LINK_CELL_MAX },
];

async function printLinks(ctx: Context, links: ReportLink[]): Promise<void> {
  await printList(ctx.io, links, LINK_COLUMNS);
}

const SAVED_COLUMNS: Column<Saved>[] = [
  { header: 'TYPE', value: (s) => s.reportType },
  { header: 'FILE', value: (s) => s.file },
  { header: 'BYTES', value: (s) => s.bytes, kind: 'count' },
];

/** The files saved into --out-dir, as a list (a header and one row a file piped; {sn, files} under --json). */
export async function printSaved(ctx: Context, sn: string, saved: Saved[], empty?: string): Promise<void> {
  await printList(ctx.io, saved, SAVED_COLUMNS, { sn, files: saved }, { empty });
  if (saved.length && !ctx.io.json) ctx.io.info(`Saved ${saved.length} report file${saved.length === 1 ? '' : 's'} of ${sn}.`);
}
