// What a store failure means to the run that met it. Opening: a store that cannot be opened is
// bad input (exit 2: the path, the URL) or unreachable (exit 4) or refused credentials (exit 3),
// each one sentence naming the store as shown (never with its password). Writing: the listener
// answers 503 for the batch (the service retries), and says why once.
import { AuthError, CliError, ExitCode, LimitError, UsageError } from '../core/errors.js';
import { DiskError } from '../fs/disk-error.js';

/** A store made by a newer mailctl, or something else at that place. */
export class StoreError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.FAILED, hint, { code: 'FAILED', reached: 'no', refused: false, retryable: false });
  }
}

const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);

/** A PostgreSQL failure at open as the run's error. `shown` names the store. */
export function postgresOpenError(e: unknown, shown: string): unknown {
  if (e instanceof CliError) return e;
  const code = String((e as { code?: unknown })?.code ?? '');
  const message = e instanceof Error ? e.message : String(e);
  if (NETWORK.has(code)) return new LimitError(`Could not reach the PostgreSQL store ${shown} (${code}).`, 'Check the host and port, and that PostgreSQL is running and accepts connections from here.', { code: 'NETWORK', reached: 'no' });
  // 28P01 wrong password, 28000 no such role / not allowed by pg_hba.conf.
  if (code === '28P01' || code === '28000') return new AuthError(`The PostgreSQL store ${shown} refused the login (${code}: ${message}).`, 'Check the user in the URL and the password (PGPASSWORD, or ~/.pgpass).');
  // 53100 disk_full: the server's disk, not bad input. The DISK error names the store; main adds the command to run again.
  if (code === '53100') return new DiskError(shown, 'ENOSPC', undefined, code);
  // 3D000 no such database.
  if (code === '3D000') return new UsageError(`The PostgreSQL store ${shown} has no such database (${message}).`, 'Create it first (createdb NAME), or name another in the URL.');
  if (/^42/.test(code)) return new StoreError(`The PostgreSQL store ${shown} refused the store's tables (${code}: ${message}).`, 'The user needs the right to create tables in that database (or have the tables made by one who has).');
  return new StoreError(`Could not open the PostgreSQL store ${shown}: ${message}${code ? ` (${code})` : ''}.`);
}

/** Errors worth one more try of the same batch: a deadlock or serialisation failure between listeners. */
export function transientPostgres(e: unknown): boolean {
  const code = String((e as { code?: unknown })?.code ?? '');
  return code === '40P01' || code === '40001';
}
