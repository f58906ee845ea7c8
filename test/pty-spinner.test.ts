// The spinner on a real terminal: `import … --wait` animates on the pty while the service works,
// then leaves a clean screen (cursor shown again, the result printed) — also on a pty that
// reports 0 columns (a terminal nobody sized, as `script` fed from a pipe makes), where ora
// used to divide by zero and clear lines forever.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { Pty, ptyUnavailable } from './helpers/pty.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

// Long enough that the spinner draws many frames while the import is PROCESSING.
const sb = useSandbox({
  delays: { importProcessing: 1500 },
  expect: [
    'POST /campaign/v1/contacts/imports/:listSn/file',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'PUT /files/u/:token',
  ],
});
const FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
let pty: Pty | undefined;
afterEach(() => pty?.kill());

function run(cols: number): Pty {
  const dir = tempDir();
  const file = path.join(dir, 'big.csv');
  fs.writeFileSync(file, ['EMAIL,NAME', ...Array.from({ length: 300 }, (_, i) => `p${i}@example.com,P ${i}`)].join('\n') + '\n');
  const env = { PATH: process.env.PATH, HOME: dir, MAILCTL_CONFIG_DIR: dir, MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
  return new Pty(['import', file, '--group', `Spin${cols}`, '--create-group', '--wait'], { env, cols, cwd: dir });
}

describe.skipIf(ptyUnavailable)(`spinner on a real terminal${ptyUnavailable ? ` (skipped: ${ptyUnavailable})` : ''}`, () => {
  it('animates on a sized terminal and ends with the cursor back and the result printed', async () => {
    pty = run(100);
    expect(await pty.exited(60_000)).toBe(0);
    const frames = pty.raw.match(new RegExp(FRAMES.source, 'g')) ?? [];
    expect(frames.length).toBeGreaterThan(3); // it animated, not one static line
    expect(pty.raw).toContain('\u001b[?25l'); // cursor hidden while spinning…
    expect(pty.raw.lastIndexOf('\u001b[?25h')).toBeGreaterThan(pty.raw.lastIndexOf('\u001b[?25l')); // …and shown again
    expect(pty.text()).toMatch(/300 rows/);
  }, 90_000);

  it('a terminal reporting 0 columns: no endless redraw, the run ends and says what happened', async () => {
    pty = run(0);
    expect(await pty.exited(60_000)).toBe(0);
    // Every ESC[1A (cursor up) belongs to a redraw; a 300-row import needs a handful, not millions.
    expect(pty.raw.split('\u001b[1A').length).toBeLessThan(50);
    expect(pty.raw.length).toBeLessThan(50_000);
    expect(pty.text()).toMatch(/300 rows/);
  }, 90_000);
});
