// The thin HTTP layer both service clients share: the x-api-key header, base URL, timeout,
// client-side rate limits, retries that are safe, a masked request trace, and the mapping of
// every failure to a typed error. Built on ky; nothing else in mailctl speaks to the API.
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { AuthError, CliError, LimitError, ServiceError, InterruptedError } from '../cli/errors.js';
import { maskKey, SERVICE_LABEL, type Service } from '../config/settings.js';
import { describeErrorBody, sentenceForCode } from './error-messages.js';
import type { Limiter } from './ratelimit.js';

export type FetchLike = typeof fetch;

export interface HttpOptions {
  service: Service;
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  /** Applied to every request of this client. */
  limiter: Limiter;
  trace?: (line: string) => void;
  timeoutMs?: number;
  retryLimit?: number;
  /** Base of the exponential backoff, in ms. Tests make it small. */
  retryBaseMs?: number;
  signal?: AbortSignal;
  /** How to fix a key problem, named in the error. */
  keyHint: string;
}

export interface CallOptions {
  json?: unknown;
  searchParams?: Record<string, string | number | undefined>;
  /**
   * Safe to send twice: GET, DELETE, upserts and reads-by-POST. A request that creates or
   * sends is retried only when it provably never reached the server (connection refused).
   */
  idempotent?: boolean;
  /** An extra limiter for this call (report export: 1 per 10 s). */
  limiter?: Limiter;
  /** Expect no body (204) or ignore it. */
  noBody?: boolean;
}

const PER_SECOND = 'too many requests';
const DAILY = 'limit exceeded';

export class HttpClient {
  private readonly ky: KyInstance;
  private readonly o: HttpOptions;
  /** The `Date` header of the latest answer, and when it arrived (for `doctor`'s clock check). */
  lastServerDate?: { date: string; receivedAt: number };

  constructor(o: HttpOptions) {
    this.o = o;
    const trace = o.trace;
    // Each request's limiter tickets, handed back when its answer comes (ky gives the fetch the
    // very Request object its beforeRequest hooks saw).
    const tickets = new WeakMap<Request, Array<() => Promise<void>>>();
    const answered: FetchLike = async (input, init) => {
      const res = await o.fetch(input, init);
      for (const done of (input instanceof Request && tickets.get(input)) || []) await done();
      return res;
    };
    this.ky = ky.create({
      prefixUrl: o.baseUrl,
      // Timed here, around the transport itself: ky hands its hooks other Request objects than
      // the one it sends, so a start kept in a hook measured nothing (every answer showed 0ms).
      fetch: trace ? timedFetch(answered, trace) : answered,
      timeout: o.timeoutMs ?? 30_000,
      throwHttpErrors: true,
      // fetch would follow a redirect and, across origins, drop only Authorization: our
      // x-api-key would go to whatever host the Location names. The API is never redirected.
      redirect: 'manual',
      headers: { 'x-api-key': o.apiKey, accept: 'application/json' },
      hooks: {
        beforeRequest: [
          async (request, options, state) => {
            // A call's own limit (report export: 1 per 10 s) first, then the overall 2/s: the
            // overall slot is taken when the request really goes, not 10 s before it.
            const extra = options.context.limiter as Limiter | undefined;
            const done: Array<() => Promise<void>> = [];
            for (const limiter of extra ? [extra, o.limiter] : [o.limiter]) {
              const ticket = await limiter.take(o.signal);
              if (ticket && limiter.answered) done.push(() => limiter.answered!(ticket));
            }
            if (done.length) tickets.set(request, done);
            if (trace) {
              const again = state.retryCount ? ` (retry ${state.retryCount})` : '';
              trace(`→ ${request.method} ${request.url}${again}  x-api-key: ${maskKey(o.apiKey)}`);
            }
          },
        ],
        afterResponse: [
          (_request, _options, response) => {
            const date = response.headers.get('date');
            if (date) this.lastServerDate = { date, receivedAt: Date.now() };
          },
        ],
      },
    });
  }

