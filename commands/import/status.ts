import path from 'node:path';
import { refuseSymlink } from '../../src/fs/safe-write.js';
import { UsageError } from '../../src/cli/errors.js';
import { parseDuration } from '../../src/cli/duration.js';
import { DEFAULT_WAIT_TIMEOUT_MS, fetchImport, waitForImport } from '../../src/import/wait.js';
import { defaultFailuresPath } from '../../src/import/report.js';
import { finishImport } from './finish.js';
import { suggest } from '../../src/cli/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareStatus } from './index.js';

export const run: Verb<typeof declareStatus> = async (ctx, opts, importSn) => {
  const sn = importSn.trim();
  if (!sn) throw new UsageError('The import code is empty.', `Give the code printed when the import started: ${suggest(ctx, 'import', 'status', 'IMPORT_SN')}`);
  const timeoutMs = opts.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });
  if (typeof opts.downloadFailures === 'string') refuseSymlink(path.resolve(opts.downloadFailures), '--download-failures', opts.force);
  const result = opts.wait ? await waitForImport(ctx, sn, timeoutMs) : await fetchImport(ctx, sn);
  // Named after the code only once the service has answered for it (safeFileName then refuses
  // a code that cannot be a file name, or reduces it to one).
  const failuresTo = opts.downloadFailures === undefined ? undefined : typeof opts.downloadFailures === 'string' ? opts.downloadFailures : defaultFailuresPath(undefined, result.importSn);
  await finishImport(ctx, { result, failuresTo });
};
