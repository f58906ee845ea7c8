// Moving files to and from hosts that are not the API: the import upload address (HTTP PUT,
// spec 000 endpoint 3) and download links (failure files, report files). These requests go
// through the plain transport with no x-api-key or service header (decisions row 12): such hosts
// are not the API, and a pre-signed address needs no key. Every hop — the address the service
// gave and each redirect, followed here by hand, at most MAX_REDIRECTS — is checked by
// src/api/safe-link.ts before mailctl connects. URLs are never printed whole: their query
// strings are the signature (the -v trace masks them: src/api/mask-url.ts).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Clock } from '../core/clock.js';
import { CliError, ExitCode, InterruptedError, LimitError, ServiceError, type ErrorFacts } from '../core/errors.js';
import { createTempBeside, renameNoReplace } from '../fs/safe-write.js';
import { writeAll } from '../fs/write-all.js';
import { asDiskError, DiskError } from '../fs/append-whole.js';
import { forTerminal } from '../core/sanitize.js';
import { classify, transportCause, type Outcome } from './classify.js';
import type { FetchLike } from './http.js';
import { checkLink, pinnedLookup, type CheckedLink, type LinkPolicy } from './safe-link.js';
import { maskPath, maskUrl } from './mask-url.js';
import { bytes } from '../core/human.js';
import { duration, MIN_DOWNLOAD_RATE, stallGuard, type MinRate } from './transfer-guard.js';

export { MIN_DOWNLOAD_RATE, type MinRate };

export type { LinkPolicy } from './safe-link.js';

/** Redirects followed from a link or upload address before mailctl gives up. */
export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** A PUT follows only the redirects that keep its method and body. */
const PUT_REDIRECTS = new Set([307, 308]);

export interface PutFileOptions {
  fetch: FetchLike;
  url: string;
  file: string;
  /** Where the address may point (safe-link.ts). */
  policy: LinkPolicy;
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
  /** -v: one line per request and per answer, signatures masked. */
  trace?: Trace;
}

export type Trace = (line: string) => void;

/** One upload attempt that failed in a way that may pass: what happened, and the classifier's facts. */
class FailedUpload extends Error {
  readonly facts: ErrorFacts;
  constructor(
    reason: string,
    readonly outcome: Outcome,
  ) {
    super(reason);
    this.facts = classifyUpload(outcome);
  }
}

/** The upload PUT sends the same file to the same address: repeatable (src/api/classify.ts decides the rest). */
const classifyUpload = (outcome: Outcome): ErrorFacts => classify({ method: 'PUT', idempotent: true, keyless: true, outcome });

/** What a transfer that threw (no answer) stands for: a time-out when it stalled, else the transport's code. */
function transportOutcome(e: unknown, stalled: boolean): Outcome {
  return stalled ? { kind: 'timeout' } : { kind: 'network', cause: transportCause(e) ?? 'network error' };
}

/** Where a URL points, without path or query (safe to print). */
export function hostOf(url: string): string {
  try {
    return forTerminal(new URL(url).origin, 100);
  } catch {
    return 'the upload address';
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);


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
      if (!(e instanceof FailedUpload)) throw e;
      if (attempt >= retries || !e.facts.retryable) {
        // The last attempt's own facts: one that broke while the file was on its way may have
        // arrived (reached 'maybe'), never "certainly not".
        const again = 'run the import again; a new upload address is issued each time.';
        const what = `Uploading the file to ${hostOf(o.url)} failed ${attempt + 1} times (${e.message}).`;
        if (e.outcome.kind === 'answer') throw new ServiceError(what, { status: e.outcome.status, facts: e.facts, hint: `The upload address kept failing; ${again}` });
        throw new LimitError(what, `Check the network and ${again}`, e.facts);
      }
      o.onRetry?.(attempt + 1, e.message);
      const delay = o.retryBaseMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await o.clock.sleep(Math.min(delay, 30_000), o.signal).catch(() => {
        throw new InterruptedError('Interrupted during the upload.');
      });
    }
  }
}

/** The only headers an upload sends (never a key): a --dry-run shows the same. */
export function uploadHeaders(total: number, contentType = 'text/csv'): Record<string, string> {
  return { 'content-type': contentType, 'content-length': String(total) };
}

