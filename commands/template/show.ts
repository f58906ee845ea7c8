import fs from 'node:fs/promises';
import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { printRecord } from '../../src/output/format.js';

export async function run(ctx: Context, opts: { out?: string; force?: boolean }, id: string): Promise<void> {
  const client = await ctx.campaign();
  const t = await client.getTemplate(id);
  const html = t.template ?? '';
  if (opts.out === '-') {
    ctx.io.stdout.write(html);
    return;
  }
  if (opts.out) {
    try {
      await fs.writeFile(opts.out, html, { flag: opts.force ? 'w' : 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${opts.out} already exists.`, 'Pass --force to overwrite it, or choose another --out file.');
      throw new UsageError(`Cannot write ${opts.out}: ${(e as Error).message}.`);
    }
    if (ctx.io.json) ctx.io.printJson({ id: t.id, name: t.name, updateDate: t.updateDate, out: opts.out, bytes: Buffer.byteLength(html) });
    else ctx.io.info(`Wrote ${Buffer.byteLength(html)} bytes of html to ${opts.out}`);
    return;
  }
  printRecord(ctx.io, [['id', t.id], ['name', t.name], ['updated', t.updateDate], ['html', `${html.length} characters (use --out FILE to save it)`]], t);
}
