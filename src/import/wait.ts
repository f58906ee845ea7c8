// Waiting for an import to end (spec 000 endpoint 5). Every terminal status ends the wait
// (decisions row 13: COMPLETE succeeds; DUPLICATE_HEADER, ERROR, MISSING_REQUIRED_DATA fail), so a
// failed import never spins until the timeout. Polls back off from tuning.pollMinMs to
// pollMaxMs, well inside the 2 requests per second the client enforces anyway.
import path from 'node:path';
import type { Context } from '../run/context.js';
import { ServiceError } from '../core/errors.js';
import { pollUntil } from '../run/poll.js';
import { suggestWithNote } from '../core/suggest.js';
import { IMPORT_TERMINAL, type ImportResult } from '../api/campaign-types.js';

export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

const STATUS_WORDS: Record<string, string> = {
  UPLOADING: 'waiting for the file to arrive',
  PROCESSING: 'processing',
  COMPLETE: 'complete',
  DUPLICATE_HEADER: 'refused: duplicate column names',
  ERROR: 'failed',
  MISSING_REQUIRED_DATA: 'refused: required file missing',
};

export function statusWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

/**
 * What a failed terminal status means and what to do, as one error (exit 1). `saved`: where the
 * service's failure file went; `saveWith`: the command that saves it, when it was not asked for.
 */
export function failureFor(r: ImportResult, saved?: string, saveWith?: string, mergedInto?: string): ServiceError {
  const sn = r.importSn;
  switch (r.status) {
    case 'DUPLICATE_HEADER':
      return new ServiceError(`Import ${sn} was refused: the file has duplicate column names (DUPLICATE_HEADER), so nothing was imported.`, { hint: 'Rename or delete the repeated columns and import the file again.' });
    case 'MISSING_REQUIRED_DATA':
      return new ServiceError(`Import ${sn} was refused: the service is missing required data (MISSING_REQUIRED_DATA): the file never arrived, or it lacks the EMAIL and NAME columns.`, { hint: 'Check that the header starts with EMAIL,NAME and import the file again.' });
    default: {
      const file = mergedInto ? ` Its failure file's rows, which may say why, are in ${mergedInto} under your file's line numbers.` : saved ? ` Its failure file, saved to ${saved}, may say why.` : saveWith ? ` It left a failure file that may say why: ${saveWith}` : '';
      return new ServiceError(`Import ${sn} failed on the service (${r.status}); ${saved || saveWith ? 'its answer gives no reason' : 'it gives no reason'}, and nothing was imported.${file}`, { hint: `Check the file and import it again; if it keeps failing, contact the provider's support with the import code ${sn}.` });
    }
  }
}

/**
 * `carry`: the flags of this run that the resumed wait must repeat (--download-failures and its
 * file, --force), so the pasted line ends the way this run would have, failure file included.
 */
export function resumeHint(ctx: Context, importSn: string, carry: string[] = []): string {
  return `The import continues on the service. Resume waiting with: ${suggestWithNote(ctx, 'import', 'status', importSn, '--wait', ...carry)}`;
}

/** The flags a resumed wait repeats for --download-failures: the file as an absolute path (the line may run elsewhere), and --force. */
export function failuresFlags(failuresTo: string | undefined, force: boolean): string[] {
  if (failuresTo === undefined) return [];
  return ['--download-failures', ...(failuresTo ? [path.resolve(failuresTo)] : []), ...(force ? ['--force'] : [])];
}

export async function fetchImport(ctx: Context, importSn: string): Promise<ImportResult> {
  const client = await ctx.campaign();
  try {
    return await client.importResult(importSn);
  } catch (e) {
    if (e instanceof ServiceError && e.status === 400) {
      throw new ServiceError(`No import ${importSn} was found; the service keeps import results for 30 days.`, { status: 400, hint: 'Check the import code (it was printed when the import started).' });
    }
    throw e;
  }
}

export async function waitForImport(ctx: Context, importSn: string, timeoutMs: number, carry: string[] = []): Promise<ImportResult> {
  return pollUntil(ctx, () => fetchImport(ctx, importSn), (r) => IMPORT_TERMINAL.has(r.status), {
    label: `Import ${importSn}:`,
    describe: (r) => `${statusWords(r.status)}…`,
    timeoutMs,
    timeoutMessage: (r) => `Import ${importSn} was still ${r.status} after ${Math.round(timeoutMs / 1000)} s.`,
    resumeHint: resumeHint(ctx, importSn, carry),
    interruptedMessage: `Stopped waiting for import ${importSn}.`,
  });
}
