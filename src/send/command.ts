// What every batch command shares (`send`, `send sms`, `automation trigger|terminate`): the
// --journal / --resume / --dry-run / --concurrency / --settle-after flags (declared in
// src/send/batch-options.ts, their types derived from there), and the shape of a
// run — `--resume` picks up a journal (and refuses message flags, which the journal already
// fixes); otherwise the command builds a plan from its flags and the run starts.
import type { Context } from '../run/context.js';
import { UsageError } from '../core/errors.js';
import { suggest } from '../core/suggest.js';
import { parseWhole } from '../core/parse-whole.js';
import { parseDuration } from '../core/duration.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './batches.js';
import type { NewPlan } from './journal.js';
import { DEFAULT_SETTLE_AFTER_MS } from './settle.js';
import { resumeRun, startRun, type ResumeScope, type SessionOptions } from './session.js';
import type { BatchFlags } from './batch-options.js';

export type { BatchFlags } from './batch-options.js';

export function sessionOptions(o: BatchFlags, defaultConcurrency = DEFAULT_CONCURRENCY): SessionOptions {
  return {
    concurrency: o.concurrency === undefined ? defaultConcurrency : parseWhole(o.concurrency, '--concurrency', 1, MAX_CONCURRENCY),
    settleAfterMs: o.settleAfter === undefined ? DEFAULT_SETTLE_AFTER_MS : parseDuration(o.settleAfter, '--settle-after'),
    dryRun: o.dryRun,
    journal: o.journal,
    ignoreBalance: o.ignoreBalance,
    forecast: o.forecast,
    yes: o.yes,
  };
}

/** The command that weighs this run against the balance and sends nothing: the same flags and --forecast. */
export function forecastCommand(ctx: Context, o: BatchFlags & Record<string, unknown>, messageFlags: Record<string, string>, verb: string[]): string {
  if (o.resume !== undefined) return suggest(ctx, 'send', '--resume', ...(typeof o.resume === 'string' ? [o.resume] : []), '--forecast');
  const words = [...verb];
  for (const [key, flag] of Object.entries(messageFlags)) {
    const v = o[key];
    if (v === undefined || v === false) continue;
    if (v === true) words.push(flag);
    else for (const x of Array.isArray(v) ? v : [v]) words.push(flag, String(x));
  }
  return suggest(ctx, ...words, '--forecast');
}

/** --resume takes everything from the journal; message flags next to it are a mistake. */
export function refuseWithResume(o: Record<string, unknown>, flags: Record<string, string>): void {
  const given = Object.entries(flags).filter(([k]) => o[k] !== undefined).map(([, f]) => f);
  if (given.length) throw new UsageError(`--resume takes the message and recipients from the journal; leave out ${given.join(', ')}.`);
  if (o.journal !== undefined) throw new UsageError('--journal names the journal of a new run; give the journal to resume as --resume FILE.');
}

export async function runBatchCommand<O extends BatchFlags>(
  ctx: Context, opts: O, messageFlags: Record<string, string>, scope: ResumeScope,
  buildPlan: (ctx: Context, opts: O) => Promise<NewPlan>, defaultConcurrency?: number,
  /** `send`'s words (`send`, `send sms`), for the --forecast command a dry run suggests. */
  forecastVerb?: string[],
): Promise<void> {
  // A dry run makes no request at all; --forecast makes exactly one. Both at once is a mistake.
  if (opts.forecast && opts.dryRun) throw new UsageError('--forecast reads the balance, and --dry-run reads nothing; give one of them.', '--dry-run shows the requests a send would make; --forecast reads only the balance and says whether it covers the send.');
  const session = sessionOptions(opts, defaultConcurrency);
  if (forecastVerb) session.forecastCommand = forecastCommand(ctx, opts as O & Record<string, unknown>, messageFlags, forecastVerb);
  if (opts.resume !== undefined) {
    refuseWithResume(opts as Record<string, unknown>, messageFlags);
    return resumeRun(ctx, opts.resume, session, scope);
  }
  await startRun(ctx, await buildPlan(ctx, opts), session);
}
