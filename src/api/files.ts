// Moving files to and from hosts that are not the API: the import upload address (HTTP PUT,
// spec 000 endpoint 3) and download links (failure files). These requests go through the plain
// transport with no x-api-key or service header (decisions row 12): such hosts are not the API, and a
// pre-signed address needs no key. URLs are never printed whole: their query strings are the
// signature.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Clock } from '../cli/clock.js';
import { InterruptedError, LimitError, ServiceError } from '../cli/errors.js';
import type { FetchLike } from './http.js';

export interface PutFileOptions {
  fetch: FetchLike;
  url: string;
  file: string;
  contentType?: string;
  clock: Clock;
  signal?: AbortSignal;
  /** Attempts after the first. The PUT is idempotent: sending the same file again is harmless. */
  retries?: number;
  retryBaseMs: number;
  /** Give up on an attempt when no byte moves and no answer comes for this long. */
  stallMs: number;
  onProgress?(sent: number, total: number): void;
  /** Told before each retry, with the reason. */
  onRetry?(attempt: number, reason: string): void;
}

class RetryableUpload extends Error {}

/** Where a URL points, without path or query (safe to print). */
export function hostOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the upload address';
  }
}

/**
 * PUTs a file from disk, streaming with a Content-Length (pre-signed storage addresses refuse
 * chunked uploads), retrying with backoff. Memory stays flat whatever the size.
 */
export async function putFile(o: PutFileOptions): Promise<void> {
  const total = (await fs.promises.stat(o.file)).size;
  const retries = o.retries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      await putOnce(o, total);
      return;
    } catch (e) {
      if (o.signal?.aborted) throw new InterruptedError('Interrupted during the upload.');
      if (!(e instanceof RetryableUpload)) throw e;
      if (attempt >= retries) {
        throw new LimitError(`Uploading the file to ${hostOf(o.url)} failed ${attempt + 1} times (${e.message}).`, 'Check the network and run the import again; a new upload address is issued each time.');
      }
      o.onRetry?.(attempt + 1, e.message);
      const delay = o.retryBaseMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await o.clock.sleep(Math.min(delay, 30_000), o.signal).catch(() => {
        throw new InterruptedError('Interrupted during the upload.');
      });
    }
  }
}

async function putOnce(o: PutFileOptions, total: number): Promise<void> {
  const ac = new AbortController();
  const onAbort = () => ac.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      ac.abort();
    }, o.stallMs);
  };
  let sent = 0;
  const source = fs.createReadStream(o.file, { highWaterMark: 256 * 1024 });
  async function* chunks() {
    for await (const c of source) {
      sent += c.length;
      arm();
      o.onProgress?.(sent, total);
      yield c as Buffer;
    }
  }
  arm();
  try {
    const headers = { 'content-type': o.contentType ?? 'text/csv', 'content-length': String(total) };
    const res =
      o.fetch === globalThis.fetch
        ? await nodePut(o.url, chunks(), headers, ac.signal)
        : await fetchPut(o.fetch, o.url, chunks(), headers, ac.signal);
    clearTimeout(timer);
    if (res.status >= 200 && res.status < 300) return;
    const text = res.text;
    const detail = `HTTP ${res.status}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
    if (res.status >= 500 || res.status === 408 || res.status === 429) throw new RetryableUpload(detail);
    throw new ServiceError(`The upload address at ${hostOf(o.url)} refused the file (${detail}).`, {
      status: res.status,
      hint: 'Upload addresses expire; run the import again to get a fresh one.',
    });
  } catch (e) {
    if (e instanceof ServiceError || e instanceof RetryableUpload) throw e;
    if (o.signal?.aborted) throw new InterruptedError('Interrupted during the upload.');
    if (stalled) throw new RetryableUpload(`no progress for ${Math.round(o.stallMs / 1000)} s`);
    throw new RetryableUpload(networkReason(e));
  } finally {
    clearTimeout(timer);
    source.destroy();
    o.signal?.removeEventListener('abort', onAbort);
  }
}

interface PutAnswer {
  status: number;
  text: string;
}

/**
 * The real network: node:http(s), piped from disk. Node 20's fetch reads a streamed request
 * body far ahead of the socket (measured: a 478 MB upload took 552 MiB of memory through fetch,
 * 88 MiB through node:http), so it is kept for the in-process sandbox and test transports only.
 * Like fetch, this sends only the headers given here: never a key.
 */
function nodePut(url: string, body: AsyncIterable<Buffer>, headers: Record<string, string>, signal: AbortSignal): Promise<PutAnswer> {
  return new Promise<PutAnswer>((resolve, reject) => {
    const u = new URL(url);
    const request = u.protocol === 'https:' ? https.request : http.request;
    const req = request(u, { method: 'PUT', headers, signal }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (text.length < 1000) text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    // Byte mode: at most one chunk waits between the disk and the socket.
    pipeline(Readable.from(body, { objectMode: false }), req).catch(reject);
  });
}

/** Any other transport (the in-process sandbox of --sandbox, tests): fetch with a stream body. */
async function fetchPut(fetchFn: FetchLike, url: string, body: AsyncIterable<Buffer>, headers: Record<string, string>, signal: AbortSignal): Promise<PutAnswer> {
  const res = await fetchFn(url, {
    method: 'PUT',
    body: Readable.toWeb(Readable.from(body)) as unknown as ReadableStream,
    headers,
    signal,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, text: await res.text().catch(() => '') };
}

function networkReason(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return (e as Error)?.message ?? String(e);
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** What the link holds, for messages: "the failure file". */
  what: string;
  /** How to get a fresh link when this one has expired. */
  expiredHint: string;
}

/** GETs a download link (no key) into a file, via a .part file; returns the bytes written. */
export async function downloadFile(fetchFn: FetchLike, url: string, dest: string, o: DownloadOptions): Promise<number> {
  const signal = o.signal;
  let res: Response;
  try {
    res = await fetchFn(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw new InterruptedError();
    throw new LimitError(`Cannot download ${o.what} from ${hostOf(url)} (${networkReason(e)}).`, 'Check the network and try again.');
  }
  if (!res.ok || !res.body) {
    await res.text().catch(() => '');
    throw new ServiceError(`The link to ${o.what} at ${hostOf(url)} answered HTTP ${res.status}.`, { status: res.status, hint: o.expiredHint });
  }
  const tmp = `${dest}.part`;
  await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream), fs.createWriteStream(tmp, { mode: 0o600 }));
  await fs.promises.rename(tmp, dest);
  return (await fs.promises.stat(dest)).size;
}
