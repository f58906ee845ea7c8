// One batch run — transactional email or SMS (`send`), or automation events (`automation
// trigger|terminate`): a new run (journal created, then batches sent) or a resume (journal
// replayed, in-doubt recipients settled by the event lookup where the kind has one, the rest
// sent). One mechanism for every kind; what differs lives in ./kinds.ts.
import type { Context } from '../run/context.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { sameCommand, suggest } from '../core/suggest.js';
import { DiskError } from '../fs/append-whole.js';
import { plural } from '../core/human.js';
import { forTerminal } from '../core/sanitize.js';
import { printDryRun } from '../run/output/dry-run.js';
import { chunk } from './batches.js';
import { applySettlement, isDone, Journal, journalPrefix, keyOf, latestUnfinished, newJournalPath, nextBatchNumber, pruneJournals, replay, unfinishedWithSamePlan, type JournalRecord, type Kind, type NewPlan, type PlanRecord, type RecipientState, type WireRecipient } from './journal.js';
import { KIND } from './kinds.js';
import { checkForecast, forecastOnly } from './forecast.js';
import { asksFirst, confirmSend } from './confirm.js';
import { progressBar } from './progress.js';
import { finish, printNext, printSummary, resumeCommand, summarise, verbOf } from './report.js';
import { sendPending } from './runner.js';
import { settleDoubts } from './settle.js';
import { accountFor, checkAccount, currentAccount, resumeThrough, sameRun, serviceOf } from './account.js';

export interface SessionOptions {
  concurrency: number;
  settleAfterMs: number;
  dryRun?: boolean;
  /** --journal FILE for a new run. */
  journal?: string;
  /** Send even when the balance cannot cover it (decisions row P8). */
  ignoreBalance?: boolean;
  /** `send --forecast`: read the balance, print the forecast, send and write nothing. */
  forecast?: boolean;
  /** The pasteable --forecast command of this run, which a dry run suggests. */
  forecastCommand?: string;
  /** --yes: a large send does not ask first on a terminal (./confirm.ts). */
  yes?: boolean;
}

/** Which journals a command may resume: `send` takes email and SMS, `automation trigger` TRIGGER journals. */
export interface ResumeScope {
  kinds: readonly Kind[];
  event?: 'TRIGGER' | 'TERMINATE';
}

/**
 * --dry-run: the forecast, then every batch handed to the same client method a real run uses, one
 * after another, over the recording transport (src/api/recorder.ts): each request exactly as it
 * would go out, none sent, no journal written.
 */
export async function dryRun(ctx: Context, plan: NewPlan, wires: WireRecipient[], o: SessionOptions, forecastOf = wires): Promise<void> {
  const forecast = await checkForecast(ctx, plan, forecastOf, o);
  const { send } = await clientsFor(ctx, plan);
  for (const recipients of chunk(wires, plan.batchSize)) await send({ ...plan.message, recipients });
  await printDryRun(ctx, forecast ? { forecast } : {});
}

export async function startRun(ctx: Context, plan: NewPlan, o: SessionOptions): Promise<void> {
  warnIfUnfinished(ctx, plan);
  if (o.dryRun) return dryRun(ctx, plan, plan.recipients, o);
  const clients = await clientsFor(ctx, plan); // fails on a missing key before a journal is written
  if (o.forecast) return forecastOnly(ctx, plan, plan.recipients, o);
  // Refused before the journal exists: a run the balance cannot cover leaves nothing to resume.
  await checkForecast(ctx, plan, plan.recipients, o);
  // Last, before the journal: a "no" leaves nothing to resume.
  if (!o.yes && ctx.io.canPrompt && asksFirst(plan)) await confirmSend(ctx, plan);
  pruneJournals(ctx.configDir, ctx.clock.now());
  const file = o.journal ?? newJournalPath(ctx.configDir, plan, ctx.clock.now());
  // Where this run sends, so a resume can refuse to go anywhere else (./account.ts).
  const recorded: PlanRecord = { ...plan, account: await accountFor(ctx, plan.kind) };
  let journal: Journal;
  try {
    journal = Journal.create(file, recorded, { userPath: o.journal !== undefined, resumeCommand: resumeCommand(ctx, plan, file) });
  } catch (e) {
    // No journal, so nothing was sent and there is nothing to resume: the same command starts afresh.
    if (e instanceof DiskError) throw e.withHint(`Nothing was sent. ${e.fix}, then run the command again: ${sameCommand(ctx)}`);
    throw e;
  }
  await execute(ctx, { journal, plan: recorded, records: [recorded], ...clients }, o);
}

