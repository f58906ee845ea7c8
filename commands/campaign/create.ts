import path from 'node:path';
import type { Context } from '../../src/run/context.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declareCreate } from './index.js';
import { certainlyNotDone, CliError, ExitCode, ServiceError, SilentExit, UsageError } from '../../src/core/errors.js';
import { compose, type Composed } from '../../src/campaign/compose.js';
import { draftFromFlags, mergeDrafts, withProfileDefaults, type CreateFlags, type Draft } from '../../src/campaign/draft.js';
import { DRAFT_DIR, readCampaignFile, saveDraftFile } from '../../src/campaign/file.js';
import { DiskError } from '../../src/fs/append-whole.js';
import { resolveGroups } from '../../src/campaign/groups.js';
import { checkListFile, loadHtmlFiles } from '../../src/campaign/local-files.js';
import { putListFile } from '../../src/campaign/upload.js';
import { editAnswers, runWizard, type StepId, type WizardDeps } from '../../src/campaign/wizard.js';
import { printReview } from '../../src/campaign/review.js';
import { adviseRefusal, excludeListsRefusal } from '../../src/campaign/refusal.js';
import type { Group } from '../../src/api/campaign-types.js';
import { preflightBeforeCreate } from '../../src/campaign/preflight/run.js';
import { suggest, suggester, suggestWithNote } from '../../src/core/suggest.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { groupLookupForDryRun, listAllGroups } from '../../src/groups/find.js';
import { templateHtml } from '../../src/campaign/preflight/input.js';
import { recordUpload } from '../../src/run/transfer.js';
import { bytes } from '../../src/core/human.js';
import { warnOverBalance } from '../../src/campaign/balance-check.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import { entryFor, recordCampaign } from '../../src/campaign/ledger.js';
import { asksFirst, outgoingLines } from '../../src/campaign/outgoing.js';
import { campaignLedger } from '../../src/campaign/which-ledger.js';
import { groupCacheScope, mergeCampaignCache } from '../../src/config/completion-cache.js';
import { errorWords } from '../../src/cli/error-text.js';

/** The declaration's own options, and the campaign's fields (derived from the same field table). */
type Opts = OptsOf<typeof declareCreate> & CreateFlags;

export async function run(ctx: Context, opts: Opts): Promise<void> {
  if (opts.wizard && !ctx.io.canPrompt) {
    throw new UsageError(
      '--wizard asks its questions on a terminal, and there is none here.',
      'Pass the campaign as flags instead (--name, --group, --subject, --from, --html-file; --at and --timezone to schedule) or as --file campaign.json.',
    );
  }
  if (opts.wizard && opts.dryRun) {
    throw new UsageError(
      '--wizard offers the account\'s groups and templates, which it reads from the service, and --dry-run makes no request.',
      'Run the wizard without --dry-run (it shows the whole request and asks before anything is sent), or give the campaign as flags or --file with --dry-run.',
    );
  }
  const settings = await ctx.settings();
  const given: Draft = mergeDrafts(opts.file ? readCampaignFile(opts.file) : {}, draftFromFlags(opts));
  if (opts.wizard) return wizard(ctx, opts, given, settings.profile);

  const { c, draft, groups } = await prepare(ctx, given, settings.profile, opts);
  // What cannot be taken back is shown and asked about first, on a terminal only: a script says
  // what it means with its flags, and --yes says it here.
  if (!opts.dryRun && !opts.yes && ctx.io.canPrompt && asksFirst(c)) await confirmCreate(ctx, c, draft, groups);
  let created: Created;
  try {
    created = await submit(ctx, c);
  } catch (e) {
    throw explainRefusal(e, c.request);
  }
  if (opts.dryRun) return dryRunReport(ctx, c, draft);
  await afterSubmit(ctx, c, draft, created, groups);
}

type Profile = Parameters<typeof withProfileDefaults>[1];
type Created = { sn: string; preSignedUrl?: string };

/** Every local rule, then the reads that make the request exact; a run with any mistake sends nothing. */
async function prepare(ctx: Context, answers: Draft, profile: Profile, opts: Opts): Promise<{ c: Composed; draft: Draft; groups: Group[] }> {
  const problems: string[] = [];
  const draft = loadHtmlFiles(withProfileDefaults(answers, profile), problems);
  const c = compose(draft, ctx.clock.now(), suggester(ctx));
  problems.push(...c.problems);
  if (c.once && draft.list) checkListFile(draft.list, problems);
  refuse(ctx, problems);
  for (const w of c.warnings) ctx.io.warn(forTerminal(w, 2000));
  const groups = await fillFromService(ctx, c, draft);
  // The campaign is complete (template html in place); nothing is sent yet.
  await preflightBeforeCreate(ctx, c, opts);
  return { c, draft, groups };
}

