// Report files (endpoint 17 links) saved to a directory. The links point at file hosts, not the
// API, so they are fetched like every other file (src/cli/transfer.ts): no x-api-key goes with them.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { download } from '../cli/transfer.js';
import type { ReportLink } from '../api/campaign-types.js';

export interface Saved {
  reportType: string;
  file: string;
  bytes: number;
}

/** Spec section 2: the report types of endpoint 17. */
export const REPORT_TYPES = ['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain'] as const;

export const reportFileName = (sn: string, reportType: string) => `${safe(sn)}_${safe(reportType)}.csv`;

/** Before an export is even requested: would --out overwrite anything? */
export function checkOutDir(dir: string, sn: string, force = false): void {
  // Checked before the export is requested: finding out after the wait would waste the export
  // (paced to 1 per 10 s) and break "exit 2: nothing was sent".
  refuseNonDirectory(dir);
  if (force) return;
  refuseExisting(REPORT_TYPES.map((t) => path.join(dir, reportFileName(sn, t))));
}

function refuseNonDirectory(dir: string): void {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new UsageError(`--out ${dir} is a file, not a directory; the report files are saved into a directory.`, 'Give a directory with --out DIR (it is created if missing).');
}

function refuseExisting(files: string[]): void {
  const existing = files.filter((f) => fs.existsSync(f));
  if (existing.length) throw new UsageError(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}.`, 'Pass --force to overwrite, or choose another --out directory.');
}

export async function downloadLinks(ctx: Context, sn: string, links: ReportLink[], dir: string, force = false): Promise<Saved[]> {
  refuseNonDirectory(dir);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`Cannot create the directory ${dir}: ${(e as Error).message}.`);
  }
  const targets = links.map((l) => ({ link: l, file: path.join(dir, reportFileName(sn, l.reportType)) }));
  if (!force) refuseExisting(targets.map((t) => t.file));
  const saved: Saved[] = [];
  const spin = await ctx.io.spinner('Downloading report files…');
  try {
    for (const { link, file } of targets) {
      spin.text(`Downloading ${link.reportType}…`);
      const bytes = await download(ctx, link.link, file, {
        what: `the ${link.reportType} file`,
        expiredHint: `Links expire; get fresh ones with \`mailctl report export ${sn} --wait\` (files already saved are kept; --force replaces them).`,
      });
      saved.push({ reportType: link.reportType, file, bytes });
    }
  } finally {
    spin.stop();
  }
  return saved;
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_');
}
