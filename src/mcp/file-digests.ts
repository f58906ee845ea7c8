// What a plan reads from the server's disk, bound to its token: every argument that names a
// regular file, with the SHA-256 of its content. A dry run's recording does not always hold a
// file's content (an import's body names its rows by count and size only), so without this a
// file changed between the plan and its confirmation (same size, other addresses) was uploaded
// under a token that had never shown it. Read again when the plan is confirmed: a file changed,
// added or gone since is a changed plan (src/mcp/plan-tokens.ts, reason "plan-changed").
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type FileDigests = Array<[string, string]>;

/** [absolute path, sha256 hex] of each argument value that names a regular file now, sorted by path. */
export async function fileDigests(args: Record<string, unknown>, cwd = process.cwd()): Promise<FileDigests> {
  const values = Object.values(args).flat().filter((v): v is string => typeof v === 'string' && v !== '' && v !== '-');
  const out = new Map<string, string>();
  for (const v of values) {
    const at = path.resolve(cwd, v);
    if (out.has(at)) continue;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(at);
    } catch {
      continue; // not a file's name (a subject, an address), or no file there now
    }
    if (!stat.isFile()) continue;
    out.set(at, await digestOf(at));
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function digestOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  } catch (e) {
    // Unreadable now: the command itself says why when it runs; the plan holds that it could not be read.
    return `unreadable: ${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  return hash.digest('hex');
}
