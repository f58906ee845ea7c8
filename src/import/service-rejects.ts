// The one rejects file: the rows the service refused (its failure file, which numbers the lines
// of the cleaned upload) joined to the rows mailctl rejected before the upload, each under the
// line of the user's own file (src/import/line-map.ts) with its reason, in line order. The
// service's reason is marked as its own ("service: EMAIL duplicated in the file").
//
// Both files are streamed (csv-parse in, the one CSV writer for people out: formula-like cells
// stay text), into a private temporary file beside the rejects file that then replaces it, so a
// failure leaves the local rejects as they were. The failure file is read by declaration: a CSV
// whose header has a LINE and a REASON column (decisions row P15), followed by the row's columns
// under the upload's header. Anything else is not merged and the caller says so.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { parse } from 'csv-parse';
import { createTempBeside } from '../fs/safe-write.js';
import { csvLine } from '../run/output/csv.js';
import { CsvFile } from './csv-writer.js';
import { isOldRejects } from './rejects.js';
import type { LineMap } from './line-map.js';

export interface MergeInput {
  /** The service's failure file, downloaded. */
  failureFile: string;
  rejectsPath: string;
  /** The input's header. */
  header: readonly string[];
  lineMap: LineMap;
  /** Told the temporary file's name before it exists (for cleanup after a kill). */
  onTemp?(tmp: string): Promise<void>;
}

export type MergeOutcome =
  /** Rows of the failure file now in the rejects file; `unmapped`: those whose upload line could not be mapped (LINE left empty). */
  | { merged: number; unmapped: number; path: string }
  /** The failure file is not in the documented form, or the rejects file's place holds someone else's file: nothing changed. */
  | { notMerged: string };

const SERVICE = 'service';

export async function mergeServiceRejects(o: MergeInput): Promise<MergeOutcome> {
  const service = records(o.failureFile);
  const head = await service.next();
  if (head.done) return { notMerged: 'it is empty' };
  const names = head.value.map((h) => h.replace(/^\uFEFF/, '').trim().toUpperCase());
  const lineAt = names.indexOf('LINE');
  const reasonAt = names.indexOf('REASON');
  if (lineAt < 0 || reasonAt < 0) {
    await service.return(undefined);
    return { notMerged: 'it has no LINE and REASON columns' };
  }
  const exists = !!(await fsp.lstat(o.rejectsPath).catch(() => undefined));
  if (exists && !(await isOldRejects(o.rejectsPath))) {
    await service.return(undefined);
    return { notMerged: `${o.rejectsPath} is not a rejects file mailctl wrote, and is left as it is` };
  }
  // Where each of the input's columns is in the failure file (by name; the upload drops unnamed columns).
  const from = o.header.map((h) => (h.trim() ? names.findIndex((n, i) => i !== lineAt && i !== reasonAt && n === h.trim().toUpperCase()) : -1));
  const local = exists ? records(o.rejectsPath) : undefined;
  if (local) await local.next(); // its header: LINE,REASON and the same columns

  const { path: tmp, handle } = await createTempBeside(o.rejectsPath, { beforeCreate: o.onTemp });
  const out = new CsvFile(tmp, handle);
  let merged = 0;
  let unmapped = 0;
  try {
    out.write(csvLine(['LINE', 'REASON', ...o.header]));
    const unplaced: string[][] = [];
    let mine = local ? await local.next() : { done: true as const, value: undefined };
    for await (const row of service) {
      if (row.length === 1 && row[0].trim() === '') continue;
      const uploadLine = /^\d+$/.test((row[lineAt] ?? '').trim()) ? Number(row[lineAt].trim()) : NaN;
      const at = o.lineMap.sourceLineOf(uploadLine);
      const reason = `${SERVICE}: ${row[reasonAt] ?? ''}`;
      const cells = from.map((i) => (i < 0 ? '' : row[i] ?? ''));
      merged++;
      if (at === undefined) {
        // Kept, never dropped: at the end, with the line the service gave.
        unmapped++;
        unplaced.push(['', `${SERVICE} (line ${row[lineAt] ?? '?'} of the upload): ${row[reasonAt] ?? ''}`, ...cells]);
        continue;
      }
      // The local rows before it (on the same line: the local one first).
      while (!mine.done && lineOf(mine.value) <= at) {
        out.write(csvLine(mine.value));
        mine = await local!.next();
      }
      out.write(csvLine([at, reason, ...cells]));
      await out.drain();
    }
    while (!mine.done) {
      out.write(csvLine(mine.value));
      mine = await local!.next();
      await out.drain();
    }
    for (const row of unplaced) out.write(csvLine(row));
    await out.close();
    await fsp.rename(tmp, o.rejectsPath);
    return { merged, unmapped, path: o.rejectsPath };
  } catch (e) {
    await out.discard().catch(() => {});
    throw e;
  } finally {
    await local?.return(undefined);
  }
}

function lineOf(row: string[]): number {
  const n = Number(row[0]);
  return Number.isFinite(n) ? n : Infinity;
}

/** The records of a CSV file, streamed (any line end, quoted values over several lines). */
async function* records(file: string): AsyncGenerator<string[], void, undefined> {
  const input = fs.createReadStream(file);
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }));
  input.on('error', (e) => parser.destroy(e));
  try {
    for await (const rec of parser as AsyncIterable<string[]>) yield rec;
  } finally {
    input.destroy();
  }
}
