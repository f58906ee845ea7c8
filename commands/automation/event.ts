import type { Context } from '../../src/cli/context.js';
import { PartialError, ServiceError, UsageError } from '../../src/cli/errors.js';
import { batches, checkAutomationVariables, sendEvent, toAutomationRecipient, type AutomationEvent, type EventOutcome } from '../../src/campaign/automation.js';
import { isEmail, readRecipientsFile, type Recipient } from '../../src/send/recipients.js';
import { plannedRequest, printPlanned } from '../../src/output/dry-run.js';
import { printList } from '../../src/output/format.js';
import { parseVars } from '../../src/send/variables.js';

export interface EventOpts {
  workflow?: string;
  to?: string;
  name?: string;
  var?: string[];
  recipients?: string;
  dryRun?: boolean;
}

const PATH = '/v1/automation/event';

export async function runEvent(ctx: Context, o: EventOpts, event: AutomationEvent): Promise<void> {
  const verb = event === 'TRIGGER' ? 'trigger' : 'terminate';
  const workflow = o.workflow?.trim();
  if (!workflow) throw new UsageError(`Name the workflow: mailctl automation ${verb} --workflow ID …`, 'The workflow id is set when the workflow is created in the back office.');
  const recipients = readRecipients(ctx, o);
  checkAutomationVariables(recipients);
  const body = recipients.map(toAutomationRecipient);

  if (o.dryRun) {
    const planned = await Promise.all(batches(body).map((b) => plannedRequest(ctx, 'campaign', 'POST', PATH, { workflow, event, recipients: b })));
    await printPlanned(ctx, planned);
    return;
  }
  const client = await ctx.campaign();
  const spin = await ctx.io.spinner(`${event === 'TRIGGER' ? 'Starting' : 'Stopping'} ${body.length} recipient${body.length === 1 ? '' : 's'}…`);
  let out: EventOutcome;
  try {
    out = await sendEvent(client, workflow, event, body, (done, total) => spin.text(`Request ${done} of ${total}…`));
  } catch (e) {
    spin.stop();
    const progress = (e as { progress?: EventOutcome }).progress;
    if (progress) ctx.io.error(`Stopped after ${progress.accepted.length} accepted and ${progress.failed.length} refused of ${body.length}; the rest were not sent.`);
    throw e;
  }
  spin.stop();
  await report(ctx, workflow, event, body.length, out);
}

function readRecipients(ctx: Context, o: EventOpts): Recipient[] {
  if (o.to !== undefined && o.recipients !== undefined) throw new UsageError('Give one recipient with --to or many with --recipients, not both.');
  if (o.recipients !== undefined) {
    if (o.name !== undefined || o.var !== undefined) throw new UsageError('--name and --var belong to --to; with --recipients put names and variables in the file (a "name" column and one column per variable).');
    const parsed = readRecipientsFile(o.recipients, 'email');
    for (const w of parsed.warnings) ctx.io.warn(w);
    return parsed.recipients;
  }
  if (o.to === undefined) throw new UsageError('No recipient.', 'Give one with --to EMAIL (and --name, --var k=v), or many with --recipients FILE.csv|json.');
  const address = o.to.trim();
  if (!isEmail(address)) throw new UsageError(`"${o.to}" (--to) is not an email address.`);
  return [{ key: address.toLowerCase(), label: address, address, name: o.name?.trim() || undefined, variables: parseVars(o.var) }];
}

async function report(ctx: Context, workflow: string, event: AutomationEvent, total: number, out: EventOutcome): Promise<void> {
  const did = event === 'TRIGGER' ? 'Started' : 'Stopped';
  if (ctx.io.json) ctx.io.printJson({ workflow, event, requested: total, accepted: out.accepted, failed: out.failed });
  else {
    if (out.failed.length) await printList(ctx.io, out.failed, [{ header: 'ADDRESS', value: (f) => f.address }, { header: 'REASON', value: (f) => f.reason }]);
    ctx.io.info(`${did} ${out.accepted.length} of ${total} recipient${total === 1 ? '' : 's'} in workflow ${workflow}${out.failed.length ? `; ${out.failed.length} refused (listed above)` : ''}.`);
  }
  if (!out.failed.length) return;
  if (out.accepted.length) throw new PartialError(`${out.failed.length} of ${total} recipients were refused by the service.`);
  throw new ServiceError(`The service refused all ${total} recipient${total === 1 ? '' : 's'}${out.failed.length === 1 ? `: ${out.failed[0].reason}` : ''}.`);
}
