// src/core/file-problem.ts: a folder or a missing path where an input file belongs gives one
// sentence naming the file's role and the fix, exit 2, nothing sent — the same for every command
// that reads a file.
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox, refusedBeforeSending } from './helpers/sandbox.js';

const sb = useSandbox();

describe('input files that cannot be read', () => {
  const dir = tempDir();
  const cases: Array<[string, string[]]> = [
    ['contacts file', ['import', dir, '--group', 'G']],
    ['recipients file', ['send', '--recipients-file', dir, '--subject', 's', '--html', 'h', '--from', 'a@example.com']],
    ['html content file', ['send', '--to', 'a@example.com', '--subject', 's', '--html-file', dir, '--from', 'a@example.com']],
    ['payload file', ['webhook', 'verify', dir, '--signature', 'ab']],
    ['campaign file', ['campaign', 'create', '--file', dir]],
    ['emails file', ['contacts', 'remove', '--group', 'G', '--emails-file', dir, '--yes']],
  ];
  it.each(cases)('a folder as the %s: exit 2, "is a folder", nothing sent', async (what, argv) => {
    const r = await refusedBeforeSending(sb, argv);
    expect(r.stderr).toContain(`The ${what} ${dir}`);
    expect(r.stderr).toContain('is a folder; give the path of a file.');
    expect(r.stderr).not.toMatch(/EISDIR|unexpected failure/);
  });

  it('a missing recipients file says so and names the flag', async () => {
    const r = await runCli(['send', '--recipients-file', `${dir}/nope.csv`, '--subject', 's', '--html', 'h', '--from', 'a@example.com'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`The recipients file ${dir}/nope.csv (--recipients-file) does not exist.`);
  });
});
