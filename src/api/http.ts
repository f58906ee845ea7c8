// The thin HTTP layer both service clients share: the x-api-key header, base URL, timeout,
// client-side rate limits, retries that are safe, a masked request trace, and the mapping of
// every failure to a typed error. Built on ky; nothing else in mailctl speaks to the API.
import { nestedDeeperThan } from '../core/json-depth.js';
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { AuthError, CliError, LimitError, ServiceError, InterruptedError, type ErrorFacts, type RequestFacts } from '../core/errors.js';
import { maskKey, SERVICE_LABEL, type Service } from '../config/service.js';
import { forTerminal } from '../core/sanitize.js';
import { endSentence } from '../core/sentence.js';
import { classify, isRepeatable, transportCause, type Attempt, type Outcome } from './classify.js';
import { describeErrorBody } from './error-body.js';
import type { Limiter } from './ratelimit.js';
import { maskPath, maskUrl } from './mask-url.js';
import { redactor, type Redact } from './redact.js';
import { duration } from './transfer-guard.js';
import { readAs, type Answer } from './answers/read.js';

export type FetchLike = typeof fetch;

export interface HttpOptions {
  service: Service;
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  /** Applied to every request of this client. */
  limiter: Limiter;
  trace?: (line: string) => void;
  /** How long a request may take, its answer read whole (a body that trickles in counts too). */
  timeoutMs?: number;
  retryLimit?: number;
  /** Base of the exponential backoff, in ms. Tests make it small. */
  retryBaseMs?: number;
  signal?: AbortSignal;
  /**
   * Every key the run knows (the other service's too): masked wherever an answer repeats one
   * (src/api/redact.ts). This client's own key always is.
   */
  knownKeys?: ReadonlyArray<string | undefined>;
  /**
   * --dry-run: the transport is the recorder (src/api/recorder.ts), which answers every request
   * with nothing, so nothing is read: each call gives undefined (a write's caller prints the
   * recording; a read went through `lookup`, which stands a placeholder in for it).
   */
  dryRun?: boolean;
}

export interface CallOptions<T> {
  /** How the answer is read: its endpoint's declaration (src/api/answers/). */
  answer: Answer<T>;
  json?: unknown;
  searchParams?: Record<string, string | number | undefined>;
  /**
   * Safe to send twice: upserts, reads-by-POST, a DELETE that cannot mislead when repeated
   * (GET always is). A request that creates or sends is retried only when it certainly had no
   * effect (src/api/classify.ts decides).
   */
  idempotent?: boolean;
  /** An extra limiter for this call (report export: 1 per 10 s). */
  limiter?: Limiter;
}

/** An answer, and whether it answers a retry sent after an attempt that may have been carried out. */
export interface Tracked<T> {
  value: T;
  afterDoubt: boolean;
}

/** How much of a service's own words goes into a sentence (--json carries them whole). */
const MAX_DETAIL_CHARS = 300;

export class HttpClient {
  private readonly ky: KyInstance;
  private readonly o: HttpOptions;
  /** The `Date` header of the latest answer, and when it arrived (for `doctor`'s clock check). */
  lastServerDate?: { date: string; receivedAt: number };
  /** Masks the run's keys in whatever the service says, before it becomes an error. */
  private readonly redact: Redact;
  /**
   * How long one attempt may take, its answer's body read whole. ky's own time-out ends when the
   * headers arrive, so the body is read against what is left of it: an answer that trickles in
   * steadily (a byte every few seconds, under any idle guard) ends at the time-out like one that
   * never comes (issue 19 item 7), and a command's --timeout bounds its requests as a whole.
   */
  private readonly timeoutMs: number;
  /** When each answer's attempt went out (Date.now()), for its body's deadline. */
  private readonly sentAt = new WeakMap<Response, number>();

