// The files of one campaign in the sync directory: DIR/<finished-date>_<code>/<type>.csv, each
// downloaded (without the API key, src/run/transfer.ts) under a random hidden name beside its
// place, measured (bytes, data rows, sha256), then renamed into place. A kill leaves at most a
// hidden temporary file, which the next run removes.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../../run/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { download } from '../../run/transfer.js';
import { PRIVATE_DIR_MODE } from '../../fs/safe-write.js';
import { safeFileName, uniqueSafeName } from '../../fs/safe-name.js';
import { forTerminal } from '../../core/sanitize.js';
import { asDiskError, DiskError } from '../../fs/append-whole.js';
import type { FileRecord } from './state.js';

/** What a killed download leaves: our hidden name, and whatever temporary file download() makes beside it. */
const TEMP = /^\.[^/]*\.download(\..*)?$/;

/**
 * `2026-10-31_CP123`: the UTC day the campaign finished, then its code. A code that had to be
 * changed to be a file name carries a suffix from the code (`a/b` → `…_a_b_1f2e3d4c`), so two
 * campaigns never share a folder.
 */
export function campaignFolder(sn: string, sentEndDate: string): string {
  const t = Date.parse(sentEndDate);
  if (Number.isNaN(t)) {
    throw new CliError(`The service gave campaign ${forTerminal(sn, 80)} the finish date "${String(sentEndDate).slice(0, 40)}", which is not a date.`, ExitCode.FAILED, undefined, { code: 'BAD_RESPONSE', reached: 'yes', refused: false, retryable: false });
  }
  return `${new Date(t).toISOString().slice(0, 10)}_${uniqueSafeName(sn, 'campaign code')}`;
}

export const reportFile = (folder: string, type: string) => `${folder}/${safeFileName(type, 'report type')}.csv`;

/**
 * Fails the campaign when something other than a folder has its folder's name (mailctl neither
 * writes through a link nor removes the user's file): checked before its export is requested,
 * and again as the folder is made.
 */
export function refuseInTheWay(dir: string, folder: string, sn: string): void {
  const abs = path.join(dir, folder);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st || st.isDirectory()) return;
  const what = st.isSymbolicLink() ? 'a symbolic link' : st.isFile() ? 'a file' : 'something other than a folder';
  throw new CliError(`${abs} is ${what}, where report sync keeps the files of campaign ${sn} in a folder; move it away and run again.`, ExitCode.FAILED);
}

/** Creates the campaign's folder (0700: the files list people) and clears what a killed run left. */
export function prepareFolder(dir: string, folder: string, sn: string): string {
  const abs = path.join(dir, folder);
  refuseInTheWay(dir, folder, sn);
  try {
    fs.mkdirSync(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    refuseInTheWay(dir, folder, sn); // appeared meanwhile
    throw asDiskError(e, abs);
  }
  refuseInTheWay(dir, folder, sn);
  for (const name of fs.readdirSync(abs)) if (TEMP.test(name)) fs.rmSync(path.join(abs, name), { force: true });
  return abs;
}

export interface Digest {
  bytes: number;
  rows: number;
  sha256: string;
}

/** One read: size, sha256 and the number of CSV records after the header (quoted line breaks stay inside their record). */
export async function digestFile(file: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  let breaks = 0;
  let quoted = false;
  let last = -1;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === 0x22) quoted = !quoted;
      else if (c === 0x0a && !quoted) breaks++;
    }
    last = chunk[chunk.length - 1];
  }
  const records = breaks + (bytes > 0 && last !== 0x0a ? 1 : 0);
  return { bytes, rows: Math.max(0, records - 1), sha256: hash.digest('hex') };
}

/** Whether the file the state lists is still there and whole (same size and sha256). */
export async function stillWhole(dir: string, rec: FileRecord): Promise<boolean> {
  const abs = path.join(dir, rec.path);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st || !st.isFile() || st.size !== rec.bytes) return false;
  return (await digestFile(abs)).sha256 === rec.sha256;
}

/** Downloads one report file into place; returns what the state records of it. */
export async function fetchReportFile(ctx: Context, dir: string, rel: string, url: string, o: { what: string; expiredHint: string; now: () => number; deadlineMs?: number }): Promise<Omit<FileRecord, 'createdDate'>> {
  const final = path.join(dir, rel);
  const tmp = path.join(path.dirname(final), `.${path.basename(final)}.${randomBytes(6).toString('hex')}.download`);
  try {
    await download(ctx, url, tmp, { what: o.what, expiredHint: o.expiredHint, deadlineMs: o.deadlineMs });
    const d = await digestFile(tmp);
    await fsp.rename(tmp, final);
    return { path: rel, ...d, downloadedAt: new Date(o.now()).toISOString() };
  } catch (e) {
    // The hidden name is ours; the file the user will look for is the report file.
    if (e instanceof DiskError) throw new DiskError(final, e.errno);
    throw e;
  } finally {
    await fsp.rm(tmp, { force: true });
    await fsp.rm(`${tmp}.part`, { force: true });
  }
}
