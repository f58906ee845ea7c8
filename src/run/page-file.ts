// Where a page mailctl makes for a person (a campaign or template preview) is written, and what
// the run says about it: the path on stdout (it is the run's result), or in --json; with --web,
// the page opened in the default browser, or one sentence on why not (exit 0 all the same: the
// file is there).
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from './context.js';
import { UsageError } from '../core/errors.js';
import { PRIVATE_DIR_MODE, refuseSymlink, writeFileAtomic } from '../fs/safe-write.js';
import { DiskError } from '../fs/disk-error.js';
import { safeFileName } from '../fs/safe-name.js';
import { forTerminal } from '../core/sanitize.js';
import { openInBrowser, type OpenResult } from './open-browser.js';

/** The folder pages go to without --out: local state, like drafts (MAILCTL_CONFIG_DIR/previews). */
export const PREVIEW_DIR = 'previews';

/** --out checked before any request: a file name, not a folder, not a link (unless --force), not taken (unless --force). */
export function checkPageOut(out: string | undefined, force: boolean | undefined): void {
  if (out === undefined) return;
  if (!out.trim() || out === '-') throw new UsageError(`--out "${out}" is not a file name; give one such as --out preview.html.`);
  if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--out ${out} is a folder; give a file name such as ${path.join(out, 'preview.html')}.`);
  refuseSymlink(out, '--out', force);
  if (!force && fs.lstatSync(out, { throwIfNoEntry: false })) throw new UsageError(`${out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
}

/**
 * Writes the page whole (a private file renamed into place): to --out, or to a new file in
 * MAILCTL_CONFIG_DIR/previews named after `stem` and the time, never over another. Returns its path.
 */
export async function savePage(ctx: Context, html: string, o: { out?: string; force?: boolean; stem: string }): Promise<string> {
  if (o.out !== undefined) {
    try {
      await writeFileAtomic(o.out, html, { replace: !!o.force });
    } catch (e) {
      // A full (or read-only, or failing) disk is not bad input: the DISK error, exit 1, and main
      // adds the command that runs this again once there is room.
      if (e instanceof DiskError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UsageError(`${o.out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`Cannot write ${o.out}: its folder does not exist.`, 'Create the folder first, or choose another --out file.');
      throw new UsageError(`Cannot write ${o.out}: ${(e as Error).message}.`);
    }
    return o.out;
  }
  const dir = path.join(ctx.configDir, PREVIEW_DIR);
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stamp = new Date(ctx.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  let slug = 'preview';
  try {
    slug = safeFileName(o.stem, 'name').slice(0, 40);
  } catch {
    /* no letters or digits: the plain stem */
  }
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${slug}-${stamp}${n > 1 ? `-${n}` : ''}.html`);
    try {
      await writeFileAtomic(file, html, { replace: false });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** With --web, opens the page; says on stderr what happened (the path is already on stdout). */
export async function openPage(ctx: Context, file: string, web: boolean | undefined): Promise<OpenResult | undefined> {
  if (!web) return undefined;
  const r = await openInBrowser(ctx.env, file);
  if (r.opened) ctx.io.info(`Opened ${forTerminal(file, 500)} in the default browser.`);
  else ctx.io.warn(`Not opened in a browser: ${r.why}. The page is ${forTerminal(file, 500)}; open it in any browser.`);
  return r;
}
