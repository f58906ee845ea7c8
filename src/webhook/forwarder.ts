// Forwards stored webhook events to the developer's app, after the service has had its 200 (the
// listener stores and answers first; nothing here is on the request path). A forward that fails
// for a reason that may pass — no connection, no answer in time, 408, 429, 5xx — is retried with
// exponential backoff and jitter (ky's retry, as the API client uses it), within a number of
// attempts and a total time. Any other answer is the app refusing the event: not retried.
//
// Nothing is lost and memory stays bounded: at most `concurrency` forwards are under way at once
// (a try in flight or a wait before the next: each holds some 50 KB of request state, and a
// connection to the app), the others wait in line holding only their body and line; at most
// `queue` events (and `queueBytes` of them) are held in all. An event that arrives when that is
// full, one whose forward finally failed, and every one still held when the listener stops, is
// appended to the failed-forwards file as the very line the events file got, so `webhook replay`
// can send it again.
import ky, { HTTPError, TimeoutError } from 'ky';
import type { FetchLike } from '../api/http.js';
import { transportCause } from '../api/classify.js';

export interface ForwardPolicy {
  /** Tries per event, the first included. */
  attempts: number;
  /** The wait before the first retry; each next wait doubles, each is cut at random to 50–100 %. */
  baseDelayMs: number;
  /** No wait is longer (a Retry-After from a 429 or 503 included). */
  maxDelayMs: number;
  /** From the first try: an event still not forwarded after this long is kept, not retried. */
  totalMs: number;
  /** One try without an answer for this long counts as failed. */
  attemptTimeoutMs: number;
  /** Events held at once (in flight or waiting to retry); more go straight to the failed file. */
  queue: number;
  /** Bytes held at once (body and stored line); more go straight to the failed file. */
  queueBytes: number;
  /** Forwards under way at once (trying, or waiting to retry); the rest wait in line, untried. */
  concurrency: number;
}

export interface ForwardJob {
  url: string;
  /** `bounce`, `sms-bounce`: the route the event took. */
  route: string;
  id: string;
  /** The body exactly as received. */
  raw: Buffer;
  contentType?: string;
  signature: { name: string; value: string };
  /** The events file's line for this event (JSON, no newline): what the failed file gets. */
  line: string;
}

export interface ForwardOutcome {
  job: ForwardJob;
  ok: boolean;
  /** Tries made (0: never tried — the queue was full, or the listener was stopping). */
  attempts: number;
  /** `HTTP 201`, `HTTP 500`, `ECONNREFUSED`, `the forward queue is full`… */
  detail: string;
  /** Not forwarded and written to the failed file (false if that write failed). */
  kept: boolean;
}

export interface ForwardStats {
  forwarded: number;
  /** Retries made (tries after the first), over all events. */
  retried: number;
  /** Events not forwarded: refused, failed after the retries, queue full, or stopped. */
  forwardFailed: number;
  /** Of those, the ones written to the failed file. */
  kept: number;
}

export interface ForwarderOptions {
  fetch: FetchLike;
  policy: ForwardPolicy;
  stats: ForwardStats;
  /** Appends one line to the failed file (and syncs it); throws if it cannot. */
  keep: (line: string) => void;
  onRetry?: (job: ForwardJob, attempt: number, detail: string) => void;
  onOutcome?: (o: ForwardOutcome) => void;
}

interface Held {
  job: ForwardJob;
  size: number;
  /** In line (not started), in flight, or waiting for the next try. */
  phase: 'line' | 'flight' | 'backoff';
  attempts: number;
  last?: string;
  /** Made when the forward starts: one waiting in line holds no more than its job. */
  ac: AbortController | undefined;
  done?: Promise<void>;
}