async function putOnce(o: PutFileOptions, total: number): Promise<void> {
  const guard = stallGuard(o.signal, o.stallMs);
  let source: fs.ReadStream | undefined;
  // A fresh read of the file for each hop: a 307/308 redirect gets the whole body again.
  const body = () => {
    source?.destroy();
    const s = (source = fs.createReadStream(o.file, { highWaterMark: 256 * 1024 }));
    let sent = 0;
    return (async function* chunks() {
      for await (const c of s) {
        sent += c.length;
        guard.moved(c.length);
        o.onProgress?.(sent, total);
        yield c as Buffer;
      }
    })();
  };
  try {
    const headers = uploadHeaders(total, o.contentType);
    const res = await follow(o.fetch, o.url, o.policy, 'the upload address', { method: 'PUT', headers, body, redirects: PUT_REDIRECTS, trace: o.trace }, guard.signal);
    res.traced(`${bytes(total)} sent`);
    if (res.status >= 200 && res.status < 300) {
      res.body.resume();
      return;
    }
    const text = await readSome(res.body, 1000);
    const outcome: Outcome = { kind: 'answer', status: res.status, body: parsed(text) };
    const detail = `HTTP ${res.status}${text ? `: ${forTerminal(text.replace(/\s+/g, ' '), 200)}` : ''}`;
    const facts = classifyUpload(outcome);
    if (facts.retryable) throw new FailedUpload(detail, outcome);
    throw new ServiceError(`The upload address at ${hostOf(res.url)} ${facts.refused ? 'refused' : 'failed on'} the file (${detail}).`, {
      status: res.status,
      facts,
      hint: 'Upload addresses expire; run the import again to get a fresh one.',
    });
  } catch (e) {
    if (e instanceof CliError || e instanceof FailedUpload) throw e;
    if (o.signal?.aborted) throw new InterruptedError('Interrupted during the upload.');
    const outcome = transportOutcome(e, guard.stalled);
    throw new FailedUpload(guard.stalled ? `no progress for ${Math.round(o.stallMs / 1000)} s` : networkReason(e), outcome);
  } finally {
    guard.done();
    source?.destroy();
  }
}

interface Answer {
  status: number;
  location?: string;
  body: Readable;
}

interface RequestSpec {
  method: 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: () => AsyncIterable<Buffer>;
  /** The statuses followed to their Location. */
  redirects: Set<number>;
  trace?: Trace;
}

/** The last hop's answer, and how to trace it once its size is known. */
type FinalAnswer = Answer & { url: string; traced(extra?: string): void };

/**
 * Sends the request to `url`, following redirects by hand: each hop is checked (safe-link.ts)
 * before anything connects, and the chain stops after MAX_REDIRECTS. Only the headers given
 * here are sent: never a key.
 */
async function follow(fetchFn: FetchLike, start: string, policy: LinkPolicy, what: string, spec: RequestSpec, signal: AbortSignal): Promise<FinalAnswer> {
  let url = start;
  let from: string | undefined;
  const trace = spec.trace;
  for (let hop = 0; ; hop++) {
    const checked = await checkLink(url, policy, what, from);
    // Timed from the moment the request goes, so the answer line shows what it really took.
    trace?.(`→ ${spec.method} ${maskUrl(url, { link: true })}${hop ? ` (redirect ${hop})` : ''}  no key`);
    const t0 = performance.now();
    const took = () => `${Math.round(performance.now() - t0)}ms`;
    let res: Answer;
    try {
      res = fetchFn === globalThis.fetch ? await nodeRequest(checked, spec, signal) : await fetchRequest(fetchFn, checked, spec, signal);
    } catch (e) {
      trace?.(`✗ ${spec.method} ${maskPath(url)} failed after ${took()}`);
      throw e;
    }
    const line = `← ${res.status} ${spec.method} ${maskPath(url)}`;
    if (!spec.redirects.has(res.status) || !res.location) {
      return { ...res, url, traced: (extra) => trace?.(`${line} ${took()}${extra ? `, ${extra}` : ''}`) };
    }
    trace?.(`${line} ${took()}, redirected`);
    res.body.resume();
    if (hop >= MAX_REDIRECTS) {
      throw new ServiceError(`${cap(what)} at ${hostOf(start)} redirected more than ${MAX_REDIRECTS} times; mailctl stopped following.`, {
        status: res.status,
        facts: { code: 'BAD_RESPONSE', refused: false, retryable: false },
      });
    }
    from = hostOf(url);
    try {
      url = new URL(res.location, url).href;
    } catch {
      url = res.location; // checkLink refuses it with a sentence
    }
  }
}

