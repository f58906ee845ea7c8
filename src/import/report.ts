// What an import tells the operator: the local check (rows read, valid, rejected by reason),
// the service's result (spec section 2 Import fields), and the failure file when asked for.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../run/context.js';
import type { ImportResult } from '../api/campaign-types.js';
import { download } from '../run/transfer.js';
import { safeFileName } from '../fs/safe-name.js';
import { refuseSymlink } from '../fs/safe-write.js';
import { DiskError } from '../fs/append-whole.js';
import { UsageError } from '../core/errors.js';
import { printRecord, type Field } from '../run/output/format.js';
import { bytes, count as n } from '../core/human.js';
import { REASON_LABEL, type RejectReason } from './rejects.js';
import type { ValidationResult } from './validate.js';
import { suggest } from '../core/suggest.js';

/** The local counts as the JSON document carries them. */
export function localJson(v: ValidationResult) {
  return { read: v.read, valid: v.valid, rejected: v.rejected, blankLines: v.blank, rejectedBy: v.reasons, encoding: v.encoding };
}

/** Lines for stderr after the check: counts, reasons, where the rejected rows are. */
export function localSummary(v: ValidationResult, source: string): string[] {
  const lines = [`Checked ${source}: ${n(v.read)} row${v.read === 1 ? '' : 's'} read, ${n(v.valid)} valid, ${n(v.rejected)} rejected.`];
  const reasons = Object.entries(v.reasons) as Array<[RejectReason, number]>;
  if (reasons.length) lines.push(`  Rejected: ${reasons.map(([r, c]) => `${n(c)} ${REASON_LABEL[r]}`).join(', ')}.`);
  if (v.rejectsPath) lines.push(`  Rejected rows, with line numbers and reasons: ${v.rejectsPath}`);
  if (v.blank) lines.push(`  ${n(v.blank)} blank line${v.blank === 1 ? '' : 's'} skipped.`);
  return lines;
}

const COUNT = 'count' as const;

export function resultPairs(r: ImportResult): Field[] {
  return [
    ['Import', r.importSn],
    ['Status', r.status],
    ['Rows in file', r.fileCnt, COUNT],
    ['Inserted or updated', r.insertCnt, COUNT],
    ['Duplicates', r.duplicateCnt, COUNT],
    ['Errors', r.errCnt, COUNT],
    ['Failure file', r.errorDownloadLink ?? 'none'],
  ];
}

/** Prints the service's result: key/value lines on stdout, or the JSON document. */
export async function printResult(ctx: Context, pairs: Field[], json: unknown): Promise<void> {
  await printRecord(ctx.io, pairs.filter(([, v]) => v !== undefined && v !== ''), json);
}

/** Rows that reached the service but were not imported, by its own count. */
export function serviceRejected(r: ImportResult): number {
  const said = (r.errCnt ?? 0) + (r.duplicateCnt ?? 0);
  // Rows in the file the service neither imported nor counted as refused are not imported
  // either: an answer without errCnt (or with counts that do not add up) is not "all in".
  const missing = r.fileCnt != null && r.insertCnt != null ? r.fileCnt - r.insertCnt : 0;
  return Math.max(said, missing);
}

/**
 * Before anything is sent: where the failure file goes must be free. An existing file is kept
 * unless --force (like report downloads and template --out); a symlink is refused unless --force,
 * and even then replaced, never written through; a folder is refused.
 */
export function checkFailuresPath(file: string, force: boolean | undefined): void {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isDirectory()) throw new UsageError(`The failure file ${file} (--download-failures) is a folder.`, 'Name a file: --download-failures FILE.');
  refuseSymlink(file, '--download-failures', force);
  if (!force) throw new UsageError(`The failure file ${file} (--download-failures) already exists.`, 'Pass --force to overwrite it, or name another file: --download-failures FILE.');
}

/**
 * --download-failures: saves the service's failure file (no key is sent: decisions row 12),
 * exactly as the service sent it. Without `force` nothing already at `dest` is replaced: a file
 * there (its name known only now, from the service's import code) is kept, and the failure file
 * is not saved, with a warning saying how to save it elsewhere.
 */
export async function downloadFailures(ctx: Context, r: ImportResult, dest: string, force = false): Promise<string | undefined> {
  if (!r.errorDownloadLink) {
    ctx.io.info('The service produced no failure file for this import (no row failed there).');
    return undefined;
  }
  const file = path.resolve(dest);
  if (!force && fs.lstatSync(file, { throwIfNoEntry: false })) {
    ctx.io.warn(`${file} already exists, so the service's failure file was not saved (nothing was overwritten). Save it with: ${suggest(ctx, 'import', 'status', r.importSn, '--download-failures', 'FILE')}`);
    return undefined;
  }
  const again = suggest(ctx, 'import', 'status', r.importSn, '--download-failures', file, ...(force ? ['--force'] : []));
  const size = await download(ctx, r.errorDownloadLink, file, { what: 'the failure file', expiredHint: `Links expire; run \`${again}\` for a fresh one and the file.`, replace: force }).catch((e: unknown) => {
    // The import itself is done at the service: running it again would import again. Only the file is missing.
    if (e instanceof DiskError) throw e.withHint(`The import is done at the service; only its failure file is not saved. ${e.fix}, then save it with: ${again}`);
    throw e;
  });
  ctx.io.info(`Saved the service's failure file (${bytes(size)}) to ${file}`);
  return file;
}

/**
 * `contacts.csv` → `contacts.failures.csv` beside it; no input file → `import-SN.failures.csv`
 * here, the code (the service's answer) reduced to a safe file name first: a code such as
 * `x/../../tmp/evil` must not reach outside this folder.
 */
export function defaultFailuresPath(input: string | undefined, importSn: string): string {
  if (!input || input === '-') return path.resolve(`import-${safeFileName(importSn, 'import code')}.failures.csv`);
  return path.join(path.dirname(path.resolve(input)), `${path.basename(input).replace(/\.(csv|txt|tsv)$/i, '')}.failures.csv`);
}