/** Who, what and when, then one question; no is exit 2 with nothing sent. */
async function confirmCreate(ctx: Context, c: Composed, draft: Draft, groups: Group[]): Promise<void> {
  // Printed even under --quiet: the question that follows is about these lines.
  ctx.io.error(['', ...outgoingLines(c, draft, groups, ctx.clock.now()), ''].join('\n'));
  if (await ctx.prompter.confirm(c.schedule ? 'Schedule this campaign?' : 'Send this campaign now?', false)) return;
  ctx.io.info('Nothing was sent.');
  throw new SilentExit(ExitCode.USAGE);
}

/** --dry-run: the submit was recorded, not sent; a one-time list's upload goes to an address only its answer gives. */
async function dryRunReport(ctx: Context, c: Composed, draft: Draft): Promise<void> {
  if (c.once) await recordUpload(ctx, '(the preSignedUrl in the answer)', draft.list!);
  await printDryRun(ctx);
}

async function submit(ctx: Context, c: Composed): Promise<Created> {
  return (await ctx.campaign()).submit(c.endpoint, c.request);
}

async function afterSubmit(ctx: Context, c: Composed, draft: Draft, created: Created, groups: Group[]): Promise<void> {
  // From here on the campaign exists: no failure may claim "nothing was sent" (exit 2).
  try {
    // Into `campaign list` before anything else is said or done (a one-time list's upload may
    // still fail): its code is then findable whatever happens next.
    const listed = await addToLedger(ctx, c, created.sn, groups);
    let uploaded: number | undefined;
    if (c.once) {
      if (!created.preSignedUrl) {
        throw new ServiceError(`The service created campaign ${created.sn} but gave no upload address for the list.`, { hint: `Delete it with \`${suggest(ctx, 'campaign', 'delete', created.sn, '--yes')}\` and try again.` });
      }
      uploaded = await putListFile(ctx, created.preSignedUrl, draft.list!, created.sn);
    }
    report(ctx, c, created.sn, listed, uploaded);
  } catch (e) {
    throw afterCreate(ctx, e, created.sn);
  }
}

/**
 * The wizard: questions, then a review of the whole request, then one confirmation. When the
 * request is refused (locally or by the service) nothing typed is lost: the answers are saved as
 * a --file draft, the user hears what to change, and may change those answers and try again.
 */
async function wizard(ctx: Context, opts: Opts, given: Draft, profile: Profile): Promise<void> {
  const known = new Map<string, Group>();
  const deps: WizardDeps = {
    listGroups: async () => {
      const all = await listAllGroups(ctx);
      for (const g of all) known.set(g.sn, g);
      return all;
    },
    listTemplates: async () => (await (await ctx.campaign()).listTemplates()).templates,
    profile,
    known,
  };
  let answers = await runWizard(ctx, given, deps);
  for (;;) {
    let prepared: Awaited<ReturnType<typeof prepare>>;
    try {
      prepared = await prepare(ctx, answers, profile, opts);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      answers = await recover(ctx, e, answers, deps, { sentence: 'Change the answers named above.', steps: [] });
      continue;
    }
    const { c, draft, groups } = prepared;
    await printReview(ctx.io, c, draft, groups);
    if (!(await ctx.prompter.confirm(c.schedule ? 'Schedule this campaign?' : 'Send this campaign now?', false))) {
      // Declining loses nothing: change any answer and review again, keep them as a draft, or quit.
      const next = await ctx.prompter.select('Not sent. What now?', [
        { name: 'Change an answer, then review again', value: 'change' },
        { name: 'Save the answers as a draft (prints the command that sends it) and stop', value: 'draft' },
        { name: 'Quit without saving', value: 'quit' },
      ]);
      if (next === 'change') {
        answers = await editAnswers(ctx, answers, deps, []);
        continue;
      }
      if (next === 'draft') return saveDraft(ctx, answers);
      ctx.io.info('Nothing was sent.');
      throw new SilentExit(ExitCode.USAGE);
    }
    let created: Created;
    try {
      created = await submit(ctx, c);
    } catch (e) {
      const err = explainRefusal(e, c.request);
      // Only a refusal the answers can fix is worth editing; anything else (Forbidden, the daily
      // limit, a network failure) still keeps the answers when the request certainly did nothing.
      if (err instanceof ServiceError && err.facts.refused) {
        answers = await recover(ctx, err, answers, deps, adviseRefusal(err, c.request));
        continue;
      }
      if (certainlyNotDone(err)) await keepAnswers(ctx, answers);
      throw err;
    }
    return afterSubmit(ctx, c, draft, created, groups);
  }
}

