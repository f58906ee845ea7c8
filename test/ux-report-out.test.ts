// `report export --out` names a directory. A file there used to be found only after the export
// had been requested and waited for (then "Cannot create the directory …", exit 2 although a
// request had gone out). Exit 2 means "nothing was sent", so the check comes first.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('report export/links --out that is a file', () => {
  it('export: refused before the export is requested, with the fix', async () => {
    const file = path.join(tempDir(), 'report.csv');
    fs.writeFileSync(file, 'keep me\n');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'export', 'CP0001', '--out', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--out ${file} is a file, not a directory`);
    expect(r.stderr).toContain('--out DIR');
    expect(r.stderr).not.toContain('unexpected failure');
    expect(sb.get().sandbox.requests().length).toBe(before);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me\n');
  });

  it('export --json: the error is the one JSON document', async () => {
    const file = path.join(tempDir(), 'report.csv');
    fs.writeFileSync(file, '');
    const r = await runCli(['--json', 'report', 'export', 'CP0001', '--out', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toContain('is a file, not a directory');
  });
});
