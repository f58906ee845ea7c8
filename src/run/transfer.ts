// Files to and from hosts that are not the API (upload addresses, download links), with the
// run's transport, clock and Ctrl-C, and progress for a person watching. The transfer itself —
// keyless, streamed from disk with a Content-Length, retried with backoff, every hop checked —
// is src/api/files.ts; where links may point is decided here, once, for every transfer.
import fs from 'node:fs';
import type { Context } from './context.js';
import { downloadFile, hostOf, putFile, uploadHeaders, type LinkPolicy } from '../api/files.js';
import { isLoopbackUrl } from '../api/safe-link.js';
import { timedFetch, type FetchLike } from '../api/http.js';
import { maskUrl } from '../api/mask-url.js';
import { SANDBOX_BASE } from '../sandbox/constants.js';
import { bytes, bytesOf } from '../core/human.js';

/**
 * https: only; plain http: only when the campaign service itself is http: on this machine (the
 * sandbox served on loopback, tests), and then only to this machine. Under --sandbox the
 * emulator's own host is answered in this process.
 */
async function linkPolicy(ctx: Context): Promise<LinkPolicy> {
  const s = await ctx.settings();
  if (s.sandbox) return { allowLoopbackHttp: false, inProcessOrigin: new URL(SANDBOX_BASE).origin };
  return { allowLoopbackHttp: new URL(s.campaignUrl).protocol === 'http:' && isLoopbackUrl(s.campaignUrl) };
}

const UPLOAD_TYPE = 'text/csv; charset=utf-8';

/**
 * --dry-run: the upload a real run makes to the address the service's answer gives, which a dry
 * run never gets: recorded with the headers uploadFile sends, the address shown as `address`.
 * `file` is the file a real run uploads, or (when the dry run writes no such file) its size and
 * what it holds.
 */
export async function recordUpload(ctx: Context, address: string, file: string | { bytes: number; what: string }, contentType = UPLOAD_TYPE): Promise<void> {
  const size = typeof file === 'string' ? (await fs.promises.stat(file)).size : file.bytes;
  const body = typeof file === 'string' ? `(the ${size} bytes of ${file})` : `(${file.what})`;
  (await ctx.recorder()).add({ method: 'PUT', url: address, headers: uploadHeaders(size, contentType), body });
}

/** -v: the same masked trace lines as API calls, on stderr (src/api/mask-url.ts hides signatures). */
export function traceOf(ctx: Context): ((line: string) => void) | undefined {
  return ctx.globals.verbose ? (line) => ctx.io.error(ctx.io.paint('dim', line)) : undefined;
}

/**
 * The run's transport for requests to hosts that are not the API and carry no key (a webhook
 * consumer): under -v each request and its answer is traced, with its real duration.
 */
export async function keylessTransport(ctx: Context): Promise<FetchLike> {
  const inner = await ctx.transport();
  const trace = traceOf(ctx);
  if (!trace) return inner;
  const timed = timedFetch(inner, trace);
  return (input, init) => {
    // Read without building a Request: that would take a streamed body from the real call.
    const url = input instanceof Request ? input.url : String(input);
    const method = (input instanceof Request ? input.method : init?.method) ?? 'GET';
    trace(`→ ${method.toUpperCase()} ${maskUrl(url)}  no key`);
    return timed(input, init);
  };
}

/** PUTs a file to an upload address; returns its size. Errors are those of putFile. */
export async function uploadFile(ctx: Context, url: string, file: string, contentType = UPLOAD_TYPE): Promise<number> {
  const policy = await linkPolicy(ctx);
  const spin = await ctx.io.spinner('Uploading…');
  let size = 0;
  try {
    await putFile({
      fetch: await ctx.transport(),
      url, file, contentType, policy,
      clock: ctx.clock, signal: ctx.signal,
      retryBaseMs: ctx.tuning.retryBaseMs,
      trace: traceOf(ctx),
      stallMs: Math.max(ctx.tuning.timeoutMs, 30_000),
      onProgress: (sent, total) => {
        size = total;
        spin.text(`Uploading to ${hostOf(url)}: ${bytesOf(sent, total)} (${total ? Math.floor((sent / total) * 100) : 100}%)`);
      },
      onRetry: (attempt, reason) => ctx.io.warn(`Upload attempt ${attempt} failed (${reason}); trying again.`),
    });
    spin.succeed(`Uploaded ${bytes(size)}.`);
    return size;
  } finally {
    spin.stop();
  }
}

/**
 * GETs a download link into a file (no key; private, never through a symlink; see
 * downloadFile); returns the bytes written. `what` ("the failure file") must be safe to print.
 */
export async function download(ctx: Context, url: string, dest: string, o: { what: string; expiredHint: string; replace?: boolean; deadlineMs?: number }): Promise<number> {
  const policy = await linkPolicy(ctx);
  return downloadFile(await ctx.transport(), url, dest, { signal: ctx.signal, policy, stallMs: ctx.tuning.timeoutMs, trace: traceOf(ctx), ...o });
}
