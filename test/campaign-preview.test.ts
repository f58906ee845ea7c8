// `campaign preview` (issue 22.1): one HTML page showing the campaign as one contact gets it —
// sender, subject, preheader, the body in a sandboxed frame — with the preflight findings beside
// it. Read back with an HTML parser (what a browser would build): values filled from the
// contact, hostile values shown as text, the frame's sandbox on; --contact, --draft, --out,
// --json and the refusals; --web through a stand-in xdg-open on PATH.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { findAll, findOne, hasClass, parseHtml, parseHtmlFragment, textOf, type El } from './helpers/html.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/templates/:id'] });

const MAIL = ['--name', 'Dec news', '--group', 'Newsletter', '--from', 'news@example.com', '--from-name', 'Acme'];

function contactsFile(rows: string[], header = 'EMAIL,NAME,PLAN'): string {
  const file = path.join(tempDir(), 'contacts.csv');
  fs.writeFileSync(file, [header, ...rows].join('\n') + '\n');
  return file;
}

async function preview(args: string[], o: Parameters<typeof runCli>[1] = {}) {
  const configDir = o.configDir ?? tempDir();
  const out = path.join(tempDir(), 'preview.html');
  const r = await runCli(['campaign', 'preview', '--no-links', '--out', out, ...args], { configDir, ...o });
  return { ...r, out, page: fs.existsSync(out) ? parseHtml(fs.readFileSync(out, 'utf8')) : undefined };
}

const field = (root: El, name: string) => findAll(root, (e) => e.attrs['data-field'] === name).map(textOf);
const frames = (root: El) => findAll(root, 'iframe');

