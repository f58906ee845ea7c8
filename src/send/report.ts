// What a send prints when it ends: the message id of every recipient that was accepted and the
// service's reason for every one that was not, then the exit code that sums it up
// (0 all accepted, 5 some, 1 none — or the error that stopped the run).
import type { Context } from '../cli/context.js';
import { CliError, PartialError, ServiceError } from '../cli/errors.js';
import { printList, type Column } from '../output/format.js';
import { keyOf, labelOf, type PlanRecord, type RecipientState } from './journal.js';

export type Status = 'sent' | 'failed' | 'not sent' | 'unsettled';

export interface RecipientReport {
  address: string;
  countryCode?: string;
  status: Status;
  messageId?: string;
  reason?: string;
}

export interface SendSummary {
  journal: string;
  total: number;
  sent: number;
  failed: number;
  notSent: number;
  unsettled: number;
  requestIds: string[];
  recipients: RecipientReport[];
}

export function summarise(plan: PlanRecord, states: Map<string, RecipientState>, journal: string, requestIds: string[]): SendSummary {
  const recipients = plan.recipients.map((w): RecipientReport => {
    const st = states.get(keyOf(plan.kind, w)) ?? { s: 'pending' };
    const base = { address: w.address, ...(plan.kind === 'sms' ? { countryCode: w.country_code } : {}) };
    switch (st.s) {
      case 'sent': return { ...base, status: 'sent', messageId: st.id };
      case 'failed': return { ...base, status: 'failed', reason: st.reason };
      case 'pending': return { ...base, status: 'not sent', ...(st.lastError ? { reason: st.lastError } : {}) };
      default: return { ...base, status: 'unsettled', reason: st.s === 'doubt' ? st.reason : 'in flight' };
    }
  });
  const count = (s: Status) => recipients.filter((r) => r.status === s).length;
  return { journal, total: recipients.length, sent: count('sent'), failed: count('failed'), notSent: count('not sent'), unsettled: count('unsettled'), requestIds, recipients };
}

const COLUMNS = (plan: PlanRecord): Column<RecipientReport>[] => [
  { header: plan.kind === 'email' ? 'ADDRESS' : 'NUMBER', value: (r) => (plan.kind === 'email' ? r.address : labelOf('sms', { address: r.address, country_code: r.countryCode })) },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'MESSAGE ID', value: (r) => r.messageId },
  { header: 'REASON', value: (r) => r.reason },
];

/** A person at a terminal sees every row only for small sends; pipes and --json get them all. */
const TTY_ROWS = 20;

export async function printSummary(ctx: Context, plan: PlanRecord, s: SendSummary): Promise<void> {
  const io = ctx.io;
  if (io.json) {
    io.printJson(s);
  } else {
    const rows = io.isTTY && s.recipients.length > TTY_ROWS ? s.recipients.filter((r) => r.status !== 'sent') : s.recipients;
    if (rows.length) await printList(io, rows, COLUMNS(plan));
    if (rows.length < s.recipients.length) io.info(io.paint('dim', `(${s.recipients.length - rows.length} accepted recipients not listed; pipe the output or use --json for every message id)`));
  }
  const parts = [`${s.sent} of ${s.total} accepted`];
  if (s.failed) parts.push(`${s.failed} failed`);
  if (s.notSent) parts.push(`${s.notSent} not sent`);
  if (s.unsettled) parts.push(`${s.unsettled} in doubt`);
  const mark = s.sent === s.total ? io.paint('green', '✓') : io.paint('yellow', '!');
  io.info(`${mark} ${parts.join(', ')} (${s.requestIds.length} request${s.requestIds.length === 1 ? '' : 's'}). Journal: ${s.journal}`);
}

/** Throws what the exit code should be; returns only when every recipient was accepted. */
export function finish(s: SendSummary, stoppedBy?: Error): void {
  if (s.sent === s.total) return;
  const resume = s.notSent || s.unsettled ? `Run \`mailctl send --resume ${s.journal}\` to send what was not sent${s.unsettled ? ' and settle what is in doubt' : ''}.` : undefined;
  if (s.sent === 0 && s.unsettled === 0) {
    if (stoppedBy instanceof CliError) throw Object.assign(stoppedBy, { hint: [stoppedBy.hint, resume].filter(Boolean).join('\n') || undefined });
    throw new ServiceError(`None of the ${s.total} recipients was accepted.`, { hint: resume });
  }
  const bits = [s.failed && `${s.failed} failed`, s.notSent && `${s.notSent} not sent`, s.unsettled && `${s.unsettled} in doubt`].filter(Boolean).join(', ');
  const why = stoppedBy ? ` The run stopped: ${stoppedBy.message}` : '';
  throw new PartialError(`${s.sent} of ${s.total} recipients were accepted; ${bits}.${why}`, resume);
}