/** 408 and 429 say "later"; 5xx "not now". Every other answer is the app's decision. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}
const RETRY_STATUSES = [408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

const STOPPED = Symbol('stopped');
const GAVE_UP = Symbol('gave up');

export class Forwarder {
  private readonly held = new Set<Held>();
  /** Held but not started, oldest first, from `head` on (shift() on thousands would be slow). */
  private line: Held[] = [];
  private head = 0;
  private active = 0;
  private heldBytes = 0;
  private stopping = false;

  constructor(private readonly o: ForwarderOptions) {}

  /** Starts forwarding `job` (or keeps it at once when too much is held); never throws. */
  submit(job: ForwardJob): void {
    const size = job.raw.length + job.line.length;
    const { queue, queueBytes } = this.o.policy;
    if (this.stopping) return this.finish(job, false, 0, 'the listener was stopping');
    // One event is always let in, however big (up to --max-body): the bound is on what piles up.
    if (this.held.size >= queue || (this.held.size > 0 && this.heldBytes + size > queueBytes)) {
      return this.finish(job, false, 0, `the forward queue is full (${this.held.size} events, ${Math.ceil(this.heldBytes / 1024)} KiB waiting)`);
    }
    const h: Held = { job, size, phase: 'line', attempts: 0, ac: undefined };
    this.held.add(h);
    this.heldBytes += size;
    this.line.push(h);
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.active < this.o.policy.concurrency && this.head < this.line.length) {
      const h = this.line[this.head++];
      if (this.head === this.line.length || this.head > 1024) {
        this.line = this.line.slice(this.head);
        this.head = 0;
      }
      this.active++;
      h.phase = 'flight';
      h.ac = new AbortController();
      h.done = this.run(h, h.ac)
        // run() handles every failure of the forward; this only keeps a throwing callback from
        // becoming an unhandled rejection that would end the listener.
        .catch(() => {})
        .finally(() => {
          this.active--;
          this.release(h);
          this.pump();
        });
    }
  }

  private release(h: Held): void {
    this.held.delete(h);
    this.heldBytes -= h.size;
  }

  /**
   * Stops: events in line or waiting to retry are kept at once; forwards in flight get
   * `graceMs` to finish, then are cut off and kept too (the app may have received those:
   * replays carry the same message id and event, which a consumer must treat as a repeat).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const waiting = this.line.slice(this.head);
    this.line = [];
    this.head = 0;
    for (const h of waiting) {
      this.release(h);
      this.finish(h.job, false, 0, 'the listener was stopping');
    }
    for (const h of this.held) if (h.phase === 'backoff') h.ac?.abort(STOPPED);
    const all = () => Promise.allSettled([...this.held].map((h) => h.done));
    if (this.held.size) await Promise.race([all(), new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const h of this.held) h.ac?.abort(STOPPED);
    await all();
  }

  private async run(h: Held, ac: AbortController): Promise<void> {
    const { job } = h;
    const p = this.o.policy;
    const budget = setTimeout(() => ac.abort(GAVE_UP), p.totalMs);
    budget.unref?.();
    let status: number;
    try {
      const res = await ky.post(job.url, {
        fetch: this.o.fetch,
        body: new Uint8Array(job.raw),
        headers: { 'content-type': job.contentType ?? 'application/json', [job.signature.name]: job.signature.value },
        signal: ac.signal,
        timeout: p.attemptTimeoutMs,
        throwHttpErrors: true,
        retry: {
          limit: p.attempts - 1,
          methods: ['post'],
          statusCodes: RETRY_STATUSES,
          afterStatusCodes: [429, 503],
          retryOnTimeout: true,
          delay: (n) => p.baseDelayMs * 2 ** (n - 1),
          jitter: (d) => d * (0.5 + Math.random() * 0.5),
          backoffLimit: p.maxDelayMs,
          maxRetryAfter: p.maxDelayMs,
          shouldRetry: ({ error }) => {
            h.last = describe(error, p);
            if (ac.signal.aborted || this.stopping) return false;
            if (error instanceof HTTPError && !retryableStatus(error.response.status)) return false;
            h.phase = 'backoff';
            this.o.onRetry?.(job, h.attempts, h.last);
            // undefined: ky's own rules, which honour a Retry-After on 429 and 503.
            return undefined;
          },
        },
        hooks: {
          beforeRequest: [
            () => {
              h.phase = 'flight';
              h.attempts++;
            },
          ],
          beforeRetry: [
            () => {
              this.o.stats.retried++;
            },
          ],
          beforeError: [
            (error) => {
              // Only the status matters; let the connection go.
              void error.response.body?.cancel().catch(() => {});
              return error;
            },
          ],
        },
      });
      await res.arrayBuffer().catch(() => undefined);
      status = res.status;
    } catch (e) {
      const reason = ac.signal.aborted ? ac.signal.reason : undefined;
      let detail: string;
      if (reason === STOPPED) {
        if (h.attempts === 0) detail = 'the listener was stopping';
        else if (h.phase === 'flight') detail = `stopped during try ${h.attempts} (the app may have it)`;
        else detail = `stopped while waiting to retry (try ${h.attempts}: ${h.last})`;
      } else if (reason === GAVE_UP) {
        detail = `gave up after ${seconds(p.totalMs)} and ${h.attempts} tr${h.attempts === 1 ? 'y' : 'ies'}${h.last ? ` (last: ${h.last})` : ''}`;
      } else {
        const d = describe(e, p);
        if (e instanceof HTTPError && !retryableStatus(e.response.status)) detail = `${d}: refused by the app, not retried`;
        else detail = h.attempts > 1 ? `${d} after ${h.attempts} tries` : d;
      }
      return this.finish(job, false, h.attempts, detail);
    } finally {
      clearTimeout(budget);
    }
    this.o.stats.forwarded++;
    this.o.onOutcome?.({ job, ok: true, attempts: h.attempts, detail: `HTTP ${status}`, kept: false });
  }

  private finish(job: ForwardJob, ok: false, attempts: number, detail: string): void {
    this.o.stats.forwardFailed++;
    let kept = true;
    try {
      this.o.keep(job.line);
      this.o.stats.kept++;
    } catch {
      kept = false;
    }
    this.o.onOutcome?.({ job, ok, attempts, detail, kept });
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** One failed try in a few words, for the operator (decisions are made on the error's type). */
function describe(e: unknown, p: ForwardPolicy): string {
  if (e instanceof HTTPError) return `HTTP ${e.response.status}`;
  if (e instanceof TimeoutError) return `no answer within ${seconds(p.attemptTimeoutMs)}`;
  // fetch's own message is "fetch failed"; what went wrong is in its cause chain (ECONNREFUSED…),
  // read as the API client reads it.
  const code = transportCause(e);
  if (code && code !== 'network error') return code;
  const cause = (e as { cause?: { message?: unknown } })?.cause;
  if (cause && typeof cause.message === 'string' && cause.message) return cause.message;
  return e instanceof Error ? e.message || e.name : 'failed';
}
