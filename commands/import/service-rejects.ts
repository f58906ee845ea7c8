// The import's end, for the rows the service refused: their failure file is fetched (keyless,
// decisions row 12) — or the copy --download-failures just saved is read — and its rows go into
// the one rejects file under the lines of the user's file (src/import/service-rejects.ts). What
// that needs is kept from the upload on (src/import/pending.ts), so `import status` can do it
// for an import that ended after `import` stopped waiting.
import path from 'node:path';
import type { Context } from '../../src/run/context.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { ImportResult } from '../../src/api/campaign-types.js';
import { download } from '../../src/run/transfer.js';
import { suggest, suggestWithNote } from '../../src/core/suggest.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { ImportWorkDir } from '../../src/import/work-dir.js';
import { dropPending, loadPending, savePending, type PendingImport } from '../../src/import/pending.js';
import { mergeServiceRejects } from '../../src/import/service-rejects.js';

export interface Merged {
  path: string;
  /** Rows of the service's failure file now in the rejects file. */
  merged: number;
  /** Of those, rows whose line in the upload could not be mapped to a line of the input. */
  unmapped: number;
}

/** Which campaign service an import record belongs to (the in-process sandbox is its own). */
async function serviceOf(ctx: Context): Promise<string> {
  const s = await ctx.settings();
  return s.sandbox ? 'sandbox' : s.campaignUrl;
}

/** Keeps what the end of the import needs; a failure to keep it costs only the merge, so it is a warning. */
export async function keepPending(ctx: Context, p: Omit<PendingImport, 'service'>): Promise<PendingImport> {
  const pending = { ...p, service: await serviceOf(ctx) };
  try {
    await savePending(ctx.configDir, pending, ctx.clock.now());
  } catch (e) {
    ctx.io.warn(`Could not keep the line map of import ${forTerminal(p.importSn, 80)} (${(e as Error).message}); if this run stops waiting, \`import status\` cannot add the rows the service refuses to ${p.rejectsPath}.`);
  }
  return pending;
}

export async function pendingFor(ctx: Context, importSn: string): Promise<PendingImport | undefined> {
  return loadPending(ctx.configDir, importSn, await serviceOf(ctx));
}

/** Nothing is left to merge (the import ended without refused rows). */
export async function forgetPending(ctx: Context, importSn: string): Promise<void> {
  await dropPending(ctx.configDir, importSn).catch(() => {});
}

/**
 * The import ended with rows the service refused and a failure file: its rows into the rejects
 * file. Returns what was merged, or undefined (with a warning that says how to get the rows)
 * when it could not be: the import's result and exit code stand either way.
 */
export async function mergeFromService(ctx: Context, r: ImportResult, pending: PendingImport, saved?: string): Promise<Merged | undefined> {
  const sn = r.importSn;
  let work: ImportWorkDir | undefined;
  try {
    let file = saved;
    if (!file) {
      work = await ImportWorkDir.create(ctx.configDir);
      file = path.join(work.path, 'failures.csv');
      await download(ctx, r.errorDownloadLink!, file, { what: 'the failure file', expiredHint: `Links expire; \`${suggest(ctx, 'import', 'status', sn)}\` fetches a fresh one.`, replace: true });
    }
    const dir = work;
    const out = await mergeServiceRejects({ failureFile: file, rejectsPath: pending.rejectsPath, header: pending.header, lineMap: pending.lineMap, onTemp: dir ? (tmp) => dir.own(tmp) : undefined });
    if ('notMerged' in out) {
      ctx.io.warn(`The service's failure file was not added to the rejects file: ${forTerminal(out.notMerged, 300)}. Save it as the service sent it with: ${suggest(ctx, 'import', 'status', sn, '--download-failures', 'FILE')}`);
      await forgetPending(ctx, sn);
      return undefined;
    }
    await forgetPending(ctx, sn);
    if (out.unmapped) ctx.io.warn(`${out.unmapped} of the service's rows name a line the upload did not have; they are at the end of ${out.path} with the line the service gave.`);
    return out;
  } catch (e) {
    if (e instanceof InterruptedError) throw e;
    ctx.io.warn(`The rows the service refused could not be added to ${pending.rejectsPath} (${forTerminal((e as Error).message, 300)}); try again with: ${suggestWithNote(ctx, 'import', 'status', sn)}`);
    return undefined;
  } finally {
    await work?.remove();
  }
}