/** Says what went wrong and what to change, saves the answers, and offers to change them. */
async function recover(ctx: Context, e: CliError, answers: Draft, deps: WizardDeps, advice: { sentence: string; steps: StepId[] }): Promise<Draft> {
  const refusedBy = e instanceof ServiceError ? 'The service refused the campaign' : 'The campaign cannot be sent as it is';
  ctx.io.error(`${ctx.io.paint('red', `${refusedBy}:`)} ${forTerminal(errorWords(e, ctx).message, 1000)}`);
  ctx.io.error(`${ctx.io.paint('bold', 'To fix it:')} ${advice.sentence}`);
  await keepAnswers(ctx, answers);
  const next = await ctx.prompter.select('What now?', [
    { name: 'Change answers and try again', value: 'edit' },
    { name: 'Stop here (the draft stays saved)', value: 'stop' },
  ]);
  if (next === 'stop') {
    // Already said in full above; under --json the one error document still carries it.
    if (ctx.io.json) throw e;
    throw new CliError('', e.exitCode, undefined, e.facts);
  }
  return editAnswers(ctx, answers, deps, advice.steps);
}

/** Declined at the review and kept: the draft's file and the command that sends it (exit 0: done as asked). */
async function saveDraft(ctx: Context, answers: Draft): Promise<void> {
  const file = await saveDraftFile(path.join(ctx.configDir, DRAFT_DIR), answers, ctx.clock.now());
  if (ctx.io.json) {
    ctx.io.printJson({ draft: file, send: suggest(ctx, 'campaign', 'create', '--file', file) });
    return;
  }
  ctx.io.out(`${ctx.io.isTTY ? `${ctx.io.paint('green', '✓')} Saved as a draft, nothing sent: ` : ''}${file}`);
  ctx.io.info(`Send it with: ${suggestWithNote(ctx, 'campaign', 'create', '--file', file)}`);
}

/** Saves the answers as a --file draft and prints the command that sends it. */
async function keepAnswers(ctx: Context, answers: Draft): Promise<void> {
  let file: string;
  try {
    file = await saveDraftFile(path.join(ctx.configDir, DRAFT_DIR), answers, ctx.clock.now());
  } catch (e) {
    // The run's own error (the refusal, the network) still follows: it is what to act on. The
    // draft is a convenience, and the user is told it is not there and why.
    if (!(e instanceof DiskError)) throw e;
    ctx.io.error(`Your answers could not be saved: ${forTerminal(e.message, 400)}`);
    return;
  }
  ctx.io.error(`Your answers are saved in ${file}.`);
  ctx.io.error(`To send them later (after the fix, or after editing that file): ${suggestWithNote(ctx, 'campaign', 'create', '--file', file)}`);
}

/** Any failure once the campaign exists: never exit 2, and it names the campaign. */
function afterCreate(ctx: Context, e: unknown, sn: string): unknown {
  if (!(e instanceof CliError) || e.exitCode !== ExitCode.USAGE) return e;
  return new CliError(`Campaign ${sn} was created, then: ${e.message}`, ExitCode.FAILED, e.hint ?? `Check it with \`${suggest(ctx, 'campaign', 'status', sn)}\`.`, { ...e.facts, code: 'FAILED', reached: 'yes' });
}

/**
 * decisions row 25: mailctl sends excludeLists [] when no --exclude is given, as the vendor's
 * client does; if the service refuses that, say in words how to get past it. A refusal that names
 * no fields (the {errorCode, message} shape) may be that one: the hint says so conditionally,
 * decided from the code and the request sent, never from the message's words.
 */
function explainRefusal(e: unknown, sent: Composed['request']): unknown {
  if (!(e instanceof ServiceError)) return e;
  const why = excludeListsRefusal(e, sent);
  if (!why) return e;
  const same = { status: e.status, code: e.code, body: e.body, facts: e.facts, serviceMessage: e.serviceMessage };
  if (why === 'maybe') {
    // The same refusal with a hint added: still about the request, so its code's sentence is kept.
    const err = new ServiceError(e.message, { ...same, hint: 'If the field is form.excludeLists, pass --exclude GROUP (an empty group serves).' });
    return e.request ? err.about(e.request) : err;
  }
  return new ServiceError('The service requires at least one exclusion group (form.excludeLists), and none was given.', {
    ...same,
    hint: 'Pass --exclude GROUP (an empty group serves) and run the command again.',
  });
}

