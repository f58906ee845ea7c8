// `campaign preflight` (and the same check inside `campaign create`): every rule on its own, the
// link check against the sandbox's link targets over loopback (what reached them, and that no
// key went there), exit codes 0 / 5 with --strict / 2, --json, a terminal's sanitised lines,
// and the --help examples run against a fresh --sandbox.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { runCli, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures, writeFiles } from './helpers/campaign-setup.js';
import { sandboxExamples } from './helpers/help-examples.js';
import { checkLinks } from '../src/campaign/preflight/links.js';
import type { Finding } from '../src/campaign/preflight/findings.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit',
    'GET /campaign/v1/contacts/lists',
    'GET /campaign/v1/templates/:id',
    'GET /links/404',
    'HEAD /links/404',
    'GET /links/500',
    'HEAD /links/500',
    'HEAD /links/loop',
    'GET /links/no-head',
    'HEAD /links/no-head',
    'HEAD /links/ok',
    'HEAD /links/redirect',
    'HEAD /links/redirect-other-host',
    'HEAD /links/slow',
  ],
});
const fx = campaignFixtures(sb.get);
const base = ['--name', 'Dec', '--group', 'Newsletter', '--subject', 'December news', '--preheader', 'What is new', '--from', 'news@example.com', '--from-name', 'Acme'];
/** `base` with `flag` set to `value` instead: a flag that takes one value may be given only once (src/cli/repeats.ts). */
const baseWith = (flag: string, value: string) => [...base.filter((x, i, a) => x !== flag && a[i - 1] !== flag), flag, value];
const link = (target: string) => `${sb.get().url}/links/${target}`;

interface Report {
  ok: boolean;
  counts: { error: number; warning: number; info: number };
  linksChecked: number;
  findings: Finding[];
}

async function preflight(args: string[], o: Parameters<typeof runCli>[1] = {}) {
  const r = await runCli(['--json', 'campaign', 'preflight', ...args], { sandbox: sb.get(), ...o });
  const report = JSON.parse(r.stdout) as Report;
  return { ...r, report, rules: report.findings.map((f) => f.rule) };
}

const html = (body: string) => ['--html', `<html><body>${body}</body></html>`];

describe('a clean campaign', () => {
  it('exits 0 with no findings, and talks to neither service', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await preflight([...base, ...html(`<p>Hi \${NAME}</p><a href="${link('ok')}">shop</a><img src="${link('ok')}" alt="logo">`)]);
    expect(r.exitCode).toBe(0);
    expect(r.report.findings).toEqual([]);
    expect(r.report.linksChecked).toBe(1);
    const after = sb.get().sandbox.requests().slice(before);
    expect(after.every((x) => x.service === 'links')).toBe(true);
  });

  it('prints one line per finding on a terminal, sanitised, and a tick on stderr when there is nothing (no data on stdout)', async () => {
    const clean = await runCli(['campaign', 'preflight', ...base, ...html('<p>x</p>')], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(clean.stdout).toBe('');
    expect(clean.stderr).toContain('✓ Nothing to fix.\n');
    const hostile = await runCli(['campaign', 'preflight', ...base, '--no-links', ...html('<img src="https://x.example/\u001b]0;owned\u0007.png">')], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(hostile.exitCode).toBe(0);
    const lines = hostile.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning \[img-alt\] html: https:\/\/x\.example\/\\e\]0;owned\\x07\.png: An image has no alt text/);
    expect(hostile.stdout).not.toContain('\u001b');
  });
});

