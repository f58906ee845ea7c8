// `campaign preview --draft [NAME]`: a draft the wizard saved when a campaign was refused
// (saveDraftFile, MAILCTL_CONFIG_DIR/drafts/campaign-STAMP-NAME.json), found by its file name —
// with or without .json — or, without a name, the newest. A name is a name in that folder,
// never a path: a file elsewhere is --file's job.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { DRAFT_DIR } from '../file.js';

export function savedDraft(configDir: string, name: string | true): string {
  const dir = path.join(configDir, DRAFT_DIR);
  let files: string[] = [];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read the drafts folder ${dir}: ${(e as Error).message}.`);
  }
  if (!files.length) {
    throw new UsageError(`There is no saved draft in ${dir}.`, 'The wizard (campaign create --wizard) saves one when a campaign is refused; give the campaign as flags or --file instead.');
  }
  const newestFirst = files
    .map((f) => ({ f, t: fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.t - a.t || b.f.localeCompare(a.f))
    .map((x) => x.f);
  if (name === true) return path.join(dir, newestFirst[0]);
  if (name.includes('/') || name.includes(path.sep)) {
    throw new UsageError(`--draft takes the name of a saved draft, not a path ("${name}").`, `Give a file elsewhere with --file ${name}.`);
  }
  const want = name.endsWith('.json') ? name : `${name}.json`;
  if (files.includes(want)) return path.join(dir, want);
  throw new UsageError(`There is no saved draft named ${name} in ${dir}.`, `The newest: ${newestFirst.slice(0, 3).join(', ')} (or --draft alone for the newest).`);
}
