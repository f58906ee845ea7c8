// What a send or automation run prints when it ends — each recipient accepted (with its message
// id, for email and SMS), refused (with the service's reason), in doubt or not sent — and the
// exit code that sums it up: 0 all accepted · 5 some not · 1 none · 4 stopped by a limit or the
// network with recipients left to send · or the error that stopped the run. Every suggested
// command is built by suggest(), so a pasted hint reaches the same profile and services.
import type { Context } from '../run/context.js';
import { CliError, ExitCode, PartialError, ServiceError } from '../core/errors.js';
import { suggest, suggestWithNote } from '../core/suggest.js';
import { printList, type Column } from '../run/output/format.js';
import { forTerminal } from '../core/sanitize.js';
import { endSentence } from '../core/sentence.js';
import { count as n, plural } from '../core/human.js';
import { keyOf, labelOf, type NewPlan, type PlanRecord, type RecipientState } from './journal.js';
import { KIND } from './kinds.js';

export type Status = 'sent' | 'failed' | 'not sent' | 'unsettled';

export interface RecipientReport {
  address: string;
  countryCode?: string;
  status: Status;
  messageId?: string;
  reason?: string;
  /** In doubt because the service's answer listed it both as accepted and as refused (its message id, if it gave one, is messageId). */
  conflict?: true;
}

export interface SendSummary {
  journal: string;
  total: number;
  sent: number;
  failed: number;
  notSent: number;
  unsettled: number;
  /** The ids of the requests the service took (answered with one). */
  requestIds: string[];
  /** Requests made, refused or unanswered ones included (this journal's runs together). */
  requests: number;
  recipients: RecipientReport[];
}

export function summarise(plan: PlanRecord, states: Map<string, RecipientState>, journal: string, requestIds: string[], requests: number): SendSummary {
  const recipients = plan.recipients.map((w): RecipientReport => {
    const st = states.get(keyOf(plan, w)) ?? { state: 'pending' };
    const base = { address: w.address, ...(plan.kind === 'sms' ? { countryCode: w.country_code } : {}) };
    switch (st.state) {
      case 'sent': return { ...base, status: 'sent', ...(st.id ? { messageId: st.id } : {}) };
      case 'failed': return { ...base, status: 'failed', reason: st.reason };
      case 'pending': return { ...base, status: 'not sent', ...(st.lastError ? { reason: st.lastError } : {}) };
      default:
        if (st.state === 'doubt' && st.conflict) return { ...base, status: 'unsettled', reason: st.reason, conflict: true, ...(st.id ? { messageId: st.id } : {}) };
        return { ...base, status: 'unsettled', reason: st.state === 'doubt' ? st.reason : 'in flight' };
    }
  });
  const count = (s: Status) => recipients.filter((r) => r.status === s).length;
  return { journal, total: recipients.length, sent: count('sent'), failed: count('failed'), notSent: count('not sent'), unsettled: count('unsettled'), requestIds, requests, recipients };
}

/** The command that resumes this journal, as the user can paste it. */
export function resumeCommand(ctx: Context, plan: NewPlan, file: string): string {
  if (plan.kind !== 'automation') return suggestWithNote(ctx, 'send', '--resume', file);
  return suggestWithNote(ctx, 'automation', verbOf(plan), '--resume', file);
}

export function verbOf(plan: Pick<NewPlan, 'message'>): 'trigger' | 'terminate' {
  return plan.message.event === 'TERMINATE' ? 'terminate' : 'trigger';
}

/** How automation statuses read: the service starts or stops recipients, it sends no message. */
const AUTOMATION_STATUS: Record<Status, string> = { sent: 'accepted', failed: 'refused', 'not sent': 'not sent', unsettled: 'in doubt' };

function columns(plan: PlanRecord): Column<RecipientReport>[] {
  const auto = plan.kind === 'automation';
  return [
    // Cells are made safe by printList for each output (and kept exact for CSV files).
    // RECIPIENT, as `events` names the same thing (an address, or for SMS a number).
    { header: 'RECIPIENT', value: (r) => (plan.kind === 'sms' ? labelOf('sms', { address: r.address, country_code: r.countryCode }) : r.address) },
    { header: 'STATUS', value: (r) => (auto ? AUTOMATION_STATUS[r.status] : r.status) },
    ...(auto ? [] : [{ header: 'MESSAGE ID', value: (r: RecipientReport) => r.messageId }]),
    { header: 'REASON', value: (r) => r.reason },
  ];
}

/** A person at a terminal sees every row only for small sends; pipes and --json get them all. */
const TTY_ROWS = 20;

