// The ONE place that decides what a failed request means: whether it reached the service,
// whether the service refused it, whether sending it again is safe. A pure function of what
// is known about the attempt — the method and whether the caller declared it repeatable,
// whether an answer came, its status and the SHAPE of its body. Both the retry decision
// (http.ts `shouldRetry`, files.ts uploads) and the facts of the thrown error come from here,
// so they cannot disagree. Message text is never consulted, with one exception that is a
// shape, not words: the documented bodies whose whole `message` is a fixed value
// (`{"message":"too many requests"}`, `{"message":"Limit Exceeded"}` — decisions row 5;
// `{"message":"Forbidden"}` — spec 000 §5 and 001 §5), compared whole, never searched in.
import type { ErrorFacts } from '../core/errors.js';

export type Outcome =
  /** The service answered with a status that is not 2xx. `body`: parsed JSON, else the text, else undefined. */
  | { kind: 'answer'; status: number; body: unknown }
  /** A 2xx answer mailctl could not use (not JSON, over the size cap): the work was probably done. */
  | { kind: 'unreadable'; status: number }
  /** No answer in time. */
  | { kind: 'timeout' }
  /** The transport failed; `cause` is the errno or undici code ("ECONNREFUSED", "UND_ERR_SOCKET"). */
  | { kind: 'network'; cause: string }
  /** Ctrl-C while the request was on its way. */
  | { kind: 'interrupted' };

export interface Attempt {
  method: string;
  /** The caller declared the request safe to send twice (upserts, reads by POST, a PUT of the same file). */
  idempotent?: boolean;
  /** No key went with it (upload addresses, download links): a 401/403 refuses the address, not a key. */
  keyless?: boolean;
  outcome: Outcome;
}

/** Methods that never change anything: always safe to repeat. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Connection failures that prove no byte of the request reached the service. */
export const NEVER_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The documented bodies known by their whole `message` value. */
type KnownBody = 'daily-limit' | 'per-second-limit' | 'forbidden';
const KNOWN_MESSAGES: Record<string, KnownBody> = {
  'limit exceeded': 'daily-limit',
  'too many requests': 'per-second-limit',
  forbidden: 'forbidden',
};

/** Which documented body this is, if any: the whole `message` value, trimmed, any case. */
function knownBody(body: unknown): KnownBody | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const m = (body as { message?: unknown }).message;
  return typeof m === 'string' ? KNOWN_MESSAGES[m.trim().toLowerCase()] : undefined;
}

/** The service's own error code: `code` (spec 000 §7) or `errorCode` (decisions row 6). */
function serviceCodeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as { code?: unknown; errorCode?: unknown };
  const c = b.code ?? b.errorCode;
  return typeof c === 'string' || typeof c === 'number' ? String(c) : undefined;
}

/**
 * `{success: false}`: the notification service's documented answer for a failed webhook
 * deletion (spec 001 §7: "webhook deletion failure | 500 `{success: false}`"). It is the
 * service's decision, not a passing fault: asking again gets the same answer.
 */
function isDefiniteFailure(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { success?: unknown }).success === false;
}

/** Whether sending this request twice cannot do its work twice. */
export function isRepeatable(a: Pick<Attempt, 'method' | 'idempotent'>): boolean {
  return !!a.idempotent || SAFE_METHODS.has(a.method.toUpperCase());
}

/**
 * The facts of a failed attempt. `retryable` is the retry decision itself: a repeatable request
 * is retried after a fault that may pass (5xx, network, time-out, rate limit); a request that is
 * not repeatable only when it certainly had no effect (never connected, or refused by the
 * per-second gate before any work).
 */
export function classify(a: Attempt): ErrorFacts {
  const repeatable = isRepeatable(a);
  const o = a.outcome;
  switch (o.kind) {
    case 'interrupted':
      return { code: 'INTERRUPTED', reached: 'maybe', refused: false, retryable: false };
    case 'timeout':
      return { code: 'TIMEOUT', reached: 'maybe', refused: false, retryable: repeatable };
    case 'network': {
      const never = NEVER_CONNECTED.has(o.cause);
      return { code: 'NETWORK', reached: never ? 'no' : 'maybe', refused: false, retryable: never || repeatable };
    }
    case 'unreadable':
      return { code: 'BAD_RESPONSE', reached: 'yes', refused: false, retryable: false, status: o.status };
    case 'answer':
      return classifyAnswer(o.status, o.body, repeatable, !a.keyless);
  }
}

function classifyAnswer(status: number, body: unknown, repeatable: boolean, keyed: boolean): ErrorFacts {
  const serviceCode = serviceCodeOf(body);
  const answered = { reached: 'yes' as const, status, ...(serviceCode ? { serviceCode } : {}) };
  const known = knownBody(body);
  // The limits first: decisions row 5 says they are known by their body whatever the status.
  // Daily: never retried, it only burns the next day's budget.
  if (known === 'daily-limit') return { ...answered, code: 'DAILY_LIMIT', refused: true, retryable: false };
  // Per-second: the gate refused before any work, so even a send may go again.
  if (known === 'per-second-limit' || status === 429) return { ...answered, code: 'RATE_LIMITED', refused: true, retryable: true };
  // A 403 with a service code is a refusal of the operation (spec 000 §7: 403 code "40303").
  if (keyed && (known === 'forbidden' || status === 401 || (status === 403 && !serviceCode))) return { ...answered, code: 'AUTH', refused: true, retryable: false };
  // The API is never redirected; mailctl does not follow (the key would go along).
  if (status >= 300 && status < 400) return { ...answered, code: 'BAD_RESPONSE', refused: true, retryable: false };
  // The service gave up waiting for the request before acting on it.
  if (status === 408) return { ...answered, code: 'TIMEOUT', refused: true, retryable: true };
  if (status >= 400 && status < 500) return { ...answered, code: 'REFUSED', refused: true, retryable: false };
  if (status >= 500) {
    // A 5xx may come after part of the work: only a repeatable request is safe again, and
    // whatever code or words it carries (a status read that fails with a service code still
    // may succeed on the next try). The documented definite failure is the exception.
    return { ...answered, code: 'SERVICE_FAILED', refused: false, retryable: repeatable && !isDefiniteFailure(body) };
  }
  return { ...answered, code: 'BAD_RESPONSE', refused: false, retryable: false };
}

/**
 * The transport failure an error stands for, by its code: the errno or undici code found in its
 * cause chain (Node's fetch wraps each as TypeError("fetch failed", {cause})), or in the
 * attempts of an AggregateError (a host with several addresses, each refused: Node tries them
 * side by side), 'network error' for a wrapped failure without one, undefined when it is not a
 * transport failure at all.
 */
export function transportCause(e: unknown): string | undefined {
  // Breadth first: the outermost code is the one that says what happened.
  let level: unknown[] = [e];
  for (let depth = 0; depth < 6 && level.length; depth++) {
    const next: unknown[] = [];
    for (const cur of level) {
      if (!cur || typeof cur !== 'object') continue;
      const c = (cur as { code?: unknown }).code;
      if (typeof c === 'string' && /^(E[A-Z]+|UND_ERR)/.test(c)) return c;
      next.push((cur as { cause?: unknown }).cause);
      const errors = (cur as { errors?: unknown }).errors;
      if (Array.isArray(errors)) next.push(...errors.slice(0, 8));
    }
    level = next;
  }
  return e instanceof TypeError && (e as { cause?: unknown }).cause !== undefined ? 'network error' : undefined;
}

