// The pages as a person sees them (issue 22.4): the report dashboard and a campaign preview,
// written by the CLI and opened from disk (file://) in headless chromium — one browser launch for
// the file. The dashboard's chart must draw (dots and lines with a size on screen, A/B bars) with
// no request leaving the page; the preview must show the contact's values in the mail's body,
// and the body's own script must not run. Screenshots land in .test-results/browser/.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { runCli, tempDir } from './helpers/cli.js';
import { useHostileServer } from './helpers/hostile-server.js';
import { serve, syncRun, movableClock } from './helpers/dashboard-fixture.js';
import { browserUnavailable, launchBrowser, SHOTS } from './helpers/browser.js';

const hs = useHostileServer();

describe.skipIf(browserUnavailable)(`pages in a real browser${browserUnavailable ? ` (skipped: ${browserUnavailable})` : ''}`, () => {
  let browser: { context: BrowserContext; close(): Promise<void> };
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => browser?.close(), 30_000);

  /** Opens a file, recording every request the page makes that is not for a local file. */
  async function open(file: string): Promise<{ page: Page; remote: string[] }> {
    const page = await browser.context.newPage();
    const remote: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:') || url === 'about:srcdoc') return route.continue();
      remote.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, remote };
  }

  it('the dashboard: the rates-over-time chart and the A/B bars draw, offline, and the links open the files', async () => {
    const fx = { opened: { CP1: 10, AB1: 12, EVIL: 8 } };
    serve(hs.get(), fx);
    const dir = tempDir('mailctl-browser-dash-');
    const clock = movableClock(Date.parse('2026-01-02T00:00:00Z'));
    for (const opened of [10, 25, 31]) {
      fx.opened.CP1 = opened;
      expect((await syncRun(hs.get(), dir, clock)).exitCode).toBe(0);
      clock.advance(6 * 3_600_000);
    }
    const { page, remote } = await open(path.join(dir, 'index.html'));
    const cp1 = page.locator('section[data-sn="CP1"]');
    // Three readings of CP1: three dots per rate and a line through them, each with a size on screen.
    await expect.poll(() => cp1.locator('circle.pt[data-series="opened"]').count()).toBe(3);
    const line = await cp1.locator('polyline[data-series="opened"]').boundingBox();
    expect(line!.width).toBeGreaterThan(100);
    expect(line!.height).toBeGreaterThan(5); // 10 % → 31 %: the line climbs
    for (const box of await Promise.all((await cp1.locator('circle.pt').all()).map((c) => c.boundingBox()))) expect(box!.width).toBeGreaterThan(0);
    // The A/B test: eight bars, B named the winner.
    const ab = page.locator('section[data-sn="AB1"]');
    expect(await ab.locator('rect.ab-bar').count()).toBe(8);
    expect(await ab.locator('.winner').textContent()).toBe('B');
    // A hostile name is text, not an image that tried to load.
    expect(await page.locator('section[data-sn="EVIL"] h2').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(remote).toEqual([]);
    // A file link leads to the downloaded CSV.
    const href = await cp1.locator('a.file').first().getAttribute('href');
    const target = new URL(href!, page.url());
    expect(fs.readFileSync(target, 'utf8')).toContain('CP1');
    await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('a campaign preview: the contact\'s values in the body, the body\'s script never runs', async () => {
    const dir = tempDir('mailctl-browser-preview-');
    const contacts = path.join(dir, 'contacts.csv');
    fs.writeFileSync(contacts, 'EMAIL,NAME,PLAN\nann@example.com,Ann Lee,Gold\nbob@example.com,Bob Ray,Free\n');
    const out = path.join(dir, 'preview.html');
    const html = '<html><body><h1>Hello ${NAME}</h1><p id="plan">You are on ${PLAN}.</p><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" width="40" height="40"><script>document.body.innerHTML = "SCRIPT RAN"; try { parent.document.title = "owned"; } catch (e) {}</script></body></html>';
    const r = await runCli(['campaign', 'preview', '--name', 'Dec', '--group', 'G', '--subject', 'Hi ${NAME}', '--preheader', 'Your plan: ${PLAN}',
      '--from', 'news@example.com', '--from-name', 'Acme', '--html', html, '--contacts', contacts, '--contact', 'bob@example.com', '--no-links', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const { page, remote } = await open(out);
    const body = page.frameLocator('iframe.body').locator('body');
    await expect.poll(() => body.locator('h1').textContent()).toBe('Hello Bob Ray');
    expect(await body.locator('#plan').textContent()).toBe('You are on Free.');
    expect(await body.innerText()).not.toContain('SCRIPT RAN'); // the rendered text: the script's source is in textContent
    expect(await page.title()).toBe('Campaign Dec — mailctl preview');
    expect(await page.locator('[data-field="subject"]').textContent()).toBe('Hi Bob Ray');
    expect(await page.locator('[data-field="preheader"]').textContent()).toBe('Your plan: Free');
    expect(await page.locator('aside.findings li.finding .rule').allTextContents()).toEqual(['img-alt']); // the image has no alt text
    expect(remote).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'preview.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