describe('campaign preview: the page', () => {
  it('fills ${FIELD}s from the first contact and shows sender, subject, preheader and the body in a sandboxed frame', async () => {
    const contacts = contactsFile(['ann@example.com,Ann Lee,Gold', 'bob@example.com,Bob Ray,Free']);
    const r = await preview([...MAIL, '--subject', 'Hi ${NAME}', '--preheader', 'Your plan: ${PLAN}', '--html', '<p>Hello ${NAME}, you are on ${PLAN}.</p>', '--contacts', contacts]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(r.out); // the page's path is the result
    const page = r.page!;
    expect(field(page, 'subject')).toEqual(['Hi Ann Lee']);
    expect(field(page, 'preheader')).toEqual(['Your plan: Gold']);
    expect(field(page, 'from')[0]).toBe('Acme <news@example.com>');
    const [frame] = frames(page);
    expect(frame.attrs.sandbox).toBe(''); // every restriction: no scripts, no same-origin
    expect(textOf(parseHtmlFragment(frame.attrs.srcdoc))).toBe('Hello Ann Lee, you are on Gold.');
    expect(textOf(findOne(page, 'header'))).toContain(`line 2 of ${contacts}`);
  });

  it('--contact picks the contact by address (letter case aside)', async () => {
    const contacts = contactsFile(['ann@example.com,Ann Lee,Gold', 'Bob@Example.com,Bob Ray,Free']);
    const r = await preview([...MAIL, '--subject', 'Hi ${NAME}', '--html', '<p>${PLAN}</p>', '--contacts', contacts, '--contact', 'bob@example.com']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(field(r.page!, 'subject')).toEqual(['Hi Bob Ray']);
    expect(textOf(parseHtmlFragment(frames(r.page!)[0].attrs.srcdoc))).toBe('Free');
  });

  it('hostile values stay text: a subject, sender name and contact value holding markup add no element to the page', async () => {
    const contacts = contactsFile(['ann@example.com,"</div><script>alert(1)</script>","x"" onload=""alert(2)"']);
    const r = await preview([
      '--name', 'N', '--group', 'G', '--from', 'news@example.com', '--from-name', '<b>Acme</b>',
      '--subject', '${NAME}', '--preheader', '${PLAN}', '--html', '<p>${NAME}</p><script>alert(3)</script>', '--contacts', contacts,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const page = r.page!;
    expect(findAll(page, 'script')).toEqual([]); // not one script element outside the frame's srcdoc
    expect(findAll(page, 'b')).toEqual([]);
    expect(field(page, 'subject')).toEqual(['</div><script>alert(1)</script>']);
    expect(field(page, 'preheader')).toEqual(['x" onload="alert(2)']);
    expect(field(page, 'from')[0]).toBe('<b>Acme</b> <news@example.com>');
    // The body is the mail's own html, scripts and all, and it is only ever in the sandboxed frame.
    const [frame] = frames(page);
    expect(frame.attrs.sandbox).toBe('');
    expect(findAll(parseHtmlFragment(frame.attrs.srcdoc), 'script')).toHaveLength(2);
    // The page's own policy forbids scripts too (a srcdoc frame inherits it).
    const csp = findOne(page, (e) => e.tag === 'meta' && e.attrs['http-equiv'] === 'Content-Security-Policy').attrs.content;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/script-src/);
  });

  it('the preflight findings are beside the mail', async () => {
    const r = await preview([...MAIL, '--subject', 'Hi', '--html', '<p><img src="https://example.com/a.png"> ${PLAN}</p>', '--field', 'TIER']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rules = findAll(findOne(r.page!, 'aside'), hasClass('finding')).map((li) => textOf(findOne(li, hasClass('rule'))));
    expect(rules).toEqual(expect.arrayContaining(['img-alt', 'preheader-missing', 'field-unknown']));
    expect(r.stderr).toMatch(/preflight: \d+ warnings?/);
  });

  it('an A/B test shows both versions side by side, each with its subject', async () => {
    const r = await preview([...MAIL, '--ab', 'subject', '--subject-a', 'Hi ${NAME}', '--subject-b', 'Hello ${NAME}', '--html', '<p>x</p>', '--test-percent', '20', '--test-duration', '4h']);
    expect(r.exitCode, r.stderr).toBe(0);
    const versions = findAll(r.page!, (e) => e.tag === 'section' && !!e.attrs['data-version']);
    expect(versions.map((v) => v.attrs['data-version'])).toEqual(['A', 'B']);
    expect(versions.map((v) => field(v, 'subject')[0])).toEqual(['Hi ${NAME}', 'Hello ${NAME}']);
    expect(r.stderr).toMatch(/\$\{NAME\} left as written: no contact was given/);
    expect(findAll(r.page!, (e) => e.attrs.id === 'unrendered')).toHaveLength(1);
  });

  it('--template: the template\'s html, read from the service, filled from the contact', async () => {
    sb.expect('GET /campaign/v1/templates/:id', { required: true });
    const contacts = contactsFile(['ann@example.com,Ann Lee,Gold']);
    const r = await preview([...MAIL, '--subject', 'Welcome', '--template', 'tpl_welcome', '--contacts', contacts], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(textOf(parseHtmlFragment(frames(r.page!)[0].attrs.srcdoc))).toContain('Welcome, Ann Lee!');
  });

  it('--json: one document naming the file, the versions as rendered and the findings', async () => {
    const r = await preview([...MAIL, '--subject', 'Hi', '--html', '<p>x</p>', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.file).toBe(r.out);
    expect(doc.versions).toEqual([{ version: null, subject: 'Hi', preheader: null, fromName: 'Acme', fromAddress: 'news@example.com' }]);
    expect(doc.findings.map((f: { rule: string }) => f.rule)).toContain('preheader-missing');
  });
});

describe('campaign preview: where the page goes, and refusals', () => {
  it('without --out: a new file in the config folder\'s previews/, its path printed, never over an earlier one', async () => {
    const configDir = tempDir();
    const args = ['campaign', 'preview', '--no-links', ...MAIL, '--subject', 'Hi', '--html', '<p>x</p>'];
    const a = await runCli(args, { configDir });
    const b = await runCli(args, { configDir });
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    const [fa, fb] = [a.stdout.trim(), b.stdout.trim()];
    expect(path.dirname(fa)).toBe(path.join(configDir, 'previews'));
    expect(fb).not.toBe(fa);
    expect(fs.readdirSync(path.join(configDir, 'previews')).sort()).toEqual([path.basename(fa), path.basename(fb)].sort());
    expect(fs.statSync(fa).mode & 0o777).toBe(0o600);
  });

  it('--out that exists: refused (exit 2) and left as it was unless --force', async () => {
    const out = path.join(tempDir(), 'p.html');
    fs.writeFileSync(out, 'mine');
    const args = ['campaign', 'preview', '--no-links', ...MAIL, '--subject', 'Hi', '--html', '<p>x</p>', '--out', out];
    const r = await runCli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/already exists.*--force/s);
    expect(fs.readFileSync(out, 'utf8')).toBe('mine');
    expect((await runCli([...args, '--force'])).exitCode).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^<!DOCTYPE html>/);
  });

  it('--contact without --contacts, or an address the file lacks: exit 2, nothing written', async () => {
    const contacts = contactsFile(['ann@example.com,Ann,Gold']);
    const a = await preview([...MAIL, '--subject', 'Hi', '--html', '<p>x</p>', '--contact', 'ann@example.com']);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toMatch(/--contact picks a contact of a contacts file/);
    const b = await preview([...MAIL, '--subject', 'Hi', '--html', '<p>x</p>', '--contacts', contacts, '--contact', 'zed@example.com']);
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toMatch(/has no contact with the address zed@example\.com/);
    expect([a.page, b.page]).toEqual([undefined, undefined]);
  });

  it('--draft: the newest draft the wizard saved, or one by name; none saved is exit 2', async () => {
    const configDir = tempDir();
    const none = await preview(['--draft'], { configDir });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/no saved draft/);
    const drafts = path.join(configDir, 'drafts');
    fs.mkdirSync(drafts);
    const older = path.join(drafts, 'campaign-20261101T000000Z-Old.json');
    fs.writeFileSync(older, JSON.stringify({ name: 'Old', groups: ['G'], subject: 'Old subject', from: 'news@example.com', html: '<p>old</p>' }));
    fs.utimesSync(older, new Date('2026-11-01'), new Date('2026-11-01'));
    fs.writeFileSync(path.join(drafts, 'campaign-20261102T000000Z-New.json'), JSON.stringify({ name: 'New', groups: ['G'], subject: 'New subject', from: 'news@example.com', html: '<p>new</p>' }));
    const newest = await preview(['--draft'], { configDir });
    expect(newest.exitCode, newest.stderr).toBe(0);
    expect(field(newest.page!, 'subject')).toEqual(['New subject']);
    const named = await preview(['--draft', 'campaign-20261101T000000Z-Old'], { configDir });
    expect(field(named.page!, 'subject')).toEqual(['Old subject']);
    const pathGiven = await preview(['--draft', older], { configDir });
    expect(pathGiven.exitCode).toBe(2);
    expect(pathGiven.stderr).toMatch(/not a path/);
  });
});

describe('campaign preview --web', () => {
  /** A stand-in xdg-open on PATH: writes its arguments and the key variables it sees, then exits `code`. */
  function fakeOpener(code = 0): { bin: string; log: string } {
    const bin = tempDir('mailctl-bin-');
    const log = path.join(bin, 'log.json');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), keys: Object.keys(process.env).filter((k) => k.includes('API_KEY')) }));\nprocess.exit(${code});\n`, { mode: 0o755 });
    return { bin, log };
  }
  const args = [...MAIL, '--subject', 'Hi', '--html', '<p>x</p>', '--web'];
  const keys = { MAILCTL_API_KEY: 'k-any', MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };

  it('opens the page with the desktop opener: the path its only argument, no key in its environment', async () => {
    const { bin, log } = fakeOpener();
    const r = await preview(args, { env: { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}`, ...keys } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(log, 'utf8'))).toEqual({ argv: [r.out], keys: [] });
    expect(r.stderr).toMatch(/Opened .* in the default browser/);
  });

  it('no graphical session, no opener, or an opener that fails: says so, exit 0, the page written and its path printed', async () => {
    const headless = await preview(args, { env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    expect(headless.exitCode).toBe(0);
    expect(headless.stderr).toMatch(/Not opened in a browser: there is no graphical session here/);
    expect(headless.stdout.trim()).toBe(headless.out);
    expect(headless.page).toBeDefined();

    const missing = await preview(args, { env: { DISPLAY: ':0', PATH: tempDir('mailctl-empty-bin-') } });
    expect(missing.exitCode).toBe(0);
    expect(missing.stderr).toMatch(/xdg-open, which opens the default browser, is not installed here/);

    const { bin } = fakeOpener(3);
    const failing = await preview(args, { env: { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` } });
    expect(failing.exitCode).toBe(0);
    expect(failing.stderr).toMatch(/xdg-open could not open a browser \(exit 3\)/);
  });
});
