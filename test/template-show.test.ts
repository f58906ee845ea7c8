// `template show --out`: `--json --out -` used to print raw html where the one JSON document
// belongs; a folder given as --out used to say "already exists, pass --force" (and --force then
// failed with EISDIR). Both are now refused up front, before any request.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('template show --out', () => {
  it('--json with --out -: one JSON error document, exit 2, nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['--json', 'template', 'show', 'tpl_welcome', '--out', '-'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.message).toContain('--out - writes the raw html to stdout');
    expect(r.stdout).not.toContain('<html>');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('--out - without --json still writes the html to stdout', async () => {
    const r = await runCli(['template', 'show', 'tpl_welcome', '--out', '-'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('<html>');
  });

  it('a folder as --out (even with --force): exit 2 suggesting a file inside it', async () => {
    const dir = tempDir();
    const before = sb.get().sandbox.requests().length;
    for (const extra of [[], ['--force']]) {
      const r = await runCli(['template', 'show', 'tpl_welcome', '--out', dir, ...extra], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`--out ${dir} is a folder; give a file name such as ${path.join(dir, 'tpl_welcome.html')}.`);
      expect(r.stderr).not.toContain('--force');
    }
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a file in a missing folder: exit 2 saying the folder does not exist', async () => {
    const out = path.join(tempDir(), 'missing', 't.html');
    const r = await runCli(['template', 'show', 'tpl_welcome', '--out', out], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Cannot write ${out}: its folder does not exist.`);
  });
});
