// mailctl campaign proof — the campaign as one contact would get it, sent to your own inbox
// through the notification service (spec 001's send endpoint, src/api/notify.ts): ${FIELD}s filled from a line
// of a contacts file (--contacts FILE --contact EMAIL|LINE) or --var, subject prefixed "[Proof] ". The campaign
// service has no test send, so this is the closest look before a send to thousands.
import type { Context } from '../../src/run/context.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declareProof } from './index.js';
import { ExitCode, SilentExit, UsageError } from '../../src/core/errors.js';
import type { SendResult } from '../../src/api/notify-types.js';
import type { CreateFlags } from '../../src/campaign/draft.js';
import { contactChoice, readContact } from '../../src/campaign/preflight/contacts.js';
import { buildCampaign } from '../../src/campaign/preflight/input.js';
import { proofMessage } from '../../src/campaign/preflight/render.js';
import { versionsOf, type Version } from '../../src/campaign/preflight/versions.js';
import { isEmail } from '../../src/send/recipients.js';
import { withSenderHint } from '../../src/send/report.js';
import { BATCH_SIZE as MAX_RECIPIENTS } from '../../src/send/batches.js';
import { parseVars } from '../../src/send/variables.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { forTerminal } from '../../src/core/sanitize.js';

/** The declaration's own options, and the campaign's fields (derived from the same field table). */
type Opts = OptsOf<typeof declareProof> & CreateFlags;

/** What a proof cannot show of the real send; printed with every proof and in --json. */
export const DIFFERENCES = [
  'It is sent by the notification service: no unsubscribe footer (the campaign service adds one in the footer language), and no campaign click tracking or analytics (utm) tags; the notification service rewrites links for its own click tracking.',
  'Every proof recipient gets the same values (one contact\'s); the campaign fills ${FIELD}s per contact.',
  'The subject starts with "[Proof] " ("[Proof A] " / "[Proof B] " for the versions of an A/B test); a preheader is placed as hidden preview text at the top of the body.',
];

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const to = recipientsOf(opts.to);
  const { composed, problems } = await buildCampaign(ctx, opts, 'proof');
  if (problems.length) {
    throw new UsageError(problems.length === 1 ? problems[0] : `${problems.length} problems with this campaign:\n  ${problems.join('\n  ')}`, 'Nothing was sent; fix the campaign and run the command again.');
  }
  const versions = pick(versionsOf(composed.request.content), opts.only);
  const { values, source, file } = await valuesOf(opts);
  const missing = new Set<string>();
  const messages = versions.map((v) => ({ version: v.label ?? null, body: proofMessage(v, values, to, missing) }));
  if (missing.size) {
    const names = [...missing];
    const why = file ? `${file} has no such column` : 'no contact was given';
    ctx.io.warn(`${names.map((n) => `\${${n}}`).join(', ')} left as written: ${why}; give --var ${names[0]}=value${file ? '' : ' or --contacts contacts.csv'}.`);
  }

  const client = await ctx.notify();
  const sent: Array<{ version: string | null; subject: string; result: SendResult }> = [];
  for (const m of messages) {
    try {
      sent.push({ version: m.version, subject: m.body.subject, result: await client.sendEmail(m.body) });
    } catch (e) {
      if (sent.length) ctx.io.info(`Sent before this failed: ${sent.map((s) => `version ${s.version}`).join(', ')}.`);
      throw withSenderHint(ctx, e, String(m.body.fromAddress ?? '')); // the fixes `send` names for the same refusal
    }
  }
  if (opts.dryRun) return printDryRun(ctx); // each request was recorded, none sent
  report(ctx, sent, to, source, missing);
}

function recipientsOf(list: string[] | undefined): string[] {
  // --to is one recipient each time it is given, in every command (docs/flags.md): no comma lists.
  const to = [...new Set((list ?? []).map((t) => t.trim()).filter(Boolean))];
  if (!to.length) throw new UsageError('Say who gets the proof with --to, e.g. --to me@example.com (repeatable).');
  const bad = to.filter((a) => !isEmail(a));
  if (bad.length) throw new UsageError(`--to ${bad.map((a) => `"${a}"`).join(', ')} ${bad.length === 1 ? 'is not an email address' : 'are not email addresses'}; give your own address, such as --to me@example.com.`);
  if (to.length > MAX_RECIPIENTS) throw new UsageError(`A proof goes to at most ${MAX_RECIPIENTS} addresses (one request of the notification service); ${to.length} were given.`);
  return to;
}

function pick(versions: Version[], only: string | undefined): Version[] {
  if (only === undefined) return versions;
  const want = only.trim().toUpperCase();
  if (versions.length === 1) throw new UsageError('--only picks a version of an A/B test, and this campaign has no --ab.', 'Leave --only out.');
  if (want === 'BOTH') return versions;
  const v = versions.find((x) => x.label === want);
  if (!v) throw new UsageError(`--only "${only}" is not a version; use --only A or --only B (both are sent without it).`);
  return [v];
}

async function valuesOf(opts: Opts): Promise<{ values: Record<string, string>; source?: string; file?: string }> {
  let values: Record<string, string> = {};
  let source: string | undefined;
  let file: string | undefined;
  const choice = contactChoice(opts.contact, opts.contacts);
  if (opts.contacts !== undefined) {
    file = opts.contacts;
    const row = await readContact(file, 'contact', choice);
    values = row.values ?? {};
    source = `line ${row.line} of ${file}`;
  }
  return { values: { ...values, ...parseVars(opts.var) }, source, file };
}

function report(ctx: Context, sent: Array<{ version: string | null; subject: string; result: SendResult }>, to: string[], source: string | undefined, missing: Set<string>): void {
  const failures = sent.flatMap((s) => Object.entries(s.result.failure).map(([address, reason]) => ({ version: s.version, address, reason })));
  const accepted = sent.reduce((n, s) => n + s.result.success.length, 0);
  if (ctx.io.json) {
    ctx.io.printJson({
      proofs: sent.map((s) => ({ version: s.version, subject: s.subject, requestId: s.result.id ?? null, success: s.result.success, failure: s.result.failure })),
      valuesFrom: source ?? null,
      unrendered: [...missing],
      differences: DIFFERENCES,
    });
  } else {
    for (const s of sent) {
      for (const ok of s.result.success) {
        if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} ${s.version ? `Version ${s.version} sent` : 'Sent'} to ${forTerminal(ok.address, 200)} (message ${forTerminal(ok.id, 80)})`);
        else ctx.io.out([s.version ?? '', forTerminal(ok.address, 200), forTerminal(ok.id, 80)].join('\t'));
      }
    }
    for (const f of failures) ctx.io.warn(`Not sent${f.version ? ` (version ${f.version})` : ''} to ${forTerminal(f.address, 200)}: ${forTerminal(f.reason, 300)}`);
    if (accepted) {
      ctx.io.info(`What differs from the campaign send:\n${DIFFERENCES.map((d) => `  - ${d}`).join('\n')}`);
    }
  }
  if (!failures.length) return;
  throw new SilentExit(accepted ? ExitCode.PARTIAL : ExitCode.FAILED);
}