/**
 * The real network: node:http(s), connecting to exactly the addresses checkLink approved. For
 * uploads it also streams from disk: Node 20's fetch reads a streamed request body far ahead of
 * the socket (measured: a 478 MB upload took 552 MiB of memory through fetch, 88 MiB through
 * node:http).
 */
function nodeRequest(hop: CheckedLink, spec: RequestSpec, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const request = hop.url.protocol === 'https:' ? https.request : http.request;
    const lookup = hop.addresses.length ? pinnedLookup(hop.addresses) : undefined;
    const req = request(hop.url, { method: spec.method, headers: spec.headers, signal, lookup }, (res) => {
      const location = res.headers.location;
      resolve({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : undefined, body: res });
    });
    req.on('error', reject);
    if (!spec.body) req.end();
    // Byte mode: at most one chunk waits between the disk and the socket.
    else pipeline(Readable.from(spec.body(), { objectMode: false }), req).catch(reject);
  });
}

/** Any other transport (the in-process sandbox of --sandbox, tests): fetch, redirects not followed. */
async function fetchRequest(fetchFn: FetchLike, hop: CheckedLink, spec: RequestSpec, signal: AbortSignal): Promise<Answer> {
  const res = await fetchFn(hop.url.href, {
    method: spec.method,
    headers: spec.headers,
    redirect: 'manual',
    signal,
    ...(spec.body ? { body: Readable.toWeb(Readable.from(spec.body())) as unknown as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  const body = res.body ? Readable.fromWeb(res.body as unknown as WebReadableStream) : Readable.from([]);
  return { status: res.status, location: res.headers.get('location') ?? undefined, body };
}

/** A body as the classifier reads it: JSON when it parses, else the text, else undefined. */
function parsed(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readSome(body: Readable, max: number): Promise<string> {
  let text = '';
  try {
    for await (const c of body) {
      text += Buffer.isBuffer(c) ? c.toString('utf8') : String(c);
      if (text.length >= max) break;
    }
  } catch {
    /* the text is only for the message */
  }
  body.destroy();
  return text.slice(0, max);
}

function networkReason(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return forTerminal((e as Error)?.message ?? String(e), 200);
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Where the link may point (safe-link.ts). */
  policy: LinkPolicy;
  /** What the link holds, for messages: "the failure file". Already safe to print. */
  what: string;
  /** How to get a fresh link when this one has expired. */
  expiredHint: string;
  /** Give up when no byte arrives for this long. */
  stallMs: number;
  /** Give up when the body comes in slower than this (default MIN_DOWNLOAD_RATE). */
  minRate?: MinRate;
  /** Give up when the whole download has not finished in this long, however steadily it comes (a run's --timeout). */
  deadlineMs?: number;
  /** -v: one line per request and per answer, signatures masked. */
  trace?: Trace;
  /** false: never replace what is at `dest` (an existing file or link ends the download, exit 1, nothing saved). */
  replace?: boolean;
}

/**
 * GETs a download link (no key) into `dest`: written to a fresh private (0600) file created
 * exclusively beside it, then renamed into place, so nothing is ever written through a link
 * planted at the destination or its temporary name, and a failed download leaves nothing behind.
 * Returns the bytes written.
 */
export async function downloadFile(fetchFn: FetchLike, url: string, dest: string, o: DownloadOptions): Promise<number> {
  const floor = o.minRate ?? MIN_DOWNLOAD_RATE;
  const guard = stallGuard(o.signal, o.stallMs, floor, o.deadlineMs);
  const failed = (e: unknown): CliError => {
    if (e instanceof CliError) return e;
    if (o.signal?.aborted) return new InterruptedError(`Interrupted while downloading ${o.what}; nothing was saved.`);
    // Too slow is a time-out as much as too quiet is, and so is too long.
    const facts = classify({ method: 'GET', keyless: true, outcome: transportOutcome(e, guard.stalled || guard.slow !== undefined || guard.late) });
    if (guard.late) {
      return new LimitError(`Downloading ${o.what} from ${hostOf(url)} did not finish within ${duration(o.deadlineMs!)}; nothing was saved.`, 'Check the network and try again, or allow more time with --timeout.', facts);
    }
    if (guard.slow !== undefined) {
      return new LimitError(
        `Downloading ${o.what} from ${hostOf(url)} stopped: only ${bytes(guard.slow)} arrived in ${duration(floor.windowMs)}, less than the ${bytes(floor.bytes)} per ${duration(floor.windowMs)} any real link carries; nothing was saved.`,
        'Check the network and try again.',
        facts,
      );
    }
    if (guard.stalled) return new LimitError(`Downloading ${o.what} from ${hostOf(url)} stopped: nothing arrived for ${Math.round(o.stallMs / 1000)} s; nothing was saved.`, 'Check the network and try again.', facts);
    return new LimitError(`Cannot download ${o.what} from ${hostOf(url)} (${networkReason(e)}); nothing was saved.`, 'Check the network and try again.', facts);
  };
  try {
    let res: FinalAnswer;
    try {
      res = await follow(fetchFn, url, o.policy, `the link to ${o.what}`, { method: 'GET', headers: {}, redirects: REDIRECTS, trace: o.trace }, guard.signal);
    } catch (e) {
      throw failed(e);
    }
    if (res.status < 200 || res.status >= 300) {
      res.traced();
      res.body.destroy();
      throw new ServiceError(`The link to ${o.what} at ${hostOf(res.url)} answered HTTP ${res.status}.`, { status: res.status, hint: o.expiredHint, facts: classify({ method: 'GET', keyless: true, outcome: { kind: 'answer', status: res.status, body: undefined } }) });
    }
    let temp: Awaited<ReturnType<typeof createTempBeside>>;
    try {
      temp = await createTempBeside(dest);
    } catch (e) {
      res.traced('not saved');
      res.body.destroy();
      throw localFailure(e, dest);
    }
    const { path: tmp, handle } = temp;
    try {
      guard.metre();
      for await (const chunk of res.body) {
        guard.moved((chunk as Buffer).length);
        // Every byte, or the DISK error naming dest: a short write on a nearly full disk renamed
        // a file cut short into place (issue 19).
        await writeAll(handle, chunk as Buffer, dest);
      }
      await handle.sync();
      await handle.close();
      if (o.replace === false) await renameNoReplace(tmp, dest);
      else await fs.promises.rename(tmp, dest);
    } catch (e) {
      res.traced(e instanceof DiskError ? 'not saved' : 'the body broke off');
      res.body.destroy();
      await handle.close().catch(() => {});
      await fs.promises.rm(tmp, { force: true });
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw existsFailure(dest);
      throw LOCAL_WRITE_ERRORS.has((e as NodeJS.ErrnoException).code ?? '') ? localFailure(e, dest) : failed(e);
    }
    const size = (await fs.promises.stat(dest)).size;
    res.traced(`${bytes(size)} received`);
    return size;
  } finally {
    guard.done();
  }
}

/** Errors of the disk, not the network. */
const LOCAL_WRITE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS', 'EACCES', 'EPERM', 'ENOENT', 'ENOTDIR']);

/** `replace: false` and something appeared at `dest` while the file downloaded: it is kept. */
function existsFailure(dest: string): CliError {
  return new CliError(`${forTerminal(dest, 200)} appeared while downloading, so the download was not saved and nothing was overwritten.`, ExitCode.FAILED, 'Move that file away (or pass --force to overwrite it) and try again.', { code: 'FAILED', reached: 'yes', refused: false, retryable: false });
}

/** A disk problem (full, read-only, an I/O error) is a DiskError naming `dest`, for the caller to add how to get the file again. */
function localFailure(e: unknown, dest: string): CliError {
  const disk = asDiskError(e, dest);
  if (disk instanceof DiskError) return disk;
  const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new CliError(`Cannot write ${forTerminal(dest, 200)} (${code}); nothing was saved.`, ExitCode.FAILED, 'Check that the folder exists, is writable and has space, then try again.', { code: 'FAILED', reached: 'yes', refused: false, retryable: false });
}