  constructor(o: HttpOptions) {
    this.o = o;
    this.redact = redactor([o.apiKey, ...(o.knownKeys ?? [])]);
    this.timeoutMs = o.timeoutMs ?? 30_000;
    const trace = o.trace;
    // Each request's limiter tickets, handed back when its answer comes (ky gives the fetch the
    // very Request object its beforeRequest hooks saw).
    // A shared budget holds a request's slot until its answer or its failure is handed back, so
    // both are: a failure too (a time-out, a dropped connection), or the slot stays held.
    const tickets = new WeakMap<Request, Array<(status?: number) => Promise<void>>>();
    const answered: FetchLike = async (input, init) => {
      const settled = (input instanceof Request && tickets.get(input)) || [];
      const sent = Date.now();
      let res: Response;
      try {
        res = await o.fetch(input, init);
      } catch (e) {
        for (const done of settled) await done();
        throw e;
      }
      this.sentAt.set(res, sent);
      // Read here rather than in an afterResponse hook: ky hands each such hook a clone of the
      // response, which tees its body (a cost on every answer, and the body read through the tee).
      const date = res.headers.get('date');
      if (date) this.lastServerDate = { date, receivedAt: Date.now() };
      for (const done of settled) await done(res.status);
      return res;
    };
    this.ky = ky.create({
      prefixUrl: o.baseUrl,
      // Timed here, around the transport itself: ky hands its hooks other Request objects than
      // the one it sends, so a start kept in a hook measured nothing (every answer showed 0ms).
      fetch: trace ? timedFetch(answered, trace) : answered,
      timeout: this.timeoutMs,
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
            const done: Array<(status?: number) => Promise<void>> = [];
            for (const limiter of extra ? [extra, o.limiter] : [o.limiter]) {
              const ticket = await limiter.take(o.signal);
              if (ticket && limiter.answered) done.push((status) => limiter.answered!(ticket, status));
            }
            if (done.length) tickets.set(request, done);
            if (trace) {
              const again = state.retryCount ? ` (retry ${state.retryCount})` : '';
              trace(`→ ${request.method} ${maskUrl(request.url)}${again}  x-api-key: ${maskKey(o.apiKey)}`);
            }
          },
        ],
      },
    });
  }

  /** Sends the request and reads its answer through `opts.answer` (undefined under --dry-run). */
  async call<T>(method: string, path: string, opts: CallOptions<T>): Promise<T> {
    return (await this.callTracked<T>(method, path, opts)).value;
  }

  /**
   * `call`, and how its answer came: `afterDoubt` is true when it is the answer to a retry sent
   * after an attempt that may have been carried out (its answer lost, timed out, or a 5xx). A
   * repeatable request's answer then describes the retry alone: a count of what it changed
   * leaves out what the earlier attempt did (a DELETE whose first answer was lost removes
   * nothing the second time).
   */
  async callTracked<T>(method: string, path: string, opts: CallOptions<T>): Promise<Tracked<T>> {
    const tracked = { afterDoubt: false };
    const value = await this.send<T>(method, path, opts, tracked);
    return { value, afterDoubt: tracked.afterDoubt };
  }

  private async send<T>(method: string, path: string, opts: CallOptions<T>, tracked: { afterDoubt: boolean }): Promise<T> {
    const attempt = { method, idempotent: !!opts.idempotent };
    const request: RequestFacts = { service: this.o.service, method, path };
    const label = SERVICE_LABEL[this.o.service];
    const extra = opts.limiter;
    const searchParams: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.searchParams ?? {})) if (v !== undefined && v !== '') searchParams[k] = String(v);
    /** An answer mailctl cannot use, as the error that says so. */
    const unusable = (status: number, problem: NonNullable<RequestFacts['problem']>, sentence: string, more: { body?: unknown } = {}) =>
      new ServiceError(sentence, { status, ...more, facts: classify({ ...attempt, outcome: { kind: 'unreadable', status } }) }).about({ ...request, problem });
    try {
      const res = await this.ky(path.replace(/^\//, ''), {
        method,
        json: opts.json,
        searchParams,
        signal: this.o.signal,
        retry: {
          limit: this.o.retryLimit ?? 3,
          // Every method reaches shouldRetry, where the classifier alone decides what is safe to repeat.
          methods: ['get', 'put', 'head', 'delete', 'options', 'post', 'patch'],
          delay: (attempt) => (this.o.retryBaseMs ?? 500) * 2 ** (attempt - 1),
          backoffLimit: 8_000,
          // A Retry-After longer than this is cut short: we give up after the retries anyway.
          maxRetryAfter: 10_000,
          jitter: (d) => d * (0.5 + Math.random() * 0.5),
          shouldRetry: async ({ error }) => this.shouldRetry(error, attempt, tracked),
        },
        // Read by the instance's beforeRequest hook, on every attempt.
        ...(extra ? { context: { limiter: extra } } : {}),
      });
      // A dry run's recorder answered (nothing: the endpoint's placeholder stands in); an
      // endpoint whose body says nothing is not read.
      if (this.o.dryRun || opts.answer.unread) {
        await res.body?.cancel().catch(() => {});
        return (this.o.dryRun ? opts.answer.dryRun?.() : undefined) as T;
      }
      const text = res.status === 204 ? '' : await readCapped(res, MAX_RESPONSE_BYTES, this.deadlineOf(res));
      if (text === undefined) {
        throw unusable(res.status, 'too-large', `The ${label} answered ${method} ${path} with more than ${MAX_RESPONSE_MIB} MiB, far more than any real answer; mailctl stopped reading it.`);
      }
      let parsed: unknown;
      if (text) {
        // Nothing real nests this deep; what does would overflow the walks that print and mask it.
        if (nestedDeeperThan(text, MAX_ANSWER_DEPTH)) {
          throw unusable(res.status, 'too-deep', `The ${label} answered ${method} ${path} with JSON nested more than ${MAX_ANSWER_DEPTH} levels deep, far deeper than any real answer; mailctl shows no guess in its place.`);
        }
        try {
          parsed = JSON.parse(text);
        } catch {
          throw unusable(res.status, 'not-json', `The ${label} answered ${method} ${path} with something that is not JSON.`, { body: this.redact(text.slice(0, 200)) });
        }
        // A success may repeat a key too (a notify 200's failure reason "key … is not allowed"):
        // masked here, the one place every answer passes, so no caller can print or journal it.
        if (this.redact.mayHoldKey(text)) parsed = this.redact(parsed);
      }
      // Read through the endpoint's declaration: a shape none of its documented shapes takes is
      // named, never read as "nothing" (decisions row 34).
      const read = readAs(opts.answer, parsed);
      if (!read.ok) {
        throw unusable(res.status, 'shape', `The ${label} answered ${method} ${path} in a shape mailctl does not know: ${read.what}; mailctl shows no guess in its place.`);
      }
      return read.value;
    } catch (e) {
      throw await this.toCliError(e, request, !!opts.idempotent);
    }
  }

  /** Until when an answer's body may still come: its attempt's time-out, counted from when it went out. */
  private deadlineOf(res: Response): number {
    return (this.sentAt.get(res) ?? Date.now()) + this.timeoutMs;
  }

  /** What happened to the request, as the classifier reads it; undefined for a failure that is not the request's (a bug). */
  private async outcomeOf(e: unknown): Promise<Outcome | undefined> {
    if (this.o.signal?.aborted) return { kind: 'interrupted' };
    // The service's words with every key the run knows masked: whatever is built from the
    // outcome (sentence, serviceMessage, serviceCode, body) can then never show one.
    if (e instanceof HTTPError) return { kind: 'answer', status: e.response.status, body: this.redact(await errorBodyOf(e.response, this.deadlineOf(e.response))) };
    if (e instanceof TimeoutError || e instanceof BodyTimeoutError) return { kind: 'timeout' };
    const cause = transportCause(e);
    return cause ? { kind: 'network', cause } : undefined;
  }

  /** ky asks before each retry; the answer is the classifier's `retryable`, nothing else. */
  private async shouldRetry(error: Error, attempt: Omit<Attempt, 'outcome'>, tracked: { afterDoubt: boolean }): Promise<boolean | undefined> {
    const outcome = await this.outcomeOf(error);
    if (!outcome) return false;
    const facts = classify({ ...attempt, outcome });
    if (!facts.retryable) return false;
    // The attempt being retried may have been carried out unless it certainly was not
    // (never reached the service, or refused by it): the answer to come is then the retry's alone.
    if (!(facts.reached === 'no' || (facts.reached === 'yes' && facts.refused))) tracked.afterDoubt = true;
    // A retryable 429 goes through ky's own delay, which honours a Retry-After header.
    return outcome.kind === 'answer' && outcome.status === 429 ? undefined : true;
  }

  /**
   * Every failure as a typed error with its facts, about this request. The sentence is plain and
   * complete (a journal or a report can keep it); the hint, and a sentence for a service code the
   * spec lists, are the CLI layer's (src/cli/error-text.ts), made from the facts and the request.
   */
  private async toCliError(e: unknown, request: RequestFacts, idempotent: boolean): Promise<Error> {
    if (e instanceof CliError) return e;
    const outcome = await this.outcomeOf(e);
    if (!outcome) return e instanceof Error ? e : new Error(String(e));
    const { method, path } = request;
    const attempt = { method, idempotent };
    const facts = classify({ ...attempt, outcome });
    const label = SERVICE_LABEL[this.o.service];
    // Said when the request may have been carried out and is not safe to send again.
    const doubt = facts.reached === 'maybe' && !isRepeatable(attempt);
    switch (outcome.kind) {
      case 'interrupted':
        // Ctrl-C while a request was on the wire: whether it arrived is not known.
        return new InterruptedError(undefined, undefined, facts).about(request);
      case 'timeout': {
        const late = e instanceof BodyTimeoutError ? `began answering ${method} ${path} but did not finish within ${duration(this.timeoutMs)}; mailctl stopped reading.` : `did not answer ${method} ${path} in time.`;
        return new LimitError(`The ${label} ${late}${doubt ? ' It may or may not have been carried out; check before running it again.' : ''}`, undefined, facts).about(request);
      }
      case 'network':
        return new LimitError(
          `Cannot reach the ${label} at ${this.o.baseUrl} (${forTerminal(outcome.cause, 60)}).${doubt ? ` The connection broke during ${method} ${path}: it may or may not have been carried out; check before running it again.` : ''}`,
          undefined,
          facts,
        ).about(request);
      case 'unreadable':
        return new ServiceError(`The ${label} answered ${method} ${path} with something mailctl cannot read.`, { status: outcome.status, facts }).about(request);
      case 'answer':
        return this.answerError(facts, outcome.body, e as HTTPError, request);
    }
  }

  /** The plain sentence for an answer the classifier has already judged. Service words are shown only through forTerminal. */
  private answerError(facts: ErrorFacts, body: unknown, e: HTTPError, request: RequestFacts): Error {
    const { method, path } = request;
    const label = SERVICE_LABEL[this.o.service];
    const status = facts.status!;
    const code = facts.serviceCode;
    const raw = describeErrorBody(body).detail;
    const detail = raw ? forTerminal(raw.trim(), MAX_DETAIL_CHARS) : undefined;
    const service = { status, code, body, facts, serviceMessage: raw };
    switch (facts.code) {
      case 'DAILY_LIMIT':
        return new LimitError(`The daily request limit of the ${label} is used up (Limit Exceeded).`, undefined, facts).about(request);
      case 'RATE_LIMITED':
        return new LimitError(`The ${label} kept answering "too many requests" after ${this.o.retryLimit ?? 3} retries.`, undefined, facts).about(request);
      case 'AUTH':
        return new AuthError(`The ${label} refused the API key (Forbidden).`, undefined, facts).about(request);
      default:
        break;
    }
    if (status >= 300 && status < 400) {
      const to = this.redact(e.response.headers.get('location'));
      return new ServiceError(`The ${label} answered ${method} ${path} with a redirect${to ? ` to ${forTerminal(to, 200)}` : ''} (HTTP ${status}); mailctl does not follow redirects, so the API key is never sent to another address.`, service).about({ ...request, problem: 'redirect' });
    }
    const said = `${detail ? `: ${detail}` : ''}${code ? ` [code ${forTerminal(code, 40)}]` : ''}`;
    if (facts.code === 'SERVICE_FAILED') return new ServiceError(endSentence(`The ${label} failed with HTTP ${status} on ${method} ${path}${said}`), service).about(request);
    return new ServiceError(endSentence(`The ${label} refused ${method} ${path} (HTTP ${status})${said}`), service).about(request);
  }
}