export async function printSummary(ctx: Context, plan: PlanRecord, s: SendSummary): Promise<void> {
  const io = ctx.io;
  const auto = plan.kind === 'automation';
  if (io.json) {
    io.printJson(auto ? automationJson(plan, s) : s);
  } else if (io.output !== 'table') {
    // TSV and CSV are the record of the run for a script or a spreadsheet: every recipient, under the header.
    await printList(io, s.recipients, columns(plan));
  } else {
    // A person sees what needs a look. Automation answers carry no message id, so its accepted
    // rows would say nothing new; a large send's accepted rows would scroll the rest away.
    const rows = auto || s.recipients.length > TTY_ROWS ? s.recipients.filter((r) => r.status !== 'sent') : s.recipients;
    if (rows.length) await printList(io, rows, columns(plan));
    if (!auto && rows.length < s.recipients.length) io.info(io.paint('dim', `(${n(s.recipients.length - rows.length)} accepted recipients not listed; pipe the output or use --json for every message id)`));
  }
  const mark = s.sent === s.total ? io.paint('green', '✓') : io.paint('yellow', '!');
  if (auto) {
    const did = plan.message.event === 'TERMINATE' ? 'Stopped' : 'Started';
    const parts = [s.failed && `${n(s.failed)} refused`, s.unsettled && `${n(s.unsettled)} in doubt`, s.notSent && `${n(s.notSent)} not sent`].filter(Boolean);
    // Under --json nothing is listed on the terminal: the lists are in the document on stdout.
    const listed = parts.length ? `; ${parts.join(', ')} (${io.json ? 'listed in the JSON output' : 'listed above'})` : '';
    io.info(`${mark} ${did} ${n(s.sent)} of ${plural(s.total, 'recipient')} in workflow ${forTerminal(plan.message.workflow, 80)}${listed}. Journal: ${s.journal}`);
    return;
  }
  const parts = [`${n(s.sent)} of ${n(s.total)} accepted`];
  if (s.failed) parts.push(`${n(s.failed)} failed`);
  if (s.notSent) parts.push(`${n(s.notSent)} not sent`);
  if (s.unsettled) parts.push(`${n(s.unsettled)} in doubt`);
  // Every request made, the refused one too: "0 of 1 accepted (0 requests)" read as if none went out.
  io.info(`${mark} ${parts.join(', ')} (${plural(s.requests, 'request')} made). Journal: ${s.journal}`);
}

/**
 * After a run where every recipient was accepted: one line with the natural next command, the
 * delivery lookup of what was sent (--id takes a message id). Not under --json; -q silences it.
 * Automation has no event log to look in, so it gets none.
 */
export function printNext(ctx: Context, plan: PlanRecord, s: SendSummary): void {
  if (ctx.io.json || !KIND[plan.kind].lookup) return;
  const ids = s.recipients.flatMap((r) => (r.status === 'sent' && r.messageId ? [r.messageId] : []));
  if (!ids.length) return;
  const cmd = suggest(ctx, 'events', ...(plan.kind === 'sms' ? ['--sms'] : []), '--id', ids[0]);
  const what = plan.kind === 'sms' ? 'SMS' : 'email';
  ctx.io.info(ids.length === 1
    ? `Next: follow the ${what}'s delivery with ${cmd}`
    : `Next: follow each ${what}'s delivery by its message id (${ctx.io.isTTY && s.recipients.length > TTY_ROWS ? 'every id is in --json' : 'in the output'}), e.g. ${cmd}`);
}

/** `--json` of automation: who was accepted, refused (with the reason), in doubt and not sent. */
function automationJson(plan: PlanRecord, s: SendSummary) {
  const pick = (status: Status) => s.recipients.filter((r) => r.status === status).map((r) => ({ address: r.address, ...(r.reason ? { reason: r.reason } : {}), ...(r.conflict ? { conflict: true } : {}) }));
  return {
    workflow: plan.message.workflow,
    event: plan.message.event,
    journal: s.journal,
    requested: s.total,
    accepted: s.recipients.filter((r) => r.status === 'sent').map((r) => r.address),
    refused: pick('failed'),
    inDoubt: pick('unsettled'),
    notSent: pick('not sent'),
  };
}

/**
 * The service answered and refused the request itself (not per recipient, not a limit, not the
 * key): sending the same request again would be refused again, so `--resume` is no help.
 */
export function refusedWhole(e: unknown): e is CliError {
  return e instanceof CliError && e.facts.reached === 'yes' && e.facts.refused && !e.facts.retryable && e.facts.code === 'REFUSED';
}

