// mailctl campaign preview — the campaign as one contact gets it, as a page to look at: built from
// the same inputs as `campaign create` by the same code (src/campaign/preflight/input.ts), ${FIELD}s
// filled from one contact as `proof` fills them (render.ts), the preflight findings beside the
// mail (run.ts). Nothing is sent; the page is written (src/run/page-file.ts) and, with --web, opened.
import type { Context } from '../../src/run/context.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declarePreview } from './index.js';
import { UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import type { CreateFlags } from '../../src/campaign/draft.js';
import { finding, summaryLine, type Finding } from '../../src/campaign/preflight/findings.js';
import { buildCampaign, knownFields } from '../../src/campaign/preflight/input.js';
import { preflight } from '../../src/campaign/preflight/run.js';
import { contactChoice, readContact } from '../../src/campaign/preflight/contacts.js';
import { renderFields } from '../../src/campaign/preflight/render.js';
import { versionsOf } from '../../src/campaign/preflight/versions.js';
import { previewPage, type PreviewVersion } from '../../src/campaign/preview/page.js';
import { savedDraft } from '../../src/campaign/preview/drafts.js';
import { checkPageOut, openPage, savePage } from '../../src/run/page-file.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';

/** The declaration's own options, and the campaign's fields (derived from the same field table). */
/** --file comes with the campaign inputs shared from `create` (registerChecks in index.ts). */
type Opts = OptsOf<typeof declarePreview> & CreateFlags & { file?: string };

export async function run(ctx: Context, opts: Opts): Promise<void> {
  // Every flag mistake before any file is read or request made.
  const choice = contactChoice(opts.contact, opts.contacts);
  if (opts.draft !== undefined && opts.file !== undefined) throw new UsageError('--draft and --file both name the campaign to preview; give one of them.');
  const linkTimeoutMs = opts.linkTimeout === undefined ? undefined : parseDuration(opts.linkTimeout, '--link-timeout', { positive: true });
  checkPageOut(opts.out, opts.force);
  const file = opts.draft !== undefined ? savedDraft(ctx.configDir, opts.draft) : opts.file;

  const contact = opts.contacts === undefined ? undefined : await readContact(opts.contacts, 'contact', choice);
  const known = await knownFields(ctx, { field: opts.field, contacts: opts.contacts });
  const { composed, problems, draft } = await buildCampaign(ctx, { ...opts, file }, 'preflight');
  const result = await preflight(ctx, composed, { links: opts.links !== false, linkTimeoutMs, known });
  const findings: Finding[] = [
    ...problems.map((p) => finding('campaign-invalid', 'input', p)),
    ...composed.warnings.map((w) => finding('campaign-warning', 'input', w)),
    ...result.findings,
  ];

  const values = contact?.values ?? {};
  const missing = new Set<string>();
  const versions: PreviewVersion[] = versionsOf(composed.request.content).map((v) => ({
    label: v.label,
    subject: renderFields(v.subject ?? '', values, missing),
    preheader: v.preheader === undefined ? undefined : renderFields(v.preheader, values, missing),
    fromName: v.fromName,
    fromAddress: v.fromAddress,
    html: renderFields(v.html ?? '', values, missing),
  }));
  const valuesFrom = contact ? `line ${contact.line} of ${opts.contacts}` : undefined;
  const notes = [
    ...(opts.links === false ? ['Links were not checked (--no-links).'] : result.linksChecked ? [`${result.linksChecked} link${result.linksChecked === 1 ? '' : 's'} checked.`] : []),
    'The campaign service adds its unsubscribe footer (in the footer language) when it sends; it is not shown here.',
  ];
  const title = draft.name ? `Campaign ${draft.name}` : 'Campaign preview';
  const html = previewPage({ title, versions, findings, valuesFrom, unrendered: [...missing], notes, generatedAt: new Date(ctx.clock.now()).toISOString() });
  const out = await savePage(ctx, html, { out: opts.out, force: opts.force, stem: `campaign-${draft.name ?? 'preview'}` });

  if (missing.size) {
    const names = [...missing].map((n) => `\${${n}}`).join(', ');
    ctx.io.warn(`${forTerminal(names, 300)} left as written: ${contact ? `${forTerminal(opts.contacts, 300)} has no such column` : 'no contact was given (--contacts FILE)'}.`);
  }
  if (ctx.io.json) {
    ctx.io.printJson({
      file: out,
      versions: versions.map((v) => ({ version: v.label ?? null, subject: v.subject, preheader: v.preheader ?? null, fromName: v.fromName ?? null, fromAddress: v.fromAddress ?? null })),
      valuesFrom: valuesFrom ?? null,
      unrendered: [...missing],
      findings,
      linksChecked: result.linksChecked,
    });
  } else {
    ctx.io.out(ctx.io.isTTY ? forTerminal(out, 1000) : forTsvCell(out));
    ctx.io.info(`Preview written; preflight: ${summaryLine(findings)}${result.linksChecked ? ` (${result.linksChecked} link${result.linksChecked === 1 ? '' : 's'} checked)` : ''}.`);
  }
  await openPage(ctx, out, opts.web);
}
