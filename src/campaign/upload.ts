// The one-time list goes to the address the service handed back (endpoints 8/10 `preSignedUrl`)
// the same way an import file does (src/run/transfer.ts): keyless, streamed, retried.
import type { Context } from '../run/context.js';
import { CliError } from '../core/errors.js';
import { uploadFile } from '../run/transfer.js';
import { suggest } from '../core/suggest.js';

export async function putListFile(ctx: Context, url: string, file: string, sn: string): Promise<number> {
  try {
    return await uploadFile(ctx, url, file);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    const hint = `The campaign ${sn} exists but has no list; delete it with \`${suggest(ctx, 'campaign', 'delete', sn, '--yes')}\` and create it again.`;
    throw new CliError(`Uploading the list ${file} failed: ${e.message}`, e.exitCode, hint, e.facts);
  }
}
