// Typed errors. Each carries the exit code it maps to and, in `facts`, what a caller may
// decide from: whether the request reached the service, whether the service refused it,
// whether repeating it is safe. src/cli/main.ts is the one place that turns an error into a
// message and an exit code. Commands throw, never exit, and never read an error's words.

export const ExitCode = {
  OK: 0,
  FAILED: 1, // the service refused or failed
  USAGE: 2, // usage or invalid input; nothing was sent
  AUTH: 3, // auth or config: no key, Forbidden
  LIMIT: 4, // rate limit or network: daily cap, unreachable
  PARTIAL: 5, // ran, but some recipients/rows failed
  LOCKED: 6, // another run holds the lock of what this one would work on (report sync's DIR, a journal); nothing done
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Whether a request got to the service: 'no' it certainly did not (nothing left this machine,
 * or the connection was refused); 'maybe' it was sent but no answer came (time-out, connection
 * lost, Ctrl-C mid-request); 'yes' the service answered.
 */
export type Reached = 'no' | 'maybe' | 'yes';

/** Stable, machine-readable names for scripts (`--json` errors carry them as `code`). */
export type ErrorCode =
  | 'USAGE' // bad flags or input; nothing sent
  | 'CONFIG' // no key, unreadable config
  | 'AUTH' // the service refused the key (Forbidden)
  | 'RATE_LIMITED' // per-second limit outlasted the retries
  | 'DAILY_LIMIT' // the daily cap ("Limit Exceeded")
  | 'NETWORK' // could not connect, or the connection broke
  | 'TIMEOUT' // no answer in time
  | 'WAIT_TIMEOUT' // a --wait ran out of --timeout; the operation goes on
  | 'STATE_UNKNOWN' // a --wait could not go on (its status lookups kept failing); the operation's state is unknown and it goes on at the service
  | 'REFUSED' // the service answered with a refusal (4xx)
  | 'SERVICE_FAILED' // the service failed (5xx) or an operation ended in a failed state
  | 'NOT_FOUND' // the service answered that it has no campaign by that code (endpoint 13's empty list)
  | 'BAD_RESPONSE' // an answer that is not what the spec says (not JSON, too large, a redirect)
  | 'PARTIAL'
  | 'INTERRUPTED'
  | 'LOCKED' // another run holds the lock of what this one works on (report sync's directory, a journal)
  | 'INSUFFICIENT_BALANCE' // a send the account balance cannot cover, refused before any send request (exit 2)
  | 'DISK' // the disk refused a write (full, quota, I/O error, read-only); what it held was not acknowledged
  | 'PLAN_REFUSED' // mailctl mcp: a write's confirmation token was refused (unknown, used, expired, other arguments, the plan changed); nothing sent
  | 'NOT_PLANNED' // mailctl mcp: a confirmed write was about to make a request its plan did not show; that request was not sent
  | 'READ_ONLY' // mailctl mcp --read-only: a write tool was called; nothing sent
  | 'FAILED'; // a local failure after work began (a file could not be written…)

export interface ErrorFacts {
  code: ErrorCode;
  reached: Reached;
  /** The service answered and did not carry the request out (4xx, Forbidden, a rate limit). */
  refused: boolean;
  /** Sending the same request again is safe (cannot do it twice) and may succeed later. */
  retryable: boolean;
  /** The service's own error code (e.g. 40001), when it gave one. */
  serviceCode?: string;
  /** The HTTP status, when there was an answer. */
  status?: number;
}

/**
 * The API request an error is about: set by src/api on the errors it throws (`about()`), so the
 * CLI layer (src/cli/error-text.ts) can word the sentence and the hint people read, with the
 * run's own commands, from these and the facts. A wrapper that rewords an error makes a new one
 * without it, and its words stand as given.
 */
export interface RequestFacts {
  service: 'campaign' | 'notify';
  method: string;
  /** The path as the client spells it (src/api), without the query. */
  path: string;
  /**
   * Why an answer could not be used (BAD_RESPONSE): bigger than any real answer, not JSON, a
   * redirect, in no shape its endpoint declares, or nested deeper than any real answer.
   */
  problem?: 'too-large' | 'not-json' | 'redirect' | 'shape' | 'too-deep';
}

/** True when the failed request certainly had no effect at the service: safe to send again. */
export function certainlyNotDone(e: unknown): boolean {
  if (!(e instanceof CliError)) return false;
  return e.facts.reached === 'no' || (e.facts.reached === 'yes' && e.facts.refused);
}

/**
 * The `error` object of a --json document: main's {"error": …} document, and the `error` a
 * command's own document carries when it failed after collecting something (events tail). The
 * service's own words stay exact in serviceMessage (JSON escapes them).
 */
export function errorJson(e: unknown, words?: { message: string; hint?: string }): Record<string, unknown> {
  if (!(e instanceof CliError)) {
    return { code: 'FAILED', message: `unexpected failure: ${e instanceof Error ? e.message : String(e)}`, exitCode: ExitCode.FAILED };
  }
  const { code, serviceCode, status } = e.facts;
  const serviceMessage = (e as { serviceMessage?: unknown }).serviceMessage;
  // `words`: the sentence and hint the CLI layer made of an API error (src/cli/error-text.ts).
  const { message, hint } = words ?? e;
  const endpoint = e.request ? { endpoint: `${e.request.method} ${e.request.path}` } : {};
  return { code, ...(serviceCode ? { serviceCode } : {}), ...(status ? { status } : {}), ...endpoint, message, ...(typeof serviceMessage === 'string' ? { serviceMessage } : {}), hint, exitCode: e.exitCode };
}

/** The facts of any thrown value; a non-CliError is a local bug, and nothing is known of a request. */
export function factsOf(e: unknown): ErrorFacts {
  return e instanceof CliError ? e.facts : { code: 'FAILED', reached: 'maybe', refused: false, retryable: false };
}

export class CliError extends Error {
  readonly exitCode: number;
  /** A second line telling the user what to do next (printed after the message). */
  readonly hint?: string;
  readonly facts: ErrorFacts;
  /** The API request it is about, when src/api threw it (see RequestFacts). */
  request?: RequestFacts;
  /** Without facts, they follow from the exit code; pass the cause's facts when re-wording one. */
  constructor(message: string, exitCode: number, hint?: string, facts?: ErrorFacts) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
    this.facts = facts ?? defaultFacts(exitCode);
  }

  /** Marks the error as being about this API request (src/api); returns it, for `throw x.about(r)`. */
  about(request: RequestFacts): this {
    this.request = request;
    return this;
  }
}

