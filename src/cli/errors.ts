// Typed errors. Each carries the exit code it maps to; src/cli/main.ts is the one
// place that turns an error into a message and an exit code. Commands throw, never exit.

export const ExitCode = {
  OK: 0,
  FAILED: 1, // the service refused or failed
  USAGE: 2, // usage or invalid input; nothing was sent
  AUTH: 3, // auth or config: no key, Forbidden
  LIMIT: 4, // rate limit or network: daily cap, unreachable
  PARTIAL: 5, // ran, but some recipients/rows failed
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  readonly exitCode: number;
  /** A second line telling the user what to do next (printed after the message). */
  readonly hint?: string;
  constructor(message: string, exitCode: number, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad flags, bad input files, anything caught before a request was sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}

/** Missing key, unreadable config, or the service said Forbidden. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.AUTH, hint);
  }
}

/** Daily cap, per-second limit that outlasted our retries, or the network. */
export class LimitError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.LIMIT, hint);
  }
}

/** The service answered and refused, or the operation ended in a failed state. */
export class ServiceError extends CliError {
  readonly status?: number;
  readonly code?: string;
  readonly body?: unknown;
  constructor(message: string, opts: { status?: number; code?: string; body?: unknown; hint?: string } = {}) {
    super(message, ExitCode.FAILED, opts.hint);
    this.status = opts.status;
    this.code = opts.code;
    this.body = opts.body;
  }
}

/** The operation ran; some items failed. The command has already printed its result. */
export class PartialError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.PARTIAL, hint);
  }
}

/** Ctrl-C. The hint says how to pick up where we stopped, when that is possible. */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted.', hint?: string) {
    super(message, ExitCode.INTERRUPTED, hint);
  }
}

/** A command that wants a specific exit code after printing its own output (e.g. `webhook verify` → 1). */
export class SilentExit extends CliError {
  constructor(exitCode: number) {
    super('', exitCode);
  }
}