/** Throws what the exit code should be; returns only when every recipient was accepted. */
export function finish(ctx: Context, plan: PlanRecord, s: SendSummary, stoppedBy?: Error): void {
  if (s.sent === s.total) return;
  const lookup = KIND[plan.kind].lookup;
  const hint = [resumeHint(ctx, plan, s, lookup), !lookup && s.unsettled ? automationDoubtHint(ctx, plan, s) : undefined].filter(Boolean).join('\n') || undefined;
  if (refusedWhole(stoppedBy) && s.sent === 0 && s.unsettled === 0) throw wholeRefusal(ctx, plan, stoppedBy);
  // Stopped cleanly by a limit or the network (the daily cap, a refused connection) with
  // recipients left: exit 4, resume later. Anything in doubt needs a look first: exit 5 below.
  if (stoppedBy instanceof CliError && stoppedBy.exitCode === ExitCode.LIMIT && s.notSent && !s.unsettled) {
    const left = [s.notSent && `${n(s.notSent)} not sent`, s.failed && `${n(s.failed)} refused`].filter(Boolean).join(', ');
    throw new CliError(`${n(s.sent)} of ${n(s.total)} recipients were accepted, then the run stopped: ${stoppedBy.message} ${left}.`, ExitCode.LIMIT, hint, stoppedBy.facts);
  }
  if (s.sent === 0 && s.unsettled === 0) {
    if (stoppedBy instanceof CliError) throw Object.assign(stoppedBy, { hint: [stoppedBy.hint, hint].filter(Boolean).join('\n') || undefined });
    const only = s.total === 1 && s.recipients[0].reason ? `: ${forTerminal(s.recipients[0].reason, 200)}` : '';
    throw new ServiceError(`None of the ${plural(s.total, 'recipient')} was accepted${only}.`, { hint });
  }
  const bits = [s.failed && `${n(s.failed)} ${plan.kind === 'automation' ? 'refused' : 'failed'}`, s.notSent && `${n(s.notSent)} not sent`, s.unsettled && `${n(s.unsettled)} in doubt`].filter(Boolean).join(', ');
  const why = stoppedBy ? ` The run stopped: ${stoppedBy.message}` : '';
  throw new PartialError(`${n(s.sent)} of ${n(s.total)} recipients were accepted; ${bits}.${why}`, hint);
}

function resumeHint(ctx: Context, plan: PlanRecord, s: SendSummary, lookup: boolean): string | undefined {
  const settle = lookup && s.unsettled > 0;
  if (!s.notSent && !settle) return undefined;
  const what = [s.notSent && 'send what was not sent', settle && 'settle what is in doubt'].filter(Boolean).join(' and ');
  return `Run ${resumeCommand(ctx, plan, s.journal)} to ${what}.`;
}

/** Automation has no event log: an in-doubt recipient can be checked only in the back office. */
function automationDoubtHint(ctx: Context, plan: PlanRecord, s: SendSummary): string {
  const first = s.recipients.find((r) => r.status === 'unsettled')!.address;
  const workflow = String(plan.message.workflow);
  // The pasted line must send what the run would have: the plan's name and variables too.
  const wire = plan.recipients.find((w) => w.address === first);
  const data = [...(wire?.name ? ['--to-name', wire.name] : []), ...Object.entries(wire?.variables ?? {}).flatMap(([k, v]) => ['--var', `${k}=${v}`])];
  return `${s.unsettled} recipient${s.unsettled === 1 ? ' is' : 's are'} in doubt: the request may have reached the service, and automation has no event log to check, so mailctl never sends ${s.unsettled === 1 ? 'it' : 'them'} again by itself. `
    + `Look for ${s.unsettled === 1 ? 'the address' : 'these addresses'} in workflow ${forTerminal(workflow, 80)} in the back office; to ${verbOf(plan)} one anyway: ${suggest(ctx, 'automation', verbOf(plan), '--workflow', workflow, '--to', first, ...data)}`;
}

/** Nothing was sent and repeating the request cannot help: say what can. */
function wholeRefusal(ctx: Context, plan: PlanRecord, e: CliError): CliError {
  const message = `Nothing was sent: the service refused the request as a whole. ${endSentence(e.message)}`;
  const hint = plan.kind === 'email' && e.facts.status === 400
    ? `Sending the same request again would be refused again. ${senderHint(ctx, String(plan.message.fromAddress ?? ''))}`
    : 'Sending the same request again would be refused again; change what the service names and run the command again.';
  return new CliError(message, e.exitCode, hint, e.facts);
}

/**
 * Spec 001 section 7: a 400 to an email send is a rejected send, "for example unverified sender
 * domain". What fixes that, as commands to paste (`send`, `campaign proof`).
 */
export function senderHint(ctx: Context, from: string): string {
  const domain = from.includes('@') ? from.slice(from.lastIndexOf('@') + 1) : 'DOMAIN';
  return `The usual cause is a sender whose domain is not verified (${forTerminal(from, 100)}): `
    + `send from a verified address with --from ADDRESS (or set a default: ${suggest(ctx, 'config', 'set', 'from-address', 'ADDRESS')}), `
    + `or verify the domain: ${suggest(ctx, 'domain', 'add', domain)}, publish the records it prints, then ${suggest(ctx, 'domain', 'verify', domain)}.`;
}

/** An email send's refusal as a whole (status 400, refusedWhole): the error with senderHint added. */
export function withSenderHint(ctx: Context, e: unknown, from: string): unknown {
  if (!refusedWhole(e) || e.facts.status !== 400) return e;
  return Object.assign(e, { hint: [e.hint, senderHint(ctx, from)].filter(Boolean).join('\n') });
}
