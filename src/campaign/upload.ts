// The one-time list goes to the address the service handed back (endpoints 8/10 `preSignedUrl`)
// with a plain HTTP PUT through ctx.transport(): that host is not the API, so no x-api-key or
// other service header goes with it (GAPS row 12).
import fs from 'node:fs';
import type { Context } from '../cli/context.js';
import { LimitError, ServiceError } from '../cli/errors.js';

export async function putListFile(ctx: Context, url: string, file: string, sn: string): Promise<number> {
  const body = fs.readFileSync(file);
  const fetchFn = await ctx.transport();
  const hint = `The campaign ${sn} exists but has no list; delete it with \`mailctl campaign delete ${sn}\` and create it again.`;
  let res: Response;
  try {
    res = await fetchFn(url, { method: 'PUT', body, headers: { 'content-type': 'text/csv' }, signal: ctx.signal });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    throw new LimitError(`Uploading the list ${file} failed: ${(e as Error).message}.`, hint);
  }
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new ServiceError(`The upload address refused the list ${file} (HTTP ${res.status}).`, { status: res.status, hint });
  return body.length;
}