describe('the offline rules', () => {
  it('field-unknown: ${FIELD}s not among --field / --contacts / the profile field-types; NAME and EMAIL always exist', async () => {
    const body = html('<p>${NAME} ${EMAIL} ${PLAN} ${PLNA}</p>');
    const r = await preflight([...base, '--no-links', ...body, '--field', 'PLAN:string', '--field', 'AGE:number']);
    expect(r.report.findings.filter((f) => f.rule === 'field-unknown')).toEqual([
      expect.objectContaining({ severity: 'warning', where: 'html', message: expect.stringContaining('${PLNA} is not a known custom field') }),
    ]);
    const dir = writeFiles({ 'contacts.csv': 'EMAIL,NAME,plan,CITY\na@example.org,A,Gold,Taipei\n' });
    const fromFile = await preflight([...baseWith('--subject', 'Hi ${CITY}'), '--no-links', ...body, '--contacts', path.join(dir, 'contacts.csv')]);
    // plan matches case-insensitively; CITY is a reserved column, so not a custom field.
    expect(fromFile.report.findings.filter((f) => f.rule === 'field-unknown').map((f) => f.message.slice(0, 8))).toEqual(['${CITY} ', '${PLNA} ']);
    const env = { MAILCTL_CONFIG_DIR: writeFiles({}) };
    expect((await runCli(['config', 'set', 'field-types', 'PLNA:string,PLAN:string'], { env })).exitCode).toBe(0);
    const fromProfile = await preflight([...base, '--no-links', ...body], { env });
    expect(fromProfile.rules).toEqual([]);
  });

  it('field-check-skipped: a note (not a warning) when no custom fields are declared; --strict still exits 0', async () => {
    const r = await preflight([...base, '--no-links', '--strict', ...html('<p>${PLAN}</p>')]);
    expect(r.exitCode).toBe(0);
    expect(r.report.findings).toEqual([expect.objectContaining({ rule: 'field-check-skipped', severity: 'info', message: expect.stringContaining('--field NAME:TYPE') })]);
  });

  it('notify-syntax: {{name}} in the subject or html (decisions row 18)', async () => {
    const r = await preflight([...baseWith('--subject', 'Your code {{code}}'), '--no-links', ...html('<p>{{ name }}</p>')]);
    expect(r.report.findings.filter((f) => f.rule === 'notify-syntax').map((f) => f.where)).toEqual(['subject', 'html']);
    expect(r.report.findings[0].message).toContain('write ${CODE} instead');
  });

  it('html-size: over 102 KB (Gmail clips), not at 100 KB', async () => {
    const dir = writeFiles({ 'big.html': `<p>${'x'.repeat(103 * 1024)}</p>`, 'fine.html': `<p>${'x'.repeat(100 * 1024)}</p>` });
    const big = await preflight([...base, '--no-links', '--html-file', path.join(dir, 'big.html')]);
    expect(big.rules).toEqual(['html-size']);
    expect(big.report.findings[0].message).toMatch(/^The html is 103\.0 KB; Gmail clips messages over 102 KB/);
    expect((await preflight([...base, '--no-links', '--html-file', path.join(dir, 'fine.html')])).rules).toEqual([]);
  });

  it('img-alt: an image without alt; alt="" (decorative) is fine', async () => {
    const r = await preflight([...base, '--no-links', ...html('<img src="https://cdn.example/a.png"><img alt="" src="https://cdn.example/b.png"><IMG SRC=https://cdn.example/c.png ALT=c>')]);
    expect(r.report.findings).toEqual([expect.objectContaining({ rule: 'img-alt', where: 'html: https://cdn.example/a.png' })]);
  });

  it('preheader-missing: per version in a subject test, naming the flag that sets it', async () => {
    const plain = await preflight([...base.filter((x, i, a) => x !== '--preheader' && a[i - 1] !== '--preheader'), '--no-links', ...html('<p>x</p>')]);
    expect(plain.report.findings).toEqual([expect.objectContaining({ rule: 'preheader-missing', where: 'preheader', message: expect.stringContaining('--preheader (at most 60') })]);
    const ab = await preflight(['--name', 'AB', '--group', 'G', '--from', 'news@example.com', '--from-name', 'Acme', '--ab', 'subject', '--subject-a', 'A', '--subject-b', 'B',
      '--preheader-a', 'Pre A', '--test-percent', '20', '--test-duration', '4h', '--no-links', ...html('<p>x</p>')]);
    expect(ab.report.findings).toEqual([expect.objectContaining({ rule: 'preheader-missing', where: 'preheader (version B)', message: expect.stringContaining('--preheader-b') })]);
  });

  it('utm-missing: analytics on and a link without utm_ tags; tagged links and images are fine', async () => {
    const ga = ['--ga', '--utm-campaign', 'dec', '--utm-content', 'mail', '--no-links'];
    const r = await preflight([...base, ...ga, ...html('<a href="https://shop.example/a">a</a><a href="https://shop.example/b?utm_campaign=dec&amp;utm_source=x">b</a><img alt="" src="https://cdn.example/i.png">')]);
    expect(r.report.findings).toEqual([expect.objectContaining({ rule: 'utm-missing', where: 'html: https://shop.example/a', message: expect.stringContaining('utm_campaign=dec&utm_content=mail') })]);
    const off = await preflight([...base, '--no-links', ...html('<a href="https://shop.example/a">a</a>')]);
    expect(off.rules).toEqual([]);
  });

  it('link-http, link-relative, link-variable: plain http in an https mail, no host, a per-contact address', async () => {
    const r = await preflight([...base, '--no-links', '--field', 'ID', ...html(
      '<a href="https://shop.example/">s</a><a href="http://old.example/">o</a><a href="shop.html">r</a><a href="https://x.example/u/${ID}">v</a><a href="mailto:a@example.com">m</a><a href="#top">t</a>')]);
    expect(r.report.findings.map((f) => [f.rule, f.where])).toEqual([
      ['link-http', 'html: http://old.example/'],
      ['link-relative', 'html: shop.html'],
      ['link-variable', 'html: https://x.example/u/${ID}'],
    ]);
    // All-http mail: nothing is "otherwise https".
    expect((await preflight([...base, '--no-links', ...html('<a href="http://old.example/">o</a>')])).rules).toEqual([]);
  });

  it('campaign-invalid (exit 2) and campaign-warning: what create refuses and what it warns about', async () => {
    const bad = await preflight(['--name', 'X', '--group', 'G', '--from', 'news@example.com', '--from-name', 'Acme', '--no-links', ...html('<p>x</p>')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.report.ok).toBe(false);
    expect(bad.report.findings).toContainEqual(expect.objectContaining({ rule: 'campaign-invalid', severity: 'error', message: 'The campaign has no subject; give it with --subject.' }));
    const same = await preflight(['--name', 'AB', '--group', 'G', '--from', 'news@example.com', '--from-name', 'Acme', '--ab', 'subject', '--subject-a', 'Same', '--subject-b', 'Same',
      '--preheader', 'p', '--test-percent', '20', '--test-duration', '4h', '--no-links', ...html('<p>x</p>')]);
    expect(same.exitCode).toBe(0);
    expect(same.rules).toEqual(['campaign-warning']);
  });

  it('--file and --template: the same inputs as create; a template is read from the service', async () => {
    const dir = writeFiles({ 'c.json': JSON.stringify({ name: 'F', groups: ['G'], subject: 'S', from: 'news@example.com', fromName: 'Acme', template: 'tpl_welcome' }) });
    const from = fx.mark();
    const r = await preflight(['--file', path.join(dir, 'c.json'), '--field', 'X']);
    expect(r.exitCode).toBe(0);
    expect(r.rules).toEqual(['preheader-missing']); // the template's ${NAME} is always known
    expect(sb.get().sandbox.requests('campaign').slice(from).map((x) => `${x.method} ${x.path}`)).toEqual(['GET /v1/templates/tpl_welcome']);
  });
});

describe('exit codes and --strict', () => {
  it('warnings: 0, or 5 with --strict; the json says ok accordingly', async () => {
    const args = [...base, '--no-links', ...html('<img src="https://cdn.example/a.png">')];
    const lax = await preflight(args);
    expect([lax.exitCode, lax.report.ok, lax.report.counts]).toEqual([0, true, { error: 0, warning: 1, info: 0 }]);
    const strict = await preflight([...args, '--strict']);
    expect([strict.exitCode, strict.report.ok]).toEqual([5, false]);
  });

  it('without --json: tab-separated lines on stdout, the count on stderr', async () => {
    const r = await runCli(['campaign', 'preflight', ...base, '--no-links', ...html('<img src="https://cdn.example/a.png">')], { sandbox: sb.get() });
    expect(r.stdout).toBe('severity\trule\twhere\tmessage\nwarning\timg-alt\thtml: https://cdn.example/a.png\tAn image has no alt text, so clients that block images show nothing in its place; add alt="…" (alt="" for a decorative image).\n');
    expect(r.stderr).toContain('Preflight: 1 warning.');
  });

  it('--csv: the findings as rows under a header, the count on stderr; --output tsv as without --json', async () => {
    const args = ['campaign', 'preflight', ...base, '--no-links', ...html('<img src="https://cdn.example/a.png"><img src="https://cdn.example/b.png">')];
    const r = await runCli([...args, '--csv'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const rows = parse(r.stdout) as string[][];
    expect(rows[0]).toEqual(['severity', 'rule', 'where', 'message']);
    expect(rows.slice(1).map((x) => x.slice(0, 3))).toEqual([
      ['warning', 'img-alt', 'html: https://cdn.example/a.png'],
      ['warning', 'img-alt', 'html: https://cdn.example/b.png'],
    ]);
    expect(rows[1][3]).toMatch(/^An image has no alt text/);
    expect(r.stderr).toContain('Preflight: 2 warnings.');
    const tsv = await runCli([...args, '--output', 'tsv'], { sandbox: sb.get(), tty: true });
    expect(tsvRows(tsv.stdout).map((l) => l.slice(0, 2))).toEqual([['warning', 'img-alt'], ['warning', 'img-alt']]);
  });

  it('malformed input is a usage error (exit 2)', async () => {
    const r = await runCli(['campaign', 'preflight', ...base, '--html', 'x', '--link-timeout', 'soon'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--link-timeout takes a duration');
  });
});

describe('the link check, over loopback to the sandbox link targets', () => {
  it('reports 4xx/5xx, redirects to another host, loops and time-outs; same-host redirects and HEAD-refusing servers are fine', async () => {
    const targets = ['ok', '404', '500', 'redirect', 'redirect-other-host', 'loop', 'no-head', 'slow'];
    const from = sb.get().sandbox.requests().length;
    const r = await preflight([...base, '--link-timeout', '300ms', ...html(targets.map((t) => `<a href="${link(t)}">${t}</a>`).join(''))]);
    expect(r.exitCode).toBe(0);
    expect(r.report.linksChecked).toBe(targets.length);
    const byLink = Object.fromEntries(r.report.findings.map((f) => [f.where.replace(`html: ${sb.get().url}/links/`, ''), f]));
    expect(Object.keys(byLink).sort()).toEqual(['404', '500', 'loop', 'redirect-other-host', 'slow']);
    expect(byLink['404']).toMatchObject({ rule: 'link-broken', message: expect.stringContaining('HTTP 404 Not Found') });
    expect(byLink['500']).toMatchObject({ rule: 'link-broken', message: expect.stringContaining('HTTP 500') });
    expect(byLink['redirect-other-host']).toMatchObject({ rule: 'link-redirect-host', message: expect.stringContaining(`another host, localhost:${new URL(sb.get().url).port}`) });
    expect(byLink.loop).toMatchObject({ rule: 'link-redirect-loop' });
    expect(byLink.slow).toMatchObject({ rule: 'link-unreachable', message: expect.stringContaining('no answer within 0.3 s') });

    const seen = sb.get().sandbox.requests().slice(from);
    // Only the link targets were asked, and never with a key, a cookie or a service header.
    expect(seen.every((x) => x.service === 'links')).toBe(true);
    for (const x of seen) {
      expect(Object.keys(x.headers).filter((h) => /key|cookie|authorization|signature/i.test(h))).toEqual([]);
      expect(x.headers['user-agent']).toBe('mailctl-preflight (link check)');
    }
    const methods = (p: string) => seen.filter((x) => x.path === p).map((x) => x.method);
    expect(methods('/ok').slice(0, 1)).toEqual(['HEAD']);
    expect(methods('/no-head')).toEqual(['HEAD', 'GET']);
    // The other-host hop was followed (to localhost) and answered.
    expect(seen.some((x) => x.path === '/ok' && x.headers.host?.startsWith('localhost:'))).toBe(true);
    // The slow link was asked once, with HEAD: a time-out is not asked again with GET.
    expect(methods('/slow')).toEqual(['HEAD']);
    // A loop is followed 5 times, then given up on.
    expect(methods('/loop')).toEqual(Array(6).fill('HEAD'));
  });

  it('each distinct address is asked once, even when repeated or shared by both versions of an A/B test', async () => {
    const dir = writeFiles({ 'a.html': `<a href="${link('ok')}?n=1">a</a><a href="${link('404')}">x</a>`, 'b.html': `<a href="${link('ok')}?n=1">b</a><img src="${link('500')}">` });
    const from = sb.get().sandbox.requests('links').length;
    const r = await preflight(['--name', 'AB', '--group', 'G', '--subject', 'S', '--preheader', 'P', '--from', 'news@example.com', '--from-name', 'Acme', '--ab', 'content',
      '--html-file-a', path.join(dir, 'a.html'), '--html-file-b', path.join(dir, 'b.html'), '--test-percent', '20', '--test-duration', '4h']);
    expect(r.report.linksChecked).toBe(3);
    expect(r.report.findings.map((f) => [f.rule, f.where.replace(sb.get().url, '')])).toEqual([
      ['img-alt', `html (version B): /links/500`],
      ['link-broken', 'html (version A): /links/404'],
      ['link-broken', 'html (version B): /links/500'],
    ]);
    expect(sb.get().sandbox.requests('links').slice(from).filter((x) => x.path === '/ok' && x.method === 'HEAD')).toHaveLength(1);
  });

  it('link-forbidden: a link-local or metadata address is reported and never connected to; --no-links asks nothing', async () => {
    const r = await preflight([...base, ...html('<a href="http://169.254.169.254/latest/meta-data/">m</a>')]);
    expect(r.report.findings).toEqual([expect.objectContaining({ rule: 'link-forbidden', message: expect.stringContaining('a cloud metadata address') })]);
    const from = sb.get().sandbox.requests('links').length;
    const off = await preflight([...base, '--no-links', ...html(`<a href="${link('404')}">x</a>`)]);
    expect([off.report.linksChecked, off.rules]).toEqual([0, []]);
    expect(sb.get().sandbox.requests('links').length).toBe(from);
  });

  it('link-redirect-http: an https link that redirects to plain http; at most 4 requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const fake = (async (url: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const u = new URL(url);
      if (u.pathname === '/secure') return new Response(null, { status: 301, headers: { location: 'http://shop.example/plain' } });
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    const targets = [{ url: 'https://shop.example/secure', where: ['html'] }, ...Array.from({ length: 9 }, (_, i) => ({ url: `https://shop.example/p${i}`, where: ['html'] }))];
    const findings = await checkLinks(targets, { fetch: fake, lookup: async () => ['203.0.113.7'] });
    expect(findings.map((f) => f.rule)).toEqual(['link-redirect-http']);
    expect(findings[0].message).toContain('redirects to plain http (http://shop.example/plain)');
    expect(most).toBe(4);
  });
});

describe('campaign create runs the check', () => {
  beforeAll(async () => {
    await fx.group('Newsletter', 1);
  });

  it('prints the warnings on stderr (the {{name}} warning once) and creates the campaign', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...base, ...html(`<p>{{code}}</p><a href="${link('404')}">x</a>`)], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.match(/\[notify-syntax\]/g)).toHaveLength(1);
    expect(r.stderr).toContain('will be sent as written');
    expect(r.stderr).toMatch(/warning: html: http:\/\/127\.0\.0\.1:\d+\/links\/404: The link answers HTTP 404 Not Found; fix or remove it\. \[link-broken\]/);
    expect(fx.submits(from)).toHaveLength(1);
  });

  it('--strict refuses to send when there is a warning (exit 2, nothing submitted); --no-links skips the link check', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...base, '--strict', ...html(`<a href="${link('404')}">x</a>`)], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--strict: the preflight check found 1 warning; nothing was sent.');
    expect(fx.submits(from)).toHaveLength(0);
    const linksFrom = sb.get().sandbox.requests('links').length;
    const skip = await runCli(['campaign', 'create', ...base, '--strict', '--no-links', ...html(`<a href="${link('404')}">x</a>`)], { sandbox: sb.get() });
    expect(skip.exitCode).toBe(0);
    expect(fx.submits(from)).toHaveLength(1);
    expect(sb.get().sandbox.requests('links').length).toBe(linksFrom);
  });
});

describe('--help', () => {
  it('its examples work against a fresh --sandbox', async () => {
    const help = (await runCli(['campaign', 'preflight', '--help'])).stdout;
    const examples = sandboxExamples(help);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const argv of examples) {
      const r = await runCli(argv);
      expect([r.exitCode, r.stderr]).toEqual([0, expect.any(String)]);
      expect(r.stderr).not.toMatch(/error|unexpected/i);
    }
    // The third shows a broken link, answered by the in-process sandbox's link targets.
    const third = await runCli(examples[2]);
    expect((JSON.parse(third.stdout) as Report).findings.map((f) => f.rule)).toContain('link-broken');
  });
});
