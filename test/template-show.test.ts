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
import { findAll, findOne, hasClass, parseHtml, parseHtmlFragment, textOf } from './helpers/html.js';

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

describe('template show --web (issue 22.1)', () => {
  /** A stand-in xdg-open on PATH that writes down what it was asked to open. */
  function fakeOpener(): { env: Record<string, string>; log: string } {
    const bin = tempDir('mailctl-bin-');
    const log = path.join(bin, 'opened.txt');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(log)}, process.argv.slice(2).join('\\n'));\n`, { mode: 0o755 });
    return { env: { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` }, log };
  }

  it('writes the preview page (the html in a sandboxed frame, fields as written), prints its path and opens it', async () => {
    sb.expect('GET /campaign/v1/templates/:id', { required: true });
    const { env, log } = fakeOpener();
    const configDir = tempDir();
    const r = await runCli(['template', 'show', 'tpl_welcome', '--web'], { sandbox: sb.get(), env, configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = r.stdout.trim();
    expect(path.dirname(file)).toBe(path.join(configDir, 'previews'));
    expect(fs.readFileSync(log, 'utf8')).toBe(file);
    const page = parseHtml(fs.readFileSync(file, 'utf8'));
    expect(textOf(findOne(page, 'h1'))).toBe('Template tpl_welcome (Welcome)');
    const frame = findOne(page, 'iframe');
    expect(frame.attrs.sandbox).toBe('');
    expect(textOf(parseHtmlFragment(frame.attrs.srcdoc))).toContain('Welcome, ${NAME}!');
    // A template has no preheader to miss; its html is still checked.
    expect(findAll(page, hasClass('rule')).map(textOf)).not.toContain('preheader-missing');
  });

  it('a hostile template: its name is text on the page, its scripts stay in the sandboxed frame', async () => {
    sb.expect('GET /campaign/v1/templates/:id', { required: true });
    sb.get().sandbox.state.campaign.templates.push({ id: 'tpl_evil', name: '<img src=x onerror=alert(1)>', template: '<p>hi</p><script>alert(2)</script>', updateDate: '2026-10-01T08:00:00.000Z' });
    const r = await runCli(['template', 'show', 'tpl_evil', '--web', '--json'], { sandbox: sb.get(), env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(r.stderr).toMatch(/Not opened in a browser: there is no graphical session/);
    const page = parseHtml(fs.readFileSync(doc.preview, 'utf8'));
    expect(findAll(page, 'img')).toEqual([]);
    expect(findAll(page, 'script')).toEqual([]);
    expect(textOf(findOne(page, 'h1'))).toBe('Template tpl_evil (<img src=x onerror=alert(1)>)');
    expect(findAll(parseHtmlFragment(findOne(page, 'iframe').attrs.srcdoc), 'script')).toHaveLength(1);
  });

  it('--out - with --web: refused before any request (both want stdout)', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['template', 'show', 'tpl_welcome', '--out', '-', '--web'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});
