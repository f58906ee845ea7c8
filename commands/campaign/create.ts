import type { Context } from '../../src/cli/context.js';
import { CliError, ExitCode, ServiceError, SilentExit, UsageError } from '../../src/cli/errors.js';
import type { CampaignClient } from '../../src/api/campaign.js';
import { compose, type Composed } from '../../src/campaign/compose.js';
import { draftFromFlags, mergeDrafts, withProfileDefaults, type CreateFlags, type Draft } from '../../src/campaign/draft.js';
import { readCampaignFile } from '../../src/campaign/file.js';
import { resolveGroups } from '../../src/campaign/groups.js';
import { checkListFile, loadHtmlFiles } from '../../src/campaign/local-files.js';
import { putListFile } from '../../src/campaign/upload.js';
import { runWizard } from '../../src/campaign/wizard.js';
import { suggest } from '../../src/cli/suggest.js';
import { plannedRequest, printPlanned } from '../../src/output/dry-run.js';
import { listAllGroups } from '../../src/groups.js';
import { forTerminal, forTsvCell } from '../../src/output/sanitize.js';

interface Opts extends CreateFlags {
  file?: string;
  wizard?: boolean;
  dryRun?: boolean;
}

export async function run(ctx: Context, opts: Opts): Promise<void> {
  if (opts.wizard && !ctx.io.canPrompt) {
    throw new UsageError(
      '--wizard asks its questions on a terminal, and there is none here.',
      'Pass the campaign as flags instead (--name, --group, --subject, --from, --html-file; --at and --timezone to schedule) or as --file campaign.json.',
    );
  }
  const settings = await ctx.settings();
  let draft: Draft = mergeDrafts(opts.file ? readCampaignFile(opts.file) : {}, draftFromFlags(opts));
  if (opts.wizard) {
    draft = await runWizard(ctx, draft, {
      listGroups: () => listAllGroups(ctx),
      listTemplates: async () => (await (await ctx.campaign()).listTemplates()).templates,
      profile: settings.profile,
    });
  }
  draft = withProfileDefaults(draft, settings.profile);

  // Every local rule first: a run with any mistake sends nothing.
  const problems: string[] = [];
  draft = loadHtmlFiles(draft, problems);
  const c = compose(draft, ctx.clock.now());
  problems.push(...c.problems);
  if (c.once && draft.list) checkListFile(draft.list, problems);
  refuse(problems);
  for (const w of c.warnings) ctx.io.warn(forTerminal(w, 2000));

  const client = await ctx.campaign();
  await fillFromService(ctx, client, c, draft);

  if (opts.dryRun) {
    const planned = [await plannedRequest(ctx, 'campaign', 'POST', c.path, c.request)];
    if (c.once) {
      planned.push({ method: 'PUT', url: '(the preSignedUrl in the response)', headers: { 'content-type': 'text/csv' }, body: `(the contents of ${draft.list})` });
    }
    await printPlanned(ctx, planned);
    return;
  }

  if (opts.wizard && !(await confirmWizard(ctx, c))) {
    ctx.io.info('Nothing was sent.');
    throw new SilentExit(2);
  }

  const submit = { 7: client.submitCampaign, 8: client.submitOnceCampaign, 9: client.submitAbCampaign, 10: client.submitOnceAbCampaign }[c.endpoint];
  let created: Awaited<ReturnType<typeof submit>>;
  try {
    created = await submit.call(client, c.request);
  } catch (e) {
    throw explainRefusal(e);
  }
  // From here on the campaign exists: no failure may claim "nothing was sent" (exit 2).
  try {
    let uploaded: number | undefined;
    if (c.once) {
      if (!created.preSignedUrl) {
        throw new ServiceError(`The service created campaign ${created.sn} but gave no upload address for the list.`, { hint: `Delete it with \`${suggest(ctx, 'campaign', 'delete', created.sn, '--yes')}\` and try again.` });
      }
      uploaded = await putListFile(ctx, created.preSignedUrl, draft.list!, created.sn);
    }
    report(ctx, c, created.sn, uploaded);
  } catch (e) {
    throw afterCreate(ctx, e, created.sn);
  }
}

/** Any failure once the campaign exists: never exit 2, and it names the campaign. */
function afterCreate(ctx: Context, e: unknown, sn: string): unknown {
  if (!(e instanceof CliError) || e.exitCode !== ExitCode.USAGE) return e;
  return new CliError(`Campaign ${sn} was created, then: ${e.message}`, ExitCode.FAILED, e.hint ?? `Check it with \`${suggest(ctx, 'campaign', 'status', sn)}\`.`, { ...e.facts, code: 'FAILED', reached: 'yes' });
}

