import { UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { printList } from '../../src/run/output/format.js';
import { checkOutDir, downloadLinks, plannedFiles } from '../../src/report/download.js';
import { lookup, printDryRun } from '../../src/run/output/dry-run.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { outDirOf } from '../../src/report/out-dir.js';
import { LINK_COLUMNS, printSaved } from './export.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareLinks } from './index.js';

/** How long one report file may take to download, whole, without --timeout. */
const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

export const run: Verb<typeof declareLinks> = async (ctx, opts, sn) => {
  const out = outDirOf(opts);
  if (opts.timeout !== undefined && !out) throw new UsageError('--timeout only applies with --out-dir (it bounds each download).', `Add --out-dir DIR to download the files, or leave --timeout out: ${suggest(ctx, 'report', 'links', sn, '--out-dir', 'DIR', '--timeout', opts.timeout)}`);
  const timeoutMs = opts.timeout === undefined ? DEFAULT_DOWNLOAD_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });
  if (opts.timeout !== undefined) ctx.limitRequestsTo(timeoutMs);
  const client = await ctx.campaign();
  if (opts.dryRun) {
    // The folder is checked as a run would (a file, or files there without --force: exit 2); the
    // links are not read, so the files are the six report types, downloaded and written by no one.
    if (out) checkOutDir(ctx, out, sn, opts.force);
    await lookup(ctx, `the links of ${sn}'s report files${out ? ', which a real run then downloads' : ''}`, () => client.reportLinks(sn), () => []);
    const files = out ? plannedFiles(ctx, out, sn) : [];
    if (!ctx.io.json && out) {
      ctx.io.info(`Dry run: nothing read, downloaded or written. A real run gets the links, then saves each file into ${forTerminal(out.dir, 300)} (created if missing), without the API key:`);
      for (const f of files) ctx.io.out(forTerminal(f.file, 400));
    }
    return printDryRun(ctx, out ? { downloads: files.map((f) => ({ ...f, from: '(its link, from the lookup)' })) } : {});
  }
  const links = await client.reportLinks(sn);
  const empty = `No report files for ${sn} yet; request them with \`${suggest(ctx, 'report', 'export', sn, '--wait')}\`.`;
  if (out) {
    // An empty list is still a header: of the files saved, none.
    await printSaved(ctx, sn, links.length ? await downloadLinks(ctx, sn, links, out, opts.force, timeoutMs) : [], empty);
    return;
  }
  await printList(ctx.io, links, LINK_COLUMNS, links, { empty });
};
