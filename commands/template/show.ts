import fsSync from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/core/errors.js';
import { printRecord } from '../../src/output/format.js';
import { refuseSymlink, writeFileAtomic } from '../../src/fs/safe-write.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareShow } from './index.js';

export const run: Verb<typeof declareShow> = async (ctx, opts, id) => {
  // --json owns stdout for its one document; raw html there would break the script reading it.
  if (opts.out === '-' && ctx.io.json) throw new UsageError('--out - writes the raw html to stdout, where --json prints its one JSON document; use one or the other.', 'Drop --json to get the html, or drop --out - to get the template (html included) as JSON.');
  if (opts.out === '-' && ctx.io.output === 'csv') throw new UsageError('--out - writes the raw html to stdout, but this run prints CSV there (--csv, or the profile\'s output setting).', 'Drop --csv (or pass --output auto over the setting) to get the html, or drop --out - to get the template record as CSV.');
  const out = opts.out && opts.out !== '-' ? opts.out : undefined;
  if (out) checkOut(out, id, opts.force);
  const client = await ctx.campaign();
  const t = await client.getTemplate(id);
  const html = t.template ?? '';
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
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UsageError(`${out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`Cannot write ${out}: its folder does not exist.`, 'Create the folder first, or choose another --out file.');
      throw new UsageError(`Cannot write ${out}: ${(e as Error).message}.`);
    }
    if (ctx.io.json) ctx.io.printJson({ id: t.id, name: t.name, updateDate: t.updateDate, out, bytes: Buffer.byteLength(html) });
    else ctx.io.info(`Wrote ${Buffer.byteLength(html)} bytes of html to ${out}`);
    return;
  }
  await printRecord(ctx.io, [['id', t.id], ['name', t.name], ['updated', t.updateDate], ['html', `${html.length} characters (use --out FILE to save it)`]], t);
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