function defaultFacts(exitCode: number): ErrorFacts {
  if (exitCode === ExitCode.USAGE) return { code: 'USAGE', ...LOCAL };
  if (exitCode === ExitCode.AUTH) return { code: 'CONFIG', ...LOCAL };
  if (exitCode === ExitCode.INTERRUPTED) return { code: 'INTERRUPTED', reached: 'maybe', refused: false, retryable: false };
  if (exitCode === ExitCode.PARTIAL) return { code: 'PARTIAL', reached: 'yes', refused: false, retryable: false };
  if (exitCode === ExitCode.LOCKED) return { code: 'LOCKED', ...LOCAL, retryable: true };
  return { code: 'FAILED', reached: 'maybe', refused: false, retryable: false };
}

const LOCAL: Omit<ErrorFacts, 'code'> = { reached: 'no', refused: false, retryable: false };

/** Bad flags, bad input files, anything caught before a request was sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint, { code: 'USAGE', ...LOCAL });
  }
}

/** Missing key, unreadable config (nothing sent), or the service said Forbidden (facts say so). */
export class AuthError extends CliError {
  constructor(message: string, hint?: string, facts?: Partial<ErrorFacts>) {
    super(message, ExitCode.AUTH, hint, { code: 'CONFIG', ...LOCAL, ...facts });
  }
}

/**
 * Daily cap, per-second limit that outlasted our retries, the network, or a wait that ran out.
 * Without facts it is a local time limit: no request is in doubt.
 */
export class LimitError extends CliError {
  constructor(message: string, hint?: string, facts?: Partial<ErrorFacts>) {
    super(message, ExitCode.LIMIT, hint, { code: 'WAIT_TIMEOUT', ...LOCAL, ...facts });
  }
}

/** The service answered and refused, or the operation ended in a failed state. */
export class ServiceError extends CliError {
  readonly status?: number;
  /** The service's own code (the same as facts.serviceCode). */
  readonly code?: string;
  readonly body?: unknown;
  /** The service's own words, exact (for --json); the message shows them only made safe to print. */
  readonly serviceMessage?: string;
  constructor(message: string, opts: { status?: number; code?: string; body?: unknown; hint?: string; facts?: Partial<ErrorFacts>; serviceMessage?: string } = {}) {
    const refused = opts.status !== undefined && opts.status >= 400 && opts.status < 500;
    super(message, ExitCode.FAILED, opts.hint, {
      code: refused ? 'REFUSED' : 'SERVICE_FAILED',
      reached: 'yes',
      refused,
      retryable: false,
      serviceCode: opts.code,
      status: opts.status,
      ...opts.facts,
    });
    this.status = opts.status;
    this.code = opts.code;
    this.body = opts.body;
    this.serviceMessage = opts.serviceMessage;
  }
}

/** The operation ran; some items failed. The command has already printed its result. */
export class PartialError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.PARTIAL, hint, { code: 'PARTIAL', reached: 'yes', refused: false, retryable: false });
  }
}

/** Ctrl-C. The hint says how to pick up where we stopped, when that is possible. */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted.', hint?: string, facts?: Partial<ErrorFacts>) {
    super(message, ExitCode.INTERRUPTED, hint, { code: 'INTERRUPTED', reached: 'maybe', refused: false, retryable: false, ...facts });
  }
}

/** A command that wants a specific exit code after printing its own output (e.g. `webhook verify` → 1). */
export class SilentExit extends CliError {
  constructor(exitCode: number) {
    super('', exitCode, undefined, { code: exitCode === ExitCode.PARTIAL ? 'PARTIAL' : 'FAILED', reached: 'yes', refused: false, retryable: false });
  }
}
