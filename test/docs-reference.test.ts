// docs/commands/*.md and docs/mailctl.1 are the command declarations' own `--help` texts
// (test/helpers/reference.ts). A change to a flag or a help text that is not carried into the
// reference fails here; `npm run docs` rewrites it (MAILCTL_WRITE_DOCS=1).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceFiles } from './helpers/reference.js';
import { root } from './helpers/global-setup.js';

const docs = path.join(root, 'docs');
const write = process.env.MAILCTL_WRITE_DOCS === '1';

describe('the command reference', () => {
  it('every page equals what the command prints for --help, and no page is left for a command that is gone', async () => {
    const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
    const files = await referenceFiles(version);
    if (write) {
      fs.rmSync(path.join(docs, 'commands'), { recursive: true, force: true });
      fs.mkdirSync(path.join(docs, 'commands'), { recursive: true });
      for (const [rel, text] of files) fs.writeFileSync(path.join(docs, rel), text);
    }
    const stale: string[] = [];
    for (const [rel, text] of files) {
      const file = path.join(docs, rel);
      const onDisk = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (onDisk !== text) stale.push(rel);
    }
    const extra = fs.readdirSync(path.join(docs, 'commands')).filter((f) => !files.has(`commands/${f}`));
    expect({ stale, extra }, 'the reference is out of date: run `npm run docs` and commit docs/').toEqual({ stale: [], extra: [] });
  }, 60_000);
});
