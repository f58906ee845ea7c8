// Files to and from hosts that are not the API (upload addresses, download links), with the
// run's transport, clock and Ctrl-C, and progress for a person watching. The transfer itself —
// keyless, streamed from disk with a Content-Length, retried with backoff — is src/api/files.ts.
import type { Context } from './context.js';
import { downloadFile, hostOf, putFile } from '../api/files.js';

const mb = (b: number) => (b / 1048576).toFixed(1);

/** PUTs a file to an upload address; returns its size. Errors are those of putFile. */
export async function uploadFile(ctx: Context, url: string, file: string, contentType = 'text/csv; charset=utf-8'): Promise<number> {
  const spin = await ctx.io.spinner('Uploading…');
  let size = 0;
  try {
    await putFile({
      fetch: await ctx.transport(),
      url, file, contentType,
      clock: ctx.clock, signal: ctx.signal,
      retryBaseMs: ctx.tuning.retryBaseMs,
      stallMs: Math.max(ctx.tuning.timeoutMs, 30_000),
      onProgress: (sent, total) => {
        size = total;
        spin.text(`Uploading to ${hostOf(url)}: ${mb(sent)} of ${mb(total)} MB (${total ? Math.floor((sent / total) * 100) : 100}%)`);
      },
      onRetry: (attempt, reason) => ctx.io.warn(`Upload attempt ${attempt} failed (${reason}); trying again.`),
    });
    spin.succeed(`Uploaded ${mb(size)} MB.`);
    return size;
  } finally {
    spin.stop();
  }
}

/** GETs a download link into a file (no key); returns the bytes written. */
export async function download(ctx: Context, url: string, dest: string, o: { what: string; expiredHint: string }): Promise<number> {
  return downloadFile(await ctx.transport(), url, dest, { signal: ctx.signal, ...o });
}
