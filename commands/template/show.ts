import fsSync from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/core/errors.js';
import { printRecord } from '../../src/run/output/format.js';
import { refuseSymlink, writeFileAtomic } from '../../src/fs/safe-write.js';
import { DiskError } from '../../src/fs/disk-error.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareShow } from './index.js';
import type { Context } from '../../src/run/context.js';
import type { Template } from '../../src/api/campaign-types.js';
import { openPage, savePage } from '../../src/run/page-file.js';
import { previewPage } from '../../src/campaign/preview/page.js';
import { offlineFindings } from '../../src/campaign/preflight/rules.js';
import { knownFields } from '../../src/campaign/preflight/input.js';
import { suggester } from '../../src/core/suggest.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';

export const run: Verb<typeof declareShow> = async (ctx, opts, id) => {
  // --json owns stdout for its one document; raw html there would break the script reading it.
  if (opts.out === '-' && ctx.io.json) throw new UsageError('--out - writes the raw html to stdout, where --json prints its one JSON document; use one or the other.', 'Drop --json to get the html, or drop --out - to get the template (html included) as JSON.');
  if (opts.out === '-' && ctx.io.output === 'csv') throw new UsageError('--out - writes the raw html to stdout, but this run prints CSV there (--csv, or the profile\'s output setting).', 'Drop --csv (or pass --output auto over the setting) to get the html, or drop --out - to get the template record as CSV.');
  if (opts.out === '-' && opts.web) throw new UsageError('--out - writes the raw html to stdout, where --web prints the path of the page it writes; use one or the other.', 'Give --out a file name to have both.');
  const out = opts.out && opts.out !== '-' ? opts.out : undefined;
  if (out) checkOut(out, id, opts.force);
  const client = await ctx.campaign();
  const t = await client.getTemplate(id);
  const html = t.template ?? '';
  const page = opts.web ? await previewFile(ctx, t, html) : undefined;
  if (opts.out === '-') {
    ctx.io.stdout.write(html);
    return;
  }
  if (out) {
    try {
      // A private file written beside --out and renamed over it: a symlink there is replaced
      // (with --force), never written through.
      await writeFileAtomic(out, html, { replace: !!opts.force });
    } catch (e) {
      // A full (or read-only, or failing) disk is not bad input: the DISK error, exit 1, and main
      // adds the command that runs this again once there is room.
      if (e instanceof DiskError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UsageError(`${out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`Cannot write ${out}: its folder does not exist.`, 'Create the folder first, or choose another --out file.');
      throw new UsageError(`Cannot write ${out}: ${(e as Error).message}.`);
    }
    if (ctx.io.json) ctx.io.printJson({ id: t.id, name: t.name, updateDate: t.updateDate, out, bytes: Buffer.byteLength(html), ...(page ? { preview: page } : {}) });
    else ctx.io.info(`Wrote ${Buffer.byteLength(html)} bytes of html to ${out}${page ? `, and the preview page to ${forTerminal(page, 500)}` : ''}`);
    await openPage(ctx, page ?? '', !!page);
    return;
  }
  if (page) {
    // The page is the run's result: its path on stdout, as `campaign preview` prints it.
    if (ctx.io.json) ctx.io.printJson({ id: t.id, name: t.name, updateDate: t.updateDate, bytes: Buffer.byteLength(html), preview: page });
    else ctx.io.out(ctx.io.isTTY ? forTerminal(page, 1000) : forTsvCell(page));
    await openPage(ctx, page, true);
    return;
  }
  await printRecord(ctx.io, [['id', t.id], ['name', t.name], ['updated', t.updateDate, 'date'], ['html', `${html.length} characters (use --out FILE to save it)`]], t);
};

/** Before the request: --out must be a file name, not a link (unless --force), not taken (unless --force). */
function checkOut(out: string, id: string, force: boolean | undefined): void {
  // A folder would otherwise read as "already exists, pass --force", and --force cannot help.
  if (fsSync.statSync(out, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--out ${out} is a folder; give a file name such as ${path.join(out, `${id}.html`)}.`);
  }
  refuseSymlink(out, '--out', force);
  if (!force && fsSync.lstatSync(out, { throwIfNoEntry: false })) throw new UsageError(`${out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
}

/**
 * The template as a recipient sees it (src/campaign/preview/page.ts), with the checks of
 * `campaign preflight` that a template's html answers to (a preheader belongs to a campaign).
 */
async function previewFile(ctx: Context, t: Template, html: string): Promise<string> {
  const findings = offlineFindings({
    versions: [{ html }],
    ga: { enable: false, ecommerceEnable: false },
    known: await knownFields(ctx, {}),
    preheaderFlag: () => '--preheader',
    cmd: suggester(ctx),
  }).filter((f) => f.rule !== 'preheader-missing');
  const name = typeof t.name === 'string' && t.name ? ` (${t.name})` : '';
  const doc = previewPage({
    title: `Template ${t.id}${name}`,
    versions: [{ html }],
    findings,
    unrendered: [],
    notes: [`Last changed ${t.updateDate ?? '(not given)'}. \${FIELD}s are shown as written; \`mailctl campaign preview --template ${t.id} --contacts FILE\` fills them from a contact. Links were not checked.`],
    generatedAt: new Date(ctx.clock.now()).toISOString(),
  });
  return savePage(ctx, doc, { stem: `template-${t.id}` });
}
