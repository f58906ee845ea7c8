// DIR/manifest.csv and the rows of --json: one row per file the directory holds, from the state
// (so only whole files are listed), oldest campaign first.
import path from 'node:path';
import { toCsv } from '../../run/output/csv.js';
import { writeFileAtomic } from '../../fs/safe-write.js';
import { REPORT_TYPES } from '../download.js';
import type { SyncState } from './state.js';

export const MANIFEST_FILE = 'manifest.csv';

export interface ManifestRow {
  campaignCode: string;
  campaignName: string;
  finishedDate: string;
  type: string;
  /** Relative to the sync directory. */
  path: string;
  bytes: number;
  rows: number;
  sha256: string;
  downloadedAt: string;
}

// The column names every list of mailctl gives these (issue 20.6): a campaign's code is `code`, its end `sent_until`.
const HEADER = ['code', 'name', 'sent_until', 'type', 'path', 'bytes', 'rows', 'sha256', 'downloaded_at'];

export function manifestRows(state: SyncState): ManifestRow[] {
  const order = (t: string) => (REPORT_TYPES as readonly string[]).indexOf(t);
  return [...state.campaigns]
    .sort(([a, x], [b, y]) => x.sentEndDate.localeCompare(y.sentEndDate) || a.localeCompare(b))
    .flatMap(([sn, c]) =>
      Object.entries(c.files)
        .sort(([a], [b]) => order(a) - order(b))
        .map(([type, f]) => ({
          campaignCode: sn,
          campaignName: c.name,
          finishedDate: c.sentEndDate,
          type,
          path: f.path,
          bytes: f.bytes,
          rows: f.rows,
          sha256: f.sha256,
          downloadedAt: f.downloadedAt,
        })),
    );
}

export async function writeManifest(dir: string, rows: ManifestRow[]): Promise<void> {
  const cells = rows.map((r) => [r.campaignCode, r.campaignName, r.finishedDate, r.type, r.path, r.bytes, r.rows, r.sha256, r.downloadedAt]);
  await writeFileAtomic(path.join(dir, MANIFEST_FILE), toCsv(cells, HEADER));
}
