// What `report sync` remembers in its directory: one small JSON file, written atomically (temp
// beside + rename), so a kill at any moment leaves either the old state or the new one. A file
// is recorded only after it has been renamed into place, so whatever the state lists is whole.
import fs from 'node:fs';
import path from 'node:path';
import { CliError, ExitCode } from '../../core/errors.js';
import { writeFileAtomic } from '../../fs/safe-write.js';
import { isHistory, type MetricSnapshot } from './history.js';

export const STATE_FILE = '.mailctl-sync.json';

export interface FileRecord {
  /** Relative to the sync directory, with forward slashes. */
  path: string;
  bytes: number;
  /** Data rows (the header line not counted). */
  rows: number;
  sha256: string;
  downloadedAt: string;
  /** The link's createdDate: the same value later means the service reused the same file. */
  createdDate?: string;
}

export interface CampaignRecord {
  name: string;
  sentBeginDate?: string;
  sentEndDate: string;
  /** Our last export request the service accepted (ISO): it ignores a repeat within an hour. */
  exportedAt?: string;
  files: Record<string, FileRecord>;
  lastError?: { code: string; message: string; at: string };
  /** When the service stopped knowing the campaign (deleted): no longer tried. */
  goneAt?: string;
  /** Its metrics as runs read them, oldest first, when they changed (history.ts): the dashboard's rates over time. */
  metrics?: MetricSnapshot[];
  /** The last time a run read its metrics (ISO), changed or not. */
  metricsCheckedAt?: string;
}

export interface SyncState {
  version: 1;
  /** End of the last default (or --since) range that was listed: the next default run starts here, less a margin. */
  highWater?: string;
  /** Our last export request, any campaign: the next run paces its first export after it. */
  lastExportAt?: string;
  /**
   * By campaign code, the service's word: a Map, so that a code such as `__proto__` or
   * `constructor` is a key like any other and never reaches Object.prototype. On disk it is a
   * plain JSON object, as before.
   */
  campaigns: Map<string, CampaignRecord>;
}

/** What the file holds: the same, with `campaigns` as a JSON object. */
type StateFile = Omit<SyncState, 'campaigns'> & { campaigns: Record<string, CampaignRecord> };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isRecord(v: unknown): v is CampaignRecord {
  return isObject(v) && typeof v.sentEndDate === 'string' && isObject(v.files) && isHistory(v.metrics);
}

export function loadState(dir: string): SyncState {
  const file = path.join(dir, STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, campaigns: new Map() };
    throw new CliError(`Cannot read ${file}: ${(e as Error).message}.`, ExitCode.FAILED);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  const o = v as Partial<StateFile> | undefined;
  // Object.entries reads own properties only: JSON.parse makes `"__proto__": {…}` one of them.
  const entries = isObject(o) && isObject(o.campaigns) ? Object.entries(o.campaigns) : [];
  if (!isObject(o) || o.version !== 1 || !isObject(o.campaigns) || !entries.every(([, c]) => isRecord(c))) {
    throw new CliError(
      `${file} is not a state file of mailctl report sync (damaged or from another program).`,
      ExitCode.FAILED,
      'Move it away and run again: files already in the directory are checked and kept when whole, the rest is downloaded again.',
    );
  }
  return { ...(o as StateFile), campaigns: new Map(entries) };
}

/** Saves are queued so parallel downloads never write the file at the same time. */
export function stateSaver(dir: string, state: SyncState): () => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  return () => {
    // Object.fromEntries defines each code as an own property (`__proto__` included), as JSON.parse reads it back.
    const file: StateFile = { ...state, campaigns: Object.fromEntries(state.campaigns) };
    const text = JSON.stringify(file, null, 1) + '\n';
    queue = queue.catch(() => {}).then(() => writeFileAtomic(path.join(dir, STATE_FILE), text));
    return queue;
  };
}
