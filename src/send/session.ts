// One `mailctl send` run, email or SMS: a new send (journal created, then batches sent) or a
// resume (journal replayed, recipients in doubt settled by the event lookup, the rest sent).
import type { Context } from '../cli/context.js';
import { InterruptedError, UsageError } from '../cli/errors.js';
import { plannedRequest, printPlanned } from '../output/dry-run.js';
import { chunk } from './batches.js';
import { isDone, Journal, keyOf, latestUnfinished, newJournalPath, nextBatchNumber, pruneJournals, replay, type JournalRecord, type PlanRecord, type RecipientState } from './journal.js';
import { progressBar } from './progress.js';
import { finish, printSummary, summarise } from './report.js';
import { sendPending } from './runner.js';
import { applySettlement, settleDoubts } from './settle.js';

export const SEND_PATH = { email: '/v1/messages', sms: '/v1/sms/messages' } as const;

export interface SessionOptions {
  concurrency: number;
  settleAfterMs: number;
  dryRun?: boolean;
  /** --journal FILE for a new send. */
  journal?: string;
}

/** --dry-run of a new send: every request exactly as it would go out, nothing written or sent. */
export async function dryRun(ctx: Context, plan: PlanRecord, wires = plan.recipients): Promise<void> {
  const requests = await Promise.all(chunk(wires, plan.batchSize).map((recipients) => plannedRequest(ctx, 'notify', 'POST', SEND_PATH[plan.kind], { ...plan.message, recipients })));
  await printPlanned(ctx, requests);
}

export async function startSend(ctx: Context, plan: PlanRecord, o: SessionOptions): Promise<void> {
  if (o.dryRun) return dryRun(ctx, plan);
  const client = await ctx.notify(); // fails on a missing key before a journal is written
  pruneJournals(ctx.configDir, ctx.clock.now());
  const file = o.journal ?? newJournalPath(ctx.configDir, plan.kind, ctx.clock.now());
  const journal = Journal.create(file, plan);
  await execute(ctx, { journal, plan, records: [plan], client }, o);
}

export async function resumeSend(ctx: Context, given: string | true, o: SessionOptions): Promise<void> {
  const file = typeof given === 'string' ? given : latestUnfinished(ctx.configDir);
  if (!file) throw new UsageError('There is no unfinished send to resume.', 'Give the journal file: mailctl send --resume FILE (a run prints its journal path when it ends).');
  if (o.dryRun) {
    const { journal, plan, records } = Journal.open(file);
    await journal.close();
    const states = replay(plan, records);
    const pending = plan.recipients.filter((r) => states.get(keyOf(plan.kind, r))?.s === 'pending');
    const doubt = [...states.values()].filter((s) => s.s === 'doubt').length;
    if (doubt) ctx.io.info(`${doubt} recipient${doubt === 1 ? ' is' : 's are'} in doubt; a real resume looks them up in the event log first and sends only those proved not sent.`);
    return dryRun(ctx, plan, pending);
  }
  const client = await ctx.notify();
  const { journal, plan, records, torn } = Journal.open(file);
  if (torn) ctx.io.warn(`The last line of ${file} was cut short (the run was killed while writing it); it is ignored.`);
  ctx.io.info(`Resuming ${plan.kind === 'email' ? 'the email' : 'the SMS'} send of ${plan.createdAt} (${plan.recipients.length} recipients) from ${file}`);
  await execute(ctx, { journal, plan, records, client }, o);
}

async function execute(
  ctx: Context,
  s: { journal: Journal; plan: PlanRecord; records: JournalRecord[]; client: Awaited<ReturnType<Context['notify']>> },
  o: SessionOptions,
): Promise<void> {
  const { journal, plan, records, client } = s;
  const now = () => ctx.clock.now();
  let summary;
  let stoppedBy: Error | undefined;
  try {
    const states = replay(plan, records);
    if (!isDone(records)) {
      const doubts = count(states, 'doubt');
      if (doubts) {
        ctx.io.info(`Checking ${doubts} recipient${doubts === 1 ? '' : 's'} in doubt against the event log…`);
        const settled = await settleDoubts({ plan, states, client, now, settleAfterMs: o.settleAfterMs, concurrency: o.concurrency, signal: ctx.signal });
        if (settled) {
          await journal.append(settled);
          applySettlement(states, settled);
        }
      }
      const bar = progressBar(ctx.io, plan.kind === 'email' ? 'Sending' : 'Sending SMS');
      const send = plan.kind === 'email' ? (b: Record<string, unknown>) => client.sendEmail(b as never) : (b: Record<string, unknown>) => client.sendSms(b as never);
      try {
        const out = await sendPending({ journal, plan, states, firstBatch: nextBatchNumber(records), concurrency: o.concurrency, signal: ctx.signal, now, send, onProgress: (d, t) => bar.update(d, t) });
        stoppedBy = out.stoppedBy;
        summary = summarise(plan, states, journal.file, [...requestIdsOf(records), ...out.requestIds]);
      } finally {
        bar.stop();
      }
      if (summary.notSent === 0 && summary.unsettled === 0) await journal.append({ t: 'done', at: new Date(now()).toISOString() });
    } else {
      ctx.io.info('Every recipient of this journal was already sent or failed; nothing to do.');
      summary = summarise(plan, states, journal.file, requestIdsOf(records));
    }
  } finally {
    await journal.close();
  }
  if (ctx.signal.aborted) throw new InterruptedError('Interrupted; batches already answered are recorded.', `Run \`mailctl send --resume ${journal.file}\` to send the rest; requests that were in flight are checked before anything is sent again.`);
  await printSummary(ctx, plan, summary);
  finish(summary, stoppedBy);
}

function count(states: Map<string, RecipientState>, s: RecipientState['s']): number {
  let n = 0;
  for (const st of states.values()) if (st.s === s) n++;
  return n;
}

function requestIdsOf(records: JournalRecord[]): string[] {
  return records.flatMap((r) => (r.t === 'result' && r.requestId ? [r.requestId] : []));
}
