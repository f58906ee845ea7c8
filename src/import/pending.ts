// What an import needs, once it ends on the service, to put the rows the service refused into
// its rejects file: where that file is, the input's header, and the line map of the upload
// (src/import/line-map.ts). Kept in `<config dir>/imports/<code>.json` from the moment the
// service has the rows until the rows are merged, so `import status CODE` finishes the job when
// `import` itself did not wait (--no-wait, a time-out, Ctrl-C). Private, written atomically;
// records older than the 30 days the service keeps import results are removed by the next import.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, writeFileAtomic } from '../fs/safe-write.js';
import { safeFileName } from '../fs/safe-name.js';
import { LineMap } from './line-map.js';

const VERSION = 1;
/** Spec 000 endpoint 5's results are kept 30 days (the import status lookup says so too). */
const KEPT_MS = 30 * 86_400_000;

export interface PendingImport {
  importSn: string;
  /** The campaign service the import went to: a record is used only against the same one. */
  service: string;
  /** How the input was named ("contacts.csv", "standard input"). */
  source: string;
  /** The rejects file, absolute. */
  rejectsPath: string;
  /** The input's header: the rejects file's columns after LINE and REASON. */
  header: string[];
  lineMap: LineMap;
}

export function pendingDir(configDir: string): string {
  return path.join(configDir, 'imports');
}

function fileOf(configDir: string, importSn: string): string {
  return path.join(pendingDir(configDir), `${safeFileName(importSn, 'import code')}.json`);
}

export async function savePending(configDir: string, p: PendingImport, now: number): Promise<void> {
  const dir = pendingDir(configDir);
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await prune(dir);
  const { lineMap, ...rest } = p;
  await writeFileAtomic(fileOf(configDir, p.importSn), JSON.stringify({ version: VERSION, ...rest, createdAt: new Date(now).toISOString(), lineMap: lineMap.toBuffer().toString('base64') }));
}

/** The record of this import for this service, or undefined (none, another service's, or not one mailctl wrote). */
export async function loadPending(configDir: string, importSn: string, service: string): Promise<PendingImport | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fsp.readFile(fileOf(configDir, importSn), 'utf8'));
  } catch {
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const texts = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (r?.version !== VERSION || r.importSn !== importSn || r.service !== service || typeof r.source !== 'string' || typeof r.rejectsPath !== 'string' || !path.isAbsolute(r.rejectsPath) || !texts(r.header) || typeof r.lineMap !== 'string') return undefined;
  const lineMap = LineMap.fromBuffer(Buffer.from(r.lineMap, 'base64'));
  if (!lineMap) return undefined;
  return { importSn, service, source: r.source, rejectsPath: r.rejectsPath, header: r.header, lineMap };
}

/** The rows are merged (or the import is gone): the record goes. */
export async function dropPending(configDir: string, importSn: string): Promise<void> {
  await fsp.rm(fileOf(configDir, importSn), { force: true });
}

/** Files' ages are on the file system's clock, so the real one judges them (not a run's injected clock). */
async function prune(dir: string, now = Date.now()): Promise<void> {
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    const st = await fsp.lstat(file).catch(() => undefined);
    if (st?.isFile() && now - st.mtimeMs > KEPT_MS) await fsp.rm(file, { force: true }).catch(() => {});
  }
}
