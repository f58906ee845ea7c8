// mailctl automation trigger|terminate — endpoint 20, through the same journal and --resume as
// `send` (src/send/session.ts): every batch is recorded before its request and after its answer.
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { suggest } from '../../src/core/suggest.js';
import { automationPlan, checkAutomationVariables, type AutomationEvent } from '../../src/send/automation.js';
import { runBatchCommand } from '../../src/send/command.js';
import { checkRecipients, readRecipientsFile, type Recipient } from '../../src/send/recipients.js';
import { parseVars } from '../../src/send/variables.js';
import type { OptsOf } from '../../src/cli/declared.js';
import { AUTOMATION_JOURNAL, declareEvent } from './index.js';
import { journalOptions, messageFlags } from '../../src/send/batch-options.js';

export type EventOpts = OptsOf<typeof declareEvent>;

/** What a run sends (its flags less the journal and global ones), read from the declaration. */
const MESSAGE_FLAGS = messageFlags((p) => declareEvent(p, 'trigger', '', ''), (c) => journalOptions(c, AUTOMATION_JOURNAL));

/** One request at a time: the campaign service allows 2 a second (spec section 8). */
const CONCURRENCY = 1;

export async function runEvent(ctx: Context, o: EventOpts, event: AutomationEvent): Promise<void> {
  await runBatchCommand(ctx, o, MESSAGE_FLAGS, { kinds: ['automation'], event }, async () => {
    const verb = event === 'TRIGGER' ? 'trigger' : 'terminate';
    const workflow = o.workflow?.trim();
    if (!workflow) throw new UsageError(`Name the workflow: ${suggest(ctx, 'automation', verb, '--workflow', 'ID')} …`, 'The workflow id is set when the workflow is created in the back office.');
    const recipients = readRecipients(ctx, o);
    checkAutomationVariables(recipients);
    return automationPlan(workflow, event, recipients, ctx.clock.now());
  }, CONCURRENCY);
}

function readRecipients(ctx: Context, o: EventOpts): Recipient[] {
  if (o.to !== undefined && o.recipientsFile !== undefined) throw new UsageError('Give recipients with --to or with --recipients-file, not both.');
  if (o.recipientsFile !== undefined) {
    if (o.toName !== undefined || o.var !== undefined) throw new UsageError('--to-name and --var belong to --to; with --recipients-file put names and variables in the file (a "name" column and one column per variable).');
    const parsed = readRecipientsFile(o.recipientsFile, 'email');
    for (const w of parsed.warnings) ctx.io.warn(w);
    return parsed.recipients;
  }
  if (o.to === undefined) throw new UsageError('No recipient.', 'Give --to EMAIL (repeatable; with --to-name for one, --var k=v for all), or many with --recipients-file FILE.csv|json.');
  if (o.to.length > 1 && o.toName !== undefined) throw new UsageError(`--to-name names the one --to recipient, and ${o.to.length} were given.`, 'Give each recipient its name in a --recipients-file (an email and a name column), or leave --to-name out (each is sent with the part of its address before the @).');
  // --var goes to every --to recipient; each is checked (and a repeat dropped, with a warning) as a file's rows are.
  const variables = parseVars(o.var);
  const to = o.to;
  const parsed = checkRecipients(to.map((address, i) => ({ address, name: o.toName, variables: { ...variables }, where: to.length > 1 ? `--to ${i + 1}` : '--to' })), 'email');
  for (const w of parsed.warnings) ctx.io.warn(w);
  return parsed.recipients;
}