function refuse(ctx: Context, problems: string[]): void {
  if (!problems.length) return;
  const hint = `Nothing was sent; fix this and run the command again (see \`${suggest(ctx, 'campaign', 'create', '--help')}\`).`;
  if (problems.length === 1) throw new UsageError(problems[0], hint);
  throw new UsageError(`${problems.length} problems with this campaign:\n  ${problems.join('\n  ')}`, hint.replace('fix this', 'fix these'));
}

/**
 * Reads that make the request exact: the template's html, and group names turned into codes. A
 * dry run records them and reads nothing: a placeholder stands for the html, and the groups
 * stay as given (exact when given as codes).
 */
async function fillFromService(ctx: Context, c: Composed, draft: Draft): Promise<Group[]> {
  if (draft.template !== undefined && c.request.content.htmlContent === '') {
    c.request.content.htmlContent = await templateHtml(ctx, draft.template.trim());
  }
  if (c.once) return [];
  const form = c.request.form;
  if (ctx.dryRun) {
    const given = [...(form.selectedLists ?? []), ...(form.excludeLists ?? [])];
    await groupLookupForDryRun(ctx, given, form.excludeLists?.length ? '--group, --exclude' : '--group');
    await warnOverBalance(ctx, [], form.selectedLists ?? []);
    return [];
  }
  const all = await listAllGroups(ctx);
  const send = resolveGroups(form.selectedLists ?? [], all, 'send', suggester(ctx));
  const exclude = resolveGroups(form.excludeLists ?? [], all, 'exclude', suggester(ctx));
  refuse(ctx, [...send.problems, ...exclude.problems]);
  form.selectedLists = send.codes;
  form.excludeLists = exclude.codes;
  await warnOverBalance(ctx, all, send.codes); // decisions row P8: one balance request, the groups already in hand
  return all;
}

function summary(c: Composed): string {
  const kind = c.ab ? `A/B ${c.ab} test` : 'campaign';
  const audience = c.once ? 'to the uploaded list' : `to ${c.request.form.selectedLists!.length} group${c.request.form.selectedLists!.length === 1 ? '' : 's'}`;
  const when = c.schedule ? `scheduled for ${c.schedule.label}` : 'sending now';
  return `${kind} ${audience}, ${when}`;
}

/**
 * Records the campaign in the ledger `campaign list` reads, on disk before "Created" is said. If
 * the disk refuses, the campaign still exists and is reported as created (exit 0: a script that
 * saw a failure would create it a second time), with a warning saying it is not in the list and
 * why, and `listed: false` under --json.
 */
async function addToLedger(ctx: Context, c: Composed, sn: string, groups: Group[]): Promise<boolean> {
  const file = await campaignLedger(ctx);
  try {
    recordCampaign(file, entryFor(c, sn, groups, ctx.clock.now()));
  } catch (e) {
    ctx.io.warn(`Campaign ${forTerminal(sn, 100)} was created but could not be added to \`${suggest(ctx, 'campaign', 'list')}\`: ${forTerminal(e instanceof Error ? e.message : String(e), 500)} Keep its code.`);
    return false;
  }
  // Completion offers it from now on (campaign status, pause, delete, report …).
  mergeCampaignCache(ctx.configDir, groupCacheScope(await ctx.settings()), [{ sn, name: c.request.form.name }]);
  return true;
}

function report(ctx: Context, c: Composed, sn: string, listed: boolean, uploaded?: number): void {
  if (ctx.io.json) {
    ctx.io.printJson({
      sn, name: c.request.form.name, endpoint: c.path, type: c.ab ? 'A_B_TEST' : 'REGULAR', abTest: c.ab ?? null, once: c.once,
      selectedLists: c.request.form.selectedLists ?? [], excludeLists: c.request.form.excludeLists ?? [],
      schedule: c.schedule ? { timezone: c.schedule.timezone, city: c.schedule.zone.city, scheduleDate: c.schedule.scheduleDate } : null,
      listed,
      ...(uploaded !== undefined ? { listBytes: uploaded } : {}),
    });
    return;
  }
  if (!ctx.io.isTTY) {
    ctx.io.out(forTsvCell(sn));
    return;
  }
  ctx.io.out(`${ctx.io.paint('green', '✓')} Created ${summary(c)}: ${forTerminal(sn, 100)}`);
  if (uploaded !== undefined) ctx.io.info(`Uploaded the list (${bytes(uploaded)}).`);
  ctx.io.info(`Follow it with: ${suggestWithNote(ctx, 'campaign', 'status', sn, '--wait')}`);
  if (c.schedule) ctx.io.info(`Pause it before ${c.schedule.scheduleDate} with: ${suggestWithNote(ctx, 'campaign', 'pause', sn)}`);
}
