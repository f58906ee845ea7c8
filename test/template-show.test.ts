// `mailctl template show ID`: the template as a record, or its html with --out FILE (refusing to
// overwrite without --force, and to write through a symlink a hostile party planted) or --out -
// (stdout). `--json --out -` used to print raw html where the one JSON document belongs; a folder
// given as --out used to say "already exists, pass --force" (and --force then failed with
// EISDIR): both are now refused up front, before any request.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/templates/:id'] });

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

describe('template show --out FILE', () => {
  it('writes the html, refuses to overwrite without --force, overwrites with it', async () => {
    const file = path.join(tempDir(), 'welcome.html');
    const html = (JSON.parse((await runCli(['template', 'show', 'tpl_welcome', '--json'], { sandbox: sb.get() })).stdout) as { template: string }).template;
    expect(html).toContain('<html>');

    const first = await runCli(['template', 'show', 'tpl_welcome', '--out', file], { sandbox: sb.get() });
    expect(first.exitCode).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(html);

    fs.writeFileSync(file, 'my own edits');
    const refused = await runCli(['template', 'show', 'tpl_welcome', '--out', file], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(fs.readFileSync(file, 'utf8')).toBe('my own edits');

    const forced = await runCli(['template', 'show', 'tpl_welcome', '--out', file, '--force'], { sandbox: sb.get() });
    expect(forced.exitCode).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(html);
  });

  it('--out - prints the html alone on stdout', async () => {
    const r = await runCli(['template', 'show', 'tpl_monthly', '--out', '-'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^<html>.*<\/html>$/s);
  });

  it('an unknown id gives the 40007 sentence and exit 1', async () => {
    const r = await runCli(['template', 'show', 'tpl_nope'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The code (sn) is invalid: no such template, group or campaign.');
    expect(r.stdout).toBe('');
  });
});

describe('template show --out FILE that is a symlink', () => {
  const hs = useHostileServer();

  function planted(): { victim: string; link: string } {
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ id: 'T1', name: 'Welcome', template: '<p>from the service</p>', updateDate: '2026-01-01T00:00:00Z' }));
    const dir = tempDir();
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const link = path.join(dir, 't.html');
    fs.symlinkSync(victim, link);
    return { victim, link };
  }

  it('refused (exit 2) naming the link, before anything is asked of the service', async () => {
    const { victim, link } = planted();
    const r = await runCli(['template', 'show', 'T1', '--out', link], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${link} (--out) is a symbolic link; mailctl does not write through links.`);
    expect(r.stderr).toContain('pass --force to replace the link itself');
    expect(hs.get().requests).toEqual([]);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('--force replaces the link itself with the file; what it pointed at is untouched', async () => {
    const { victim, link } = planted();
    const r = await runCli(['template', 'show', 'T1', '--out', link, '--force'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(link, 'utf8')).toBe('<p>from the service</p>');
  });
});
