import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { parseDuration } from '../../src/cli/duration.js';
import { DEFAULT_WAIT_TIMEOUT_MS, fetchImport, waitForImport } from '../../src/import/wait.js';
import { defaultFailuresPath } from '../../src/import/report.js';
import { finishImport } from './finish.js';

interface Opts {
  wait?: boolean;
  timeout?: string;
  downloadFailures?: boolean | string;
}

export async function run(ctx: Context, opts: Opts, importSn: string): Promise<void> {
  const sn = importSn.trim();
  if (!sn) throw new UsageError('The import code is empty.', 'Give the code printed when the import started: mailctl import status IMPORT_SN');
  const timeoutMs = opts.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });
  const failuresTo = opts.downloadFailures === undefined ? undefined : typeof opts.downloadFailures === 'string' ? opts.downloadFailures : defaultFailuresPath(undefined, sn);
  const result = opts.wait ? await waitForImport(ctx, sn, timeoutMs) : await fetchImport(ctx, sn);
  await finishImport(ctx, { result, failuresTo });
}