/**
 * decisions row 25: mailctl sends excludeLists [] when no --exclude is given, as the vendor's
 * client does; if the service refuses that, say in words how to get past it.
 */
function explainRefusal(e: unknown): unknown {
  if (!(e instanceof ServiceError) || e.facts.serviceCode !== '40001') return e;
  const fields = (e.body as { invalidFields?: unknown } | undefined)?.invalidFields;
  const named = Array.isArray(fields) ? fields.map(String) : typeof fields === 'string' ? [fields] : [];
  if (!named.some((f) => /excludeLists/.test(f))) return e;
  return new ServiceError('The service requires at least one exclusion group (form.excludeLists), and none was given.', {
    status: e.status,
    code: e.code,
    body: e.body,
    hint: 'Pass --exclude GROUP (an empty group serves) and run the command again.',
  });
}

function refuse(problems: string[]): void {
  if (!problems.length) return;
  const hint = 'Nothing was sent; fix this and run the command again (see `mailctl campaign create --help`).';
  if (problems.length === 1) throw new UsageError(problems[0], hint);
  throw new UsageError(`${problems.length} problems with this campaign:\n  ${problems.join('\n  ')}`, hint.replace('fix this', 'fix these'));
}

/** Reads that make the request exact: the template's html, and group names turned into codes. */
async function fillFromService(ctx: Context, client: CampaignClient, c: Composed, draft: Draft): Promise<void> {
  if (draft.template !== undefined && c.request.content.htmlContent === '') {
    const t = await client.getTemplate(draft.template.trim());
    if (!t.template?.trim()) throw new UsageError(`Template ${draft.template} has no html content.`, 'Choose another with --template, or give --html-file.');
    c.request.content.htmlContent = t.template;
  }
  if (c.once) return;
  const form = c.request.form;
  const all = await listAllGroups(ctx);
  const send = resolveGroups(form.selectedLists ?? [], all, 'send');
  const exclude = resolveGroups(form.excludeLists ?? [], all, 'exclude');
  refuse([...send.problems, ...exclude.problems]);
  form.selectedLists = send.codes;
  form.excludeLists = exclude.codes;
}

function summary(c: Composed): string {
  const kind = c.ab ? `A/B ${c.ab} test` : 'campaign';
  const audience = c.once ? 'to the uploaded list' : `to ${c.request.form.selectedLists!.length} group${c.request.form.selectedLists!.length === 1 ? '' : 's'}`;
  const when = c.schedule ? `scheduled for ${c.schedule.label}` : 'sending now';
  return `${kind} ${audience}, ${when}`;
}

async function confirmWizard(ctx: Context, c: Composed): Promise<boolean> {
  ctx.io.info(`\n"${forTerminal(c.request.form.name, 120)}": ${summary(c)}.`);
  return ctx.prompter.confirm(c.schedule ? 'Schedule this campaign?' : 'Send this campaign now?', false);
}

function report(ctx: Context, c: Composed, sn: string, uploaded?: number): void {
  if (ctx.io.json) {
    ctx.io.printJson({
      sn, name: c.request.form.name, endpoint: c.path, type: c.ab ? 'A_B_TEST' : 'REGULAR', abTest: c.ab ?? null, once: c.once,
      selectedLists: c.request.form.selectedLists ?? [], excludeLists: c.request.form.excludeLists ?? [],
      schedule: c.schedule ? { timezone: c.schedule.timezone, city: c.schedule.zone.city, scheduleDate: c.schedule.scheduleDate } : null,
      ...(uploaded !== undefined ? { listBytes: uploaded } : {}),
    });
    return;
  }
  if (!ctx.io.isTTY) {
    ctx.io.out(forTsvCell(sn));
    return;
  }
  ctx.io.out(`${ctx.io.paint('green', '✓')} Created ${summary(c)}: ${forTerminal(sn, 100)}`);
  if (uploaded !== undefined) ctx.io.info(`Uploaded the list (${uploaded} bytes).`);
  ctx.io.info(`Follow it with: ${suggest(ctx, 'campaign', 'status', sn, '--wait')}`);
  if (c.schedule) ctx.io.info(`Pause it before ${c.schedule.scheduleDate} with: ${suggest(ctx, 'campaign', 'pause', sn)}`);
}
