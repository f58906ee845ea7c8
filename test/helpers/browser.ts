// A real browser for the tests that look at mailctl's pages (issue 22.4): Debian's chromium,
// driven by playwright-core through its executable path (playwright-core downloads no browser).
// One launch per test file; each launch gets a fresh profile folder. Where chromium is missing
// the tests skip and say why — unless MAILCTL_TEST_BROWSER=required (set by .ci/run after it
// installs chromium), where a missing browser fails instead of hiding a skipped check.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.MAILCTL_TEST_CHROMIUM ?? '/usr/bin/chromium';
const required = process.env.MAILCTL_TEST_BROWSER === 'required';

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserUnavailable: string | undefined = (() => {
  if (fs.existsSync(CHROMIUM)) return undefined;
  const why = `no chromium at ${CHROMIUM} (apt-get install chromium, or point MAILCTL_TEST_CHROMIUM at one)`;
  if (required) throw new Error(`MAILCTL_TEST_BROWSER=required, but ${why}`);
  return why;
})();

/** Where screenshots go (kept out of git with the test results). */
export const SHOTS = path.resolve('.test-results', 'browser');

/**
 * Starts chromium headless with the flags of a locked-down, quiet run: no sandbox (root in CI),
 * no GPU, no QUIC, no first-run, background networking, component updates or sync. Playwright
 * passes --headless and the fresh --user-data-dir itself (it refuses them among `args`).
 */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  fs.mkdirSync(SHOTS, { recursive: true });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