  async call<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
    const idempotent = !!opts.idempotent;
    const extra = opts.limiter;
    const searchParams: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.searchParams ?? {})) if (v !== undefined && v !== '') searchParams[k] = String(v);
    try {
      const res = await this.ky(path.replace(/^\//, ''), {
        method,
        json: opts.json,
        searchParams,
        signal: this.o.signal,
        retry: {
          limit: this.o.retryLimit ?? 3,
          // Every method reaches shouldRetry, which alone decides what is safe to repeat.
          methods: ['get', 'put', 'head', 'delete', 'options', 'post', 'patch'],
          delay: (attempt) => (this.o.retryBaseMs ?? 500) * 2 ** (attempt - 1),
          backoffLimit: 8_000,
          // A Retry-After longer than this is cut short: we give up after the retries anyway.
          maxRetryAfter: 10_000,
          jitter: (d) => d * (0.5 + Math.random() * 0.5),
          shouldRetry: async ({ error }) => shouldRetry(error, idempotent),
        },
        // Read by the instance's beforeRequest hook, on every attempt.
        ...(extra ? { context: { limiter: extra } } : {}),
      });
      if (opts.noBody || res.status === 204) {
        await res.body?.cancel().catch(() => {});
        return undefined as T;
      }
      const text = await readCapped(res, MAX_RESPONSE_BYTES);
      if (text === undefined) {
        throw new ServiceError(`The ${SERVICE_LABEL[this.o.service]} answered ${method} ${path} with more than ${MAX_RESPONSE_MIB} MiB, far more than any real answer; mailctl stopped reading it.`, {
          status: res.status,
          hint: 'Check the base URL (`mailctl config list`): it should name the service itself.',
          facts: { code: 'BAD_RESPONSE', refused: false },
        });
      }
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ServiceError(`The ${SERVICE_LABEL[this.o.service]} answered ${method} ${path} with something that is not JSON.`, { status: res.status, body: text.slice(0, 200), facts: { code: 'BAD_RESPONSE', refused: false } });
      }
    } catch (e) {
      throw await this.toCliError(e, method, path, !!opts.idempotent);
    }
  }

  private async toCliError(e: unknown, method: string, path: string, idempotent: boolean): Promise<Error> {
    const label = SERVICE_LABEL[this.o.service];
    if (e instanceof CliError) return e;
    if (this.o.signal?.aborted) {
      // Ctrl-C while a request was on the wire: whether it arrived is not known.
      return new InterruptedError(undefined, undefined, { reached: 'maybe' });
    }
    if (e instanceof HTTPError) {
      const status = e.response.status;
      const text = (await readCapped(e.response, MAX_ERROR_BODY_BYTES).catch(() => '')) ?? '';
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep text */
      }
      const { code, detail, message } = describeErrorBody(body);
      const msg = (message ?? '').toLowerCase();
      const answered = { reached: 'yes' as const, status, serviceCode: code };
      if (msg === DAILY) {
        return new LimitError(`The daily request limit of the ${label} is used up (Limit Exceeded).`, 'Nothing more can be sent today; try again after the daily limit resets.', { ...answered, code: 'DAILY_LIMIT', refused: true, retryable: false });
      }
      if (status === 429 || msg === PER_SECOND) {
        return new LimitError(`The ${label} kept answering "too many requests" after ${this.o.retryLimit ?? 3} retries.`, 'Wait a few seconds and run the command again.', { ...answered, code: 'RATE_LIMITED', refused: true, retryable: true });
      }
      // After the limits: decisions row 5 says they are known by their body whatever the status.
      if (msg === 'forbidden' || status === 401 || (status === 403 && !code)) {
        return new AuthError(`The ${label} refused the API key (Forbidden).`, this.o.keyHint, { ...answered, code: 'AUTH', refused: true });
      }
      if (status >= 300 && status < 400) {
        const to = e.response.headers.get('location');
        return new ServiceError(`The ${label} answered ${method} ${path} with a redirect${to ? ` to ${to}` : ''} (HTTP ${status}); mailctl does not follow redirects, so the API key is never sent to another address.`, { status, hint: 'Check the base URL (`mailctl config list`): it should name the API host itself, without /v1.', facts: { code: 'BAD_RESPONSE', refused: true } });
      }
      const sentence = sentenceForCode(code);
      if (sentence) {
        return new ServiceError(`${sentence}${detail && !sentence.includes(detail) ? ` (${detail})` : ''}`, { status, code, body });
      }
      if (status >= 500) {
        // A 5xx may come after the service did part of the work: only a repeatable request is safe again.
        return new ServiceError(`The ${label} failed with HTTP ${status} on ${method} ${path}${detail ? `: ${detail}` : ''}.`, { status, code, body, hint: 'Try again later; if it keeps failing, contact the provider\'s support.', facts: { retryable: idempotent } });
      }
      return new ServiceError(`The ${label} refused ${method} ${path} (HTTP ${status})${detail ? `: ${detail}` : ''}${code ? ` [code ${code}]` : ''}.`, { status, code, body });
    }
    if (e instanceof TimeoutError) {
      const doubt = idempotent ? '' : ' It may or may not have been carried out; check before running it again.';
      return new LimitError(`The ${label} did not answer ${method} ${path} in time.${doubt}`, undefined, { code: 'TIMEOUT', reached: 'maybe', refused: false, retryable: idempotent });
    }
    const cause = networkCode(e);
    if (cause) {
      // Refused (or a name that does not resolve) means it never arrived; a connection lost
      // mid-request may have been acted on.
      const never = NEVER_CONNECTED.has(cause);
      const doubt = idempotent || never ? '' : ` The connection broke during ${method} ${path}: it may or may not have been carried out; check before running it again.`;
      return new LimitError(`Cannot reach the ${label} at ${this.o.baseUrl} (${cause}).${doubt}`, 'Check the network and the base URL (`mailctl config list`).', {
        code: 'NETWORK',
        reached: never ? 'no' : 'maybe',
        refused: false,
        retryable: never || idempotent,
      });
    }
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** The transport, tracing each answer (or failure) with the time it really took. */
export function timedFetch(inner: FetchLike, trace: (line: string) => void): FetchLike {
  return async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const what = `${req.method} ${new URL(req.url).pathname}`;
    const t0 = performance.now();
    try {
      const res = await inner(input, init);
      trace(`← ${res.status} ${what} ${Math.round(performance.now() - t0)}ms`);
      return res;
    } catch (e) {
      trace(`✗ ${what} failed after ${Math.round(performance.now() - t0)}ms`);
      throw e;
    }
  };
}

