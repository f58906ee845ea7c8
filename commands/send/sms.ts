// mailctl send sms — transactional SMS (decisions row 3: the SMS send endpoint, src/api/notify.ts).
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { BATCH_SIZE } from '../../src/send/batches.js';
import { JOURNAL_VERSION, type NewPlan, type WireRecipient } from '../../src/send/journal.js';
import { checkRecipients, readRecipientsFile, type Recipient } from '../../src/send/recipients.js';
import { checkCountryCode, clampAliveMins, hasSenderIdentity, linkDomains, LONG_SMS } from '../../src/send/sms-rules.js';
import { checkVariables, runSend, textFrom } from './common.js';
import { parseVars } from '../../src/send/variables.js';
import type { OptsOf, Verb } from '../../src/cli/declared.js';
import { declareSms } from './index.js';
import { batchOptions, messageFlags } from '../../src/send/batch-options.js';

type Opts = OptsOf<typeof declareSms>;

/** What this command sends (its flags less the batch and global ones), read from its declaration. */
const MESSAGE_FLAGS = messageFlags(declareSms, batchOptions);

export const run: Verb<typeof declareSms> = async (ctx, opts) => {
  await runSend(ctx, opts, MESSAGE_FLAGS, buildPlan, ['send', 'sms']);
};

async function buildPlan(ctx: Context, opts: Opts): Promise<NewPlan> {
  if (opts.countryCode !== undefined) {
    const c = checkCountryCode(opts.countryCode);
    if ('error' in c) throw new UsageError(`--country-code: ${c.error}.`, 'Give the calling code without "+", for example --country-code 886 (Taiwan) or 81 (Japan).');
  }
  const recipients = recipientsOf(ctx, opts);
  const text = await textFrom(ctx, opts.text, opts.textFile, 'SMS text', ['--text', '--text-file']);
  const message: Record<string, unknown> = { content: text };
  if (opts.aliveMins !== undefined) {
    const { minutes, notice } = clampAliveMins(opts.aliveMins);
    if (notice) ctx.io.warn(notice);
    message.alive_mins = minutes;
  }

  checkVariables(ctx, [text], recipients, !!opts.allowMissing);
  const { profile } = await ctx.settings();
  if (!hasSenderIdentity(text, [opts.brand, profile.fromName])) {
    ctx.io.warn('The text does not start or end with the sender\'s identity (for example 【Acme】); carriers require the company, brand or campaign name at the start or end and may block it.');
  }
  const domains = linkDomains(text);
  if (domains.length) {
    ctx.io.warn(`The text contains a link (${domains.join(', ')}). A link's domain must be on the carriers' allow-list (ask the provider's support; review takes 5 to 7 business days), otherwise the message cannot be sent.`);
  }
  if ([...text].length > LONG_SMS) ctx.io.warn(`The text is ${[...text].length} characters; some clients cap SMS at ${LONG_SMS}, and long texts are billed as several messages.`);

  return { type: 'plan', version: JOURNAL_VERSION, kind: 'sms', createdAt: new Date(ctx.clock.now()).toISOString(), batchSize: BATCH_SIZE, message, recipients: recipients.map(wire) };
}

function recipientsOf(ctx: Context, opts: Opts): Recipient[] {
  if (opts.recipientsFile !== undefined && opts.to !== undefined) throw new UsageError('Give either --to (numbers) or --recipients-file FILE, not both.');
  let parsed;
  if (opts.recipientsFile !== undefined) {
    if (opts.var !== undefined) throw new UsageError('--var describes the single --to recipient; with --recipients-file put variables in the file.');
    parsed = readRecipientsFile(opts.recipientsFile, 'sms', opts.countryCode);
  } else {
    if (opts.to === undefined) throw new UsageError('No recipient.', 'Give --to NUMBER (repeatable) with --country-code CODE, or --recipients-file FILE (CSV or JSON) for many.');
    if (opts.countryCode === undefined) throw new UsageError('--to needs --country-code.', 'For example: --to 0912345678 --country-code 886.');
    // --var goes to every --to number; a number given twice is sent once (with a warning).
    const variables = parseVars(opts.var);
    const to = opts.to;
    parsed = checkRecipients(to.map((address, i) => ({ address, countryCode: opts.countryCode, variables: { ...variables }, where: to.length > 1 ? `--to ${i + 1}` : '--to' })), 'sms');
  }
  parsed.warnings.forEach((w) => ctx.io.warn(w));
  return parsed.recipients;
}

function wire(r: Recipient): WireRecipient {
  return { address: r.address, country_code: r.countryCode!, ...(Object.keys(r.variables).length ? { variables: r.variables } : {}) };
}
