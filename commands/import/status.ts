import path from 'node:path';
import { UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { DEFAULT_WAIT_TIMEOUT_MS, failuresFlags, fetchImport, waitForImport } from '../../src/import/wait.js';
import { checkFailuresPath, defaultFailuresPath } from '../../src/import/report.js';
import { finishImport } from './finish.js';
import { pendingFor } from './service-rejects.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareStatus } from './index.js';

export const run: Verb<typeof declareStatus> = async (ctx, opts, importSn) => {
  const sn = importSn.trim();
  if (!sn) throw new UsageError('The import code is empty.', `Give the code printed when the import started: ${suggest(ctx, 'import', 'status', 'IMPORT_SN')}`);
  const timeoutMs = opts.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });
  // Each status request too is bounded by a --timeout given (a service that trickles its answer).
  if (opts.timeout !== undefined) ctx.limitRequestsTo(timeoutMs);
  // Before asking: the failure file's place must be free (or --force). Its default name comes
  // from the code, checked here with the code given (the service's own answer names it below).
  if (typeof opts.downloadFailures === 'string') checkFailuresPath(path.resolve(opts.downloadFailures), opts.force);
  else if (opts.downloadFailures) {
    const at = defaultFailuresPathOrNone(sn);
    if (at) checkFailuresPath(at, opts.force);
  }
  // A resumed wait saves the failure file too: the flag alone when no file was named (the same default).
  const carry = failuresFlags(typeof opts.downloadFailures === 'string' ? opts.downloadFailures : opts.downloadFailures ? '' : undefined, !!opts.force);
  const result = opts.wait ? await waitForImport(ctx, sn, timeoutMs, carry) : await fetchImport(ctx, sn);
  // Named after the code only once the service has answered for it (safeFileName then refuses
  // a code that cannot be a file name, or reduces it to one).
  const failuresTo = opts.downloadFailures === undefined ? undefined : typeof opts.downloadFailures === 'string' ? opts.downloadFailures : defaultFailuresPath(undefined, result.importSn);
  // An import this machine started keeps its rejects file and line map until it ends: the rows
  // the service refused join the rejects file now, when `import` did not wait for them.
  await finishImport(ctx, { result, failuresTo, force: !!opts.force, pending: await pendingFor(ctx, result.importSn) });
};

/** The default failure file for a code given by the user; '' (nothing to check) for one that cannot be a file name. */
function defaultFailuresPathOrNone(sn: string): string {
  try {
    return defaultFailuresPath(undefined, sn);
  } catch {
    return '';
  }
}