/** Connection failures that prove no byte of the request reached the service. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The largest API answer mailctl reads. The biggest real answers (a page of groups, an event
 * lookup, report links) are a few hundred KiB; anything near this is not the service.
 */
export const MAX_RESPONSE_MIB = 32;
const MAX_RESPONSE_BYTES = MAX_RESPONSE_MIB * 1024 * 1024;
/** Of an error answer only the start matters (its code and message). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The body as text, or undefined when it is longer than `max` bytes (reading stops there). */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

async function shouldRetry(error: Error, idempotent: boolean): Promise<boolean | undefined> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const text = ((await readCapped(error.response.clone(), MAX_ERROR_BODY_BYTES).catch(() => '')) ?? '').toLowerCase();
    if (text.includes(DAILY)) return false; // daily cap: retrying only burns the next day's budget
    // A per-second "too many requests" is the gate refusing before any work: safe to repeat.
    // A real 429 goes through ky's own logic (undefined), which honours a Retry-After header.
    if (status === 429) return undefined;
    if (text.includes(PER_SECOND)) return true;
    // A 5xx carrying {success:false} is the service's documented answer (spec 001: webhook
    // deletion failure is 500 {success: false}), not a passing fault: asking again changes nothing.
    if (status >= 500 && /"success"\s*:\s*false/.test(text)) return false;
    return status >= 500 && idempotent;
  }
  if (error instanceof TimeoutError) return idempotent; // a timed-out send may have been sent
  const code = networkCode(error);
  if (code === 'ECONNREFUSED') return true; // never reached the server
  return !!code && idempotent;
}

function networkCode(e: unknown): string | undefined {
  let cur: unknown = e;
  // Node's fetch wraps every transport failure as TypeError("fetch failed", {cause}); the cause
  // is an errno error (ECONNREFUSED…) or an undici one (UND_ERR_SOCKET: "other side closed").
  const fetchFailed = e instanceof TypeError && /fetch failed|network|socket/i.test(e.message);
  for (let i = 0; i < 4 && cur; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string' && /^(E[A-Z]+|UND_ERR)/.test(c)) return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return fetchFailed ? 'network error' : undefined;
}
