// Report files (endpoint 17 links) saved to a directory. The links point at file hosts, not the
// API, so they are fetched with ctx.transport(): no x-api-key goes with them.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../cli/context.js';
import { LimitError, ServiceError, UsageError } from '../cli/errors.js';
import type { ReportLink } from '../api/campaign-types.js';

export interface Saved {
  reportType: string;
  file: string;
  bytes: number;
}

export async function downloadLinks(ctx: Context, sn: string, links: ReportLink[], dir: string, force = false): Promise<Saved[]> {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`Cannot create the directory ${dir}: ${(e as Error).message}.`);
  }
  const targets = links.map((l) => ({ link: l, file: path.join(dir, `${safe(sn)}_${safe(l.reportType)}.csv`) }));
  const existing = targets.filter((t) => fs.existsSync(t.file)).map((t) => t.file);
  if (existing.length && !force) throw new UsageError(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}.`, 'Pass --force to overwrite, or choose another --out directory.');
  const fetchFn = await ctx.transport();
  const saved: Saved[] = [];
  const spin = await ctx.io.spinner('Downloading report files…');
  try {
    for (const { link, file } of targets) {
      spin.text(`Downloading ${link.reportType}…`);
      let res: Response;
      try {
        res = await fetchFn(link.link, { signal: ctx.signal });
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        throw new LimitError(`Downloading the ${link.reportType} file failed: ${(e as Error).message}.`, 'Run the command again; files already saved are kept (use --force to replace them).');
      }
      if (!res.ok || !res.body) {
        await res.arrayBuffer().catch(() => undefined);
        throw new ServiceError(`The ${link.reportType} file link answered HTTP ${res.status}.`, { status: res.status, hint: `Links expire; get fresh ones with \`mailctl report export ${sn} --wait\`.` });
      }
      const tmp = `${file}.part`;
      await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(tmp));
      fs.renameSync(tmp, file);
      saved.push({ reportType: link.reportType, file, bytes: fs.statSync(file).size });
    }
  } finally {
    spin.stop();
  }
  return saved;
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_');
}
