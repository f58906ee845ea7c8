// One signed webhook POST to a consumer (`webhook trigger`, `webhook replay`), as the service
// sends it: the JSON body, content-type and the signature header — never the API key. Redirects
// are not followed (a webhook sender posts to the URL it was given; following would turn the
// POST into a GET elsewhere). A failure to get an answer becomes a typed error with facts.
import type { FetchLike } from '../api/http.js';
import { NEVER_CONNECTED, transportCause } from '../api/classify.js';
import { InterruptedError, LimitError, UsageError } from '../core/errors.js';
import { version } from '../core/version.js';
import { forTerminal } from '../core/sanitize.js';
import { SIGNATURE_HEADERS } from './signature.js';

export interface SignedPost {
  url: string;
  body: string;
  signatureHeader: string;
  signature: string;
}

export interface ConsumerAnswer {
  status: number;
  /** The reason phrase (HTTP/1.1), when the consumer sent one. */
  statusText: string;
  ok: boolean;
  ms: number;
  /** The start of the answer's body as text (raw: sanitise before printing). */
  body: string;
  /** The body was longer than what was read. */
  cut: boolean;
  location?: string;
}

/** Enough of an answer to show what the consumer said; the rest is not read. */
const BODY_READ_BYTES = 16 * 1024;

export function postHeaders(p: Pick<SignedPost, 'signatureHeader' | 'signature'>): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': `mailctl/${version()} (webhook test)`, [p.signatureHeader]: p.signature };
}

export async function postSigned(p: SignedPost, o: { fetch: FetchLike; signal: AbortSignal; timeoutMs: number; now: () => number }): Promise<ConsumerAnswer> {
  const t0 = o.now();
  let res: Response;
  try {
    res = await o.fetch(p.url, {
      method: 'POST',
      headers: postHeaders(p),
      body: p.body,
      redirect: 'manual',
      signal: AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs)]),
    });
  } catch (e) {
    throw unreachable(e, p.url, o.signal, o.timeoutMs);
  }
  const { text, cut } = await readStart(res);
  return { status: res.status, statusText: res.statusText, ok: res.status >= 200 && res.status < 300, ms: Math.max(0, Math.round(o.now() - t0)), body: text, cut, location: res.headers.get('location') ?? undefined };
}

async function readStart(res: Response): Promise<{ text: string; cut: boolean }> {
  if (!res.body) return { text: '', cut: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let cut = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
      if (total >= BODY_READ_BYTES) {
        cut = true;
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } catch {
    /* the answer's status is what counts; a body cut short is shown as far as it came */
  }
  return { text: Buffer.concat(chunks).subarray(0, BODY_READ_BYTES).toString('utf8'), cut };
}

function unreachable(e: unknown, url: string, signal: AbortSignal, timeoutMs: number): Error {
  if (signal.aborted) return new InterruptedError(undefined, undefined, { reached: 'maybe' });
  if ((e as Error)?.name === 'TimeoutError') {
    return new LimitError(`The consumer at ${url} did not answer within ${Math.round(timeoutMs / 1000)} s; it may or may not have taken the event.`, 'Check that it is running, or allow longer with --timeout.', { code: 'TIMEOUT', reached: 'maybe', refused: false, retryable: false });
  }
  // The errno or undici code, read as the API client reads it; NEVER_CONNECTED proves nothing reached the consumer.
  const cause = transportCause(e);
  const code = cause === 'network error' ? undefined : cause;
  const never = code !== undefined && NEVER_CONNECTED.has(code);
  return new LimitError(`Cannot reach the consumer at ${url}${code ? ` (${code})` : ''}.`, never ? 'Check that it is running and listening on that address and port.' : 'The connection broke; the consumer may or may not have taken the event.', {
    code: 'NETWORK',
    reached: never ? 'no' : 'maybe',
    refused: false,
    retryable: never,
  });
}

/** The consumer's answer body, one line, control characters shown, cut to `max` characters: for a terminal. */
export function shortAnswer(a: Pick<ConsumerAnswer, 'body' | 'cut'>, max = 120): string {
  const one = a.body.replace(/\s+/g, ' ').trim();
  return forTerminal(one, max) + (a.cut && one.length <= max ? '…' : '');
}

/** `--signature-header`: the spec's name (default) or the one public code uses (decisions row 14). */
export function parseSignatureHeader(value: string | undefined): string {
  if (value === undefined) return SIGNATURE_HEADERS[0];
  const v = value.trim().toLowerCase();
  if ((SIGNATURE_HEADERS as readonly string[]).includes(v)) return v;
  throw new UsageError(`--signature-header must be ${SIGNATURE_HEADERS.join(' or ')}; got "${forTerminal(value, 80)}".`, 'The spec names x-service-signature (the default); public client code uses x-surenotify-signature.');
}
