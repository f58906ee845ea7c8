// mailctl send — transactional email (spec 001 section 4, the send endpoint: src/api/notify.ts).
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { BATCH_SIZE } from '../../src/send/batches.js';
import { JOURNAL_VERSION, type NewPlan, type WireRecipient } from '../../src/send/journal.js';
import { checkRecipients, isEmail, readRecipientsFile, recipientName, type Recipient } from '../../src/send/recipients.js';
import { checkVariables, nameAsVariable, runSend, textFrom } from './common.js';
import { parseVars } from '../../src/send/variables.js';
import { suggest } from '../../src/core/suggest.js';
import { checkUrl } from '../../src/core/url.js';
import type { OptsOf, Verb } from '../../src/cli/declared.js';
import { declareEmail } from './index.js';
import { batchOptions, messageFlags } from '../../src/send/batch-options.js';

type Opts = OptsOf<typeof declareEmail>;

/** What this command sends (its flags less the batch and global ones), read from its declaration. */
const MESSAGE_FLAGS = messageFlags(declareEmail, batchOptions);

export const run: Verb<typeof declareEmail> = async (ctx, opts) => {
  await runSend(ctx, opts, MESSAGE_FLAGS, buildPlan, ['send']);
};

async function buildPlan(ctx: Context, opts: Opts): Promise<NewPlan> {
  const recipients = recipientsOf(ctx, opts);
  if (opts.subject === undefined || !opts.subject.trim()) throw new UsageError('No subject.', 'Give one with --subject "…" (it may hold {{variables}}).');
  const html = await textFrom(ctx, opts.html, opts.htmlFile, 'html content', ['--html', '--html-file']);
  const { profile } = await ctx.settings();
  const fromAddress = (opts.from ?? profile.fromAddress)?.trim();
  if (!fromAddress) throw new UsageError('No sender address.', `Give --from ADDRESS, or set a default: ${suggest(ctx, 'config', 'set', 'from-address', 'ADDRESS')}`);
  if (!isEmail(fromAddress)) throw new UsageError(`The sender "${fromAddress}" is not an email address.`);
  const fromName = opts.fromName ?? profile.fromName;
  // The service puts it in the List-Unsubscribe header, which takes a web link or a mailto:.
  const unsubscribe = opts.unsubscribeUrl === undefined ? undefined : checkUrl(opts.unsubscribeUrl, { name: '--unsubscribe-url', example: 'https://example.com/unsubscribe or mailto:unsubscribe@example.com', mailto: true });

  const texts = [opts.subject, html];
  nameAsVariable(recipients, texts);
  checkVariables(ctx, texts, recipients, !!opts.allowMissing);

  const message: Record<string, unknown> = { subject: opts.subject, fromAddress, content: html };
  if (fromName) message.fromName = fromName;
  if (unsubscribe) message.unsubscribedLink = unsubscribe;
  return { type: 'plan', version: JOURNAL_VERSION, kind: 'email', createdAt: new Date(ctx.clock.now()).toISOString(), batchSize: BATCH_SIZE, message, recipients: recipients.map(wire) };
}

function recipientsOf(ctx: Context, opts: Opts): Recipient[] {
  if (opts.recipientsFile !== undefined && opts.to !== undefined) throw new UsageError('Give either --to (recipients) or --recipients-file FILE, not both.');
  if (opts.recipientsFile !== undefined) {
    if (opts.toName !== undefined || opts.var !== undefined) throw new UsageError('--to-name and --var describe the --to recipients; with --recipients-file put names and variables in the file.');
    const parsed = readRecipientsFile(opts.recipientsFile, 'email');
    parsed.warnings.forEach((w) => ctx.io.warn(w));
    return parsed.recipients;
  }
  if (opts.to === undefined) throw new UsageError('No recipient.', 'Give --to ADDRESS (repeatable), or --recipients-file FILE (CSV or JSON) for many.');
  if (opts.to.length > 1 && opts.toName !== undefined) throw new UsageError(`--to-name names the one --to recipient, and ${opts.to.length} were given.`, 'Give each recipient its name in a --recipients-file (an address and a name column), or leave --to-name out (each is sent with the part of its address before the @).');
  // --var goes to every --to recipient; each is checked (and a repeat dropped, with a warning) as a file's rows are.
  const variables = parseVars(opts.var);
  const parsed = checkRecipients(opts.to.map((address, i) => ({ address, name: opts.toName, variables: { ...variables }, where: opts.to!.length > 1 ? `--to ${i + 1}` : '--to' })), 'email');
  parsed.warnings.forEach((w) => ctx.io.warn(w));
  return parsed.recipients;
}

function wire(r: Recipient): WireRecipient {
  // Every recipient has a name (decisions row 31): its own, else its address's local part.
  return { name: recipientName(r.address, r.name), address: r.address, ...(Object.keys(r.variables).length ? { variables: r.variables } : {}) };
}