export async function resumeRun(ctx: Context, given: string | true, o: SessionOptions, scope: ResumeScope): Promise<void> {
  const file = typeof given === 'string' ? given : await latestOfThisRun(ctx, scope);
  if (o.forecast) {
    // Read-only like a dry run; only the balance is read.
    const { plan, records } = Journal.read(file);
    checkScope(ctx, plan, file, scope);
    await checkAccount(ctx, plan, file);
    await clientsFor(ctx, plan);
    return forecastOnly(ctx, plan, notYetSent(plan, replay(plan, records)), { ...o, resume: true });
  }
  if (o.dryRun) {
    // Read-only: no lock file, no repair of a torn line, nothing written anywhere.
    const { plan, records } = Journal.read(file);
    checkScope(ctx, plan, file, scope);
    await checkAccount(ctx, plan, file);
    const states = replay(plan, records);
    const pending = plan.recipients.filter((r) => states.get(keyOf(plan, r))?.state === 'pending');
    const unsent = notYetSent(plan, states);
    const doubt = count(states, 'doubt');
    if (doubt) {
      const then = KIND[plan.kind].lookup ? 'a real resume looks them up in the event log first and sends only those proved not sent' : 'a resume never sends them again (automation has no event log to check them against)';
      ctx.io.info(`${plural(doubt, 'recipient is', 'recipients are')} in doubt; ${then}.`);
    }
    if (!pending.length) {
      ctx.io.info('Dry run: nothing would be sent; no recipient of this journal is waiting to be sent.');
      if (ctx.io.json) await printDryRun(ctx);
      return;
    }
    return dryRun(ctx, plan, pending, o, unsent);
  }
  const peek = Journal.read(file);
  checkScope(ctx, peek.plan, file, scope);
  await checkAccount(ctx, peek.plan, file);
  const clients = await clientsFor(ctx, peek.plan);
  if (!isDone(peek.records)) {
    const unsent = notYetSent(peek.plan, replay(peek.plan, peek.records));
    if (unsent.length) await checkForecast(ctx, peek.plan, unsent, { ...o, resume: true });
  }
  let opened: ReturnType<typeof Journal.open>;
  try {
    opened = Journal.open(file);
  } catch (e) {
    if (e instanceof DiskError) throw e.withHint(`Nothing more was sent. ${e.fix}, then run ${resumeCommand(ctx, peek.plan, file)} again.`);
    throw e;
  }
  const { journal, plan, records, torn } = opened;
  if (torn) ctx.io.warn(`The last line of ${file} was cut short (the run was killed while writing it); it is ignored and removed from the file.`);
  const what = plan.kind === 'automation' ? `the automation ${verbOf(plan)} run` : plan.kind === 'email' ? 'the email send' : 'the SMS send';
  ctx.io.info(`Resuming ${what} of ${plan.createdAt} (${plural(plan.recipients.length, 'recipient')}) from ${file}`);
  await execute(ctx, { journal, plan, records, ...clients }, o);
}

/**
 * A bare `--resume`: the latest unfinished journal of this command whose profile and base URL
 * are this run's (or that records none). Others are passed over, and the user is told so.
 */
async function latestOfThisRun(ctx: Context, scope: ResumeScope): Promise<string> {
  const command = scope.kinds.includes('automation') ? ['automation', scope.event === 'TERMINATE' ? 'terminate' : 'trigger'] : ['send'];
  const here = await currentAccount(ctx, serviceOf(scope.kinds[0]));
  const prefixes = scope.kinds.map((k) => journalPrefix(k, k === 'automation' ? scope.event ?? 'TRIGGER' : undefined));
  const { file, passedOver } = latestUnfinished(ctx.configDir, prefixes, (plan) => sameRun(here, plan));
  const others = passedOver.length ? `${plural(passedOver.length, 'unfinished run')} of another profile or service ${passedOver.length === 1 ? 'is' : 'are'} not considered` : '';
  if (file) {
    if (others) ctx.io.info(`${others[0].toUpperCase()}${others.slice(1)}.`);
    return file;
  }
  if (!others) throw new UsageError(`There is no unfinished ${command.join(' ')} run to resume.`, `Give the journal file: ${suggest(ctx, ...command, '--resume', 'FILE')} (a run prints its journal path when it ends).`);
  const [latest] = passedOver;
  throw new UsageError(
    `There is no unfinished ${command.join(' ')} run of profile "${here.profile}" at ${forTerminal(here.url, 200)} to resume; ${others}.`,
    `To resume the latest of them through the account it was sent with: ${resumeThrough(ctx, latest.plan, latest.file, 'url')}`,
  );
}

/**
 * The same message to the same recipients as a run that never finished: the operator probably
 * meant to resume it (a new run sends again to everyone that one reached). Only a warning — a
 * deliberate second send is allowed — naming the journal and the command that finishes it.
 */
function warnIfUnfinished(ctx: Context, plan: NewPlan): void {
  const file = unfinishedWithSamePlan(ctx.configDir, plan);
  if (!file) return;
  const what = plan.kind === 'automation' ? `automation ${verbOf(plan)}` : plan.kind === 'email' ? 'send' : 'SMS send';
  ctx.io.warn(`An unfinished ${what} of this same message to the same recipients is recorded in ${file}; this starts a new run, which sends to all of them again. To finish that one instead: ${resumeCommand(ctx, plan, file)}`);
}

