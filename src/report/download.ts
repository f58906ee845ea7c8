// Report files (endpoint 17 links) saved to a directory as DIR/<code>_<type>.csv. The links
// point at file hosts, not the API, so they are fetched like every other file
// (src/run/transfer.ts): no x-api-key goes with them, every hop is checked, and each file is
// written privately beside its target and renamed into place. The report type is the service's
// word, so it becomes part of a path only through safeFileName.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../run/context.js';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { download } from '../run/transfer.js';
import type { ReportLink } from '../api/campaign-types.js';
import { safeFileName, uniqueSafeName } from '../fs/safe-name.js';
import { forTerminal } from '../core/sanitize.js';
import type { OutDir } from './out-dir.js';
import { plainSuggest, suggest, suggester, type Suggest } from '../core/suggest.js';
import { DiskError, isDiskProblem } from '../fs/append-whole.js';

export interface Saved {
  reportType: string;
  file: string;
  bytes: number;
}

/** Spec section 2: the report types of endpoint 17. */
export const REPORT_TYPES = ['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain'] as const;

export const reportFileName = (sn: string, reportType: unknown, cmd: Suggest = plainSuggest) => `${codeForFileName(sn, cmd)}_${safeFileName(reportType, 'report type')}.csv`;

/**
 * The campaign code the user typed, as the start of a file name; one that cannot be is refused
 * (exit 2). A code that had to change gets a suffix from the code (uniqueSafeName), so the files
 * of `a/b` and `a_b` in one --out-dir stay apart.
 */
function codeForFileName(sn: string, cmd: Suggest): string {
  try {
    return uniqueSafeName(sn, 'campaign code');
  } catch {
    throw new UsageError(`The campaign code "${forTerminal(sn, 60)}" cannot be part of a file name.`, `Campaign codes are letters and digits, such as CP0001; find them with \`${cmd('report', 'list')}\`.`);
  }
}

/** The files a run would save into --out-dir: one per report type the service makes. */
export function plannedFiles(ctx: Context, out: OutDir, sn: string): Array<{ reportType: string; file: string }> {
  const cmd = suggester(ctx);
  return REPORT_TYPES.map((t) => ({ reportType: t, file: path.join(out.dir, reportFileName(sn, t, cmd)) }));
}

/** Before an export is even requested: would --out-dir overwrite anything? */
export function checkOutDir(ctx: Context, out: OutDir, sn: string, force = false): void {
  // Checked before the export is requested: finding out after the wait would waste the export
  // (paced to 1 per 10 s) and break "exit 2: nothing was sent".
  refuseNonDirectory(out);
  const cmd = suggester(ctx);
  codeForFileName(sn, cmd);
  if (force) return;
  refuseExisting(REPORT_TYPES.map((t) => path.join(out.dir, reportFileName(sn, t, cmd))), out);
}

function refuseNonDirectory({ dir, flag }: OutDir): void {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new UsageError(`${dir} (${flag}) is a file, not a directory; the report files are saved into a directory.`, `Give a directory${flag === '--out-dir' ? ' with --out-dir DIR' : ''} (it is created if missing).`);
}

function refuseExisting(files: string[], { flag }: OutDir): void {
  // lstat: a symlink (even one pointing nowhere) at the name counts as something already there.
  const existing = files.filter((f) => fs.lstatSync(f, { throwIfNoEntry: false }));
  if (existing.length) throw new UsageError(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}.`, `Pass --force to overwrite, or choose another ${flag} directory.`);
}

/**
 * Saves each linked file into DIR; `timeoutMs`, the run's --timeout, bounds each download as a
 * whole, however steadily it comes.
 */
export async function downloadLinks(ctx: Context, sn: string, links: ReportLink[], out: OutDir, force = false, timeoutMs?: number): Promise<Saved[]> {
  const { dir } = out;
  refuseNonDirectory(out);
  const targets = links.filter((l) => l && typeof l === 'object').map((l) => ({ link: l, type: forTerminal(l.reportType, 40), file: path.join(dir, reportFileName(sn, l.reportType, suggester(ctx))) }));
  refuseSameName(ctx, sn, targets);
  // The links stay good for a while: once there is room, `report links` fetches them again
  // (the export is not requested again); --force because the files saved before stay.
  const again = (e: DiskError) => `${e.fix}, then save the files with: ${suggest(ctx, 'report', 'links', sn, '--out-dir', dir, '--force')}`;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    if (isDiskProblem(e)) {
      const disk = new DiskError(dir, e.code!);
      throw disk.withHint(again(disk));
    }
    throw new UsageError(`Cannot create the directory ${dir}: ${(e as Error).message}.`);
  }
  removeLeftParts(dir, targets.map((t) => t.file));
  if (!force) refuseExisting(targets.map((t) => t.file), out);
  const saved: Saved[] = [];
  const spin = await ctx.io.spinner('Downloading report files…');
  try {
    for (const { link, type, file } of targets) {
      spin.text(`Downloading ${type}…`);
      const bytes = await download(ctx, link.link, file, {
        what: `the ${type} file`,
        expiredHint: `Links expire; get fresh ones with \`${suggest(ctx, 'report', 'export', sn, '--wait')}\` (files already saved are kept; --force replaces them).`,
        // Checked above, and again as the file lands: one that appeared meanwhile is kept.
        replace: force,
        deadlineMs: timeoutMs,
      }).catch((e: unknown) => {
        if (!(e instanceof DiskError)) throw e;
        const kept = saved.length ? `${saved.map((x) => x.file).join(', ')} ${saved.length === 1 ? 'was' : 'were'} saved before. ` : '';
        throw e.withHint(`${kept}${again(e)}`);
      });
      saved.push({ reportType: String(link.reportType), file, bytes });
    }
  } finally {
    spin.stop();
  }
  return saved;
}

/**
 * What a run killed mid-download left beside these files: the temporary file each is written to
 * before it is renamed into place (src/fs/safe-write.ts, `.<name>.<12 hex>.part`). Only those exact
 * names, for these files: anything else in DIR is the user's.
 */
function removeLeftParts(dir: string, files: string[]): void {
  const bases = new Set(files.map((f) => path.basename(f)));
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\.(.+)\.[0-9a-f]{12}\.part$/.exec(name);
    if (m && bases.has(m[1])) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Two report types that come out as one file name (`delivery`, `/delivery`): neither is saved. */
function refuseSameName(ctx: Context, sn: string, targets: Array<{ type: string; file: string }>): void {
  const seen = new Map<string, string>();
  for (const t of targets) {
    const first = seen.get(t.file);
    if (first !== undefined) {
      throw new CliError(`The service listed the report types "${first}" and "${t.type}", which would both be saved as ${path.basename(t.file)}; nothing was downloaded.`, ExitCode.FAILED, `Get the links with \`${suggest(ctx, 'report', 'links', sn)}\` and fetch the files yourself.`, {
        code: 'BAD_RESPONSE',
        reached: 'yes',
        refused: false,
        retryable: false,
      });
    }
    seen.set(t.file, t.type);
  }
}