/** The transport, tracing each answer (or failure) with the time it really took. */
export function timedFetch(inner: FetchLike, trace: (line: string) => void): FetchLike {
  return async (input, init) => {
    // Read without building a Request: that would take a streamed body from the real call.
    const url = input instanceof Request ? input.url : String(input);
    const what = `${((input instanceof Request ? input.method : init?.method) ?? 'GET').toUpperCase()} ${maskPath(url)}`;
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

/**
 * The largest API answer mailctl reads. The biggest real answers (a page of groups, an event
 * lookup, report links) are a few hundred KiB; anything near this is not the service.
 */
export const MAX_RESPONSE_MIB = 32;
const MAX_RESPONSE_BYTES = MAX_RESPONSE_MIB * 1024 * 1024;
/** Of an error answer only the start matters (its code and message). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The deepest a real answer nests is a handful of levels (an event's mail.variables); past this
 * an answer is refused before it is parsed, so nothing that prints, masks or queries it walks a
 * structure deep enough to overflow the stack. Below redact.ts's own bound, so masking never cuts.
 */
export const MAX_ANSWER_DEPTH = 32;


/** An answer's body did not come whole before its attempt's deadline. */
class BodyTimeoutError extends Error {
  constructor() {
    super('body too slow');
  }
}

/**
 * The body as text, or undefined when it is longer than `max` bytes (reading stops there).
 * When it has not come whole by `deadline` (a Date.now() time) reading stops, the connection is
 * let go, and it throws a BodyTimeoutError.
 */
async function readCapped(res: Response, max: number, deadline: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  let late = false;
  // Cancelling ends the pending read (done) and closes the connection.
  const timer = setTimeout(() => {
    late = true;
    void reader.cancel().catch(() => {});
  }, Math.max(0, deadline - Date.now()));
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw new BodyTimeoutError();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    clearTimeout(timer);
  }
}

/** An error answer's body: parsed JSON, else its text, else undefined. Read once per answer. */
const errorBodies = new WeakMap<Response, Promise<unknown>>();
function errorBodyOf(res: Response, deadline: number): Promise<unknown> {
  let body = errorBodies.get(res);
  if (!body) {
    // A body that does not come in time counts as none: the status alone is judged. One nested
    // past any real answer is kept as the start of its text, never parsed and walked.
    body = readCapped(res, MAX_ERROR_BODY_BYTES, deadline)
      .catch(() => '')
      .then((text) => {
        if (!text) return undefined;
        if (nestedDeeperThan(text, MAX_ANSWER_DEPTH)) return text.slice(0, 200);
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      });
    errorBodies.set(res, body);
  }
  return body;
}