/** A journal resumed by the wrong command would run fine but surprise: name the right one. */
function checkScope(ctx: Context, plan: PlanRecord, file: string, scope: ResumeScope): void {
  const ok = scope.kinds.includes(plan.kind) && (plan.kind !== 'automation' || !scope.event || plan.message.event === scope.event);
  if (!ok) {
    const what = plan.kind === 'automation' ? `an automation ${verbOf(plan)} journal` : `a ${plan.kind === 'email' ? 'send' : 'send sms'} journal`;
    throw new UsageError(`${file} is ${what}.`, `Resume it with: ${resumeCommand(ctx, plan, file)}`);
  }
}

type Sender = (body: Record<string, unknown>) => Promise<unknown>;
interface Clients {
  send: Sender;
  notify?: Awaited<ReturnType<Context['notify']>>;
}

async function clientsFor(ctx: Context, plan: Pick<NewPlan, 'kind'>): Promise<Clients> {
  if (plan.kind === 'automation') {
    const campaign = await ctx.campaign();
    return { send: (b) => campaign.automationEvent(b as never) };
  }
  const notify = await ctx.notify();
  return { notify, send: plan.kind === 'email' ? (b) => notify.sendEmail(b as never) : (b) => notify.sendSms(b as never) };
}

async function execute(ctx: Context, s: { journal: Journal; plan: PlanRecord; records: JournalRecord[] } & Clients, o: SessionOptions): Promise<void> {
  const { journal, plan, records } = s;
  const now = () => ctx.clock.now();
  const kind = KIND[plan.kind];
  let summary;
  let stoppedBy: Error | undefined;
  const afterwards = kind.lookup ? 'requests that were in flight are checked before anything is sent again' : 'recipients whose request was in flight are reported as in doubt and never sent again by itself';
  try {
    const states = replay(plan, records);
    if (!isDone(records)) {
      const doubts = count(states, 'doubt');
      if (doubts && kind.lookup && s.notify) {
        ctx.io.info(`Checking ${plural(doubts, 'recipient')} in doubt against the event log…`);
        const settled = await settleDoubts({ plan, states, client: s.notify, now, settleAfterMs: o.settleAfterMs, concurrency: o.concurrency, signal: ctx.signal });
        if (settled) {
          await journal.append(settled);
          applySettlement(states, settled);
        }
      } else if (doubts) {
        ctx.io.info(`${plural(doubts, 'recipient is', 'recipients are')} in doubt from an earlier run and will not be sent again (automation has no event log to check them against).`);
      }
      const label = plan.kind === 'automation' ? (plan.message.event === 'TERMINATE' ? 'Stopping' : 'Starting') : plan.kind === 'email' ? 'Sending' : 'Sending SMS';
      const bar = progressBar(ctx.io, label);
      try {
        const out = await sendPending({ journal, plan, states, firstBatch: nextBatchNumber(records), concurrency: o.concurrency, signal: ctx.signal, now, send: s.send, answer: kind.answer, onProgress: (d, t) => bar.update(d, t) });
        stoppedBy = out.stoppedBy;
        // Each request made wrote one intent: the earlier runs' (nextBatchNumber - 1) and this one's.
        summary = summarise(plan, states, journal.file, [...requestIdsOf(records), ...out.requestIds], nextBatchNumber(records) - 1 + out.made);
      } finally {
        bar.stop();
      }
      if (summary.notSent === 0 && summary.unsettled === 0) await journal.append({ type: 'done', at: new Date(now()).toISOString() });
    } else {
      ctx.io.info('Every recipient of this journal was already sent or failed; nothing to do.');
      summary = summarise(plan, states, journal.file, requestIdsOf(records), nextBatchNumber(records) - 1);
    }
  } catch (e) {
    // The journal could not take a record (its disk is full): the run stopped there. Every
    // record it holds is whole, so the resume knows exactly who is sent, unsent or in doubt.
    if (e instanceof DiskError) throw e.withHint(`The run stopped; what the journal holds is whole. ${e.fix}, then run ${resumeCommand(ctx, plan, journal.file)} to send the rest; ${afterwards}.`);
    throw e;
  } finally {
    await journal.close();
  }
  if (ctx.signal.aborted) {
    throw new InterruptedError('Interrupted; batches already answered are recorded.', `Run ${resumeCommand(ctx, plan, journal.file)} to send the rest; ${afterwards}.`);
  }
  await printSummary(ctx, plan, summary);
  finish(ctx, plan, summary, stoppedBy);
  printNext(ctx, plan, summary);
}

/** Recipients a resume may still send: pending, and in doubt (sent again if proved unsent). */
function notYetSent(plan: PlanRecord, states: Map<string, RecipientState>): WireRecipient[] {
  return plan.recipients.filter((r) => {
    const st = states.get(keyOf(plan, r))?.state;
    return st === 'pending' || st === 'doubt' || st === 'inflight';
  });
}

function count(states: Map<string, RecipientState>, state: RecipientState['state']): number {
  let n = 0;
  for (const st of states.values()) if (st.state === state) n++;
  return n;
}

function requestIdsOf(records: JournalRecord[]): string[] {
  return records.flatMap((r) => (r.type === 'result' && r.requestId ? [r.requestId] : []));
}
