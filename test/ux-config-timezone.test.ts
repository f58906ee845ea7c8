// `config set timezone` used to store anything ("Mars"), so the typo surfaced only at the next
// scheduled `campaign create`. It is now checked like --timezone: an IANA zone, a city of the
// service's list or a code (spec 000 section 2, the 88 time-zone codes).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('config set timezone', () => {
  it('refuses a zone the service does not know, exit 2, nothing stored', async () => {
    const configDir = tempDir();
    const r = await runCli(['config', 'set', 'timezone', 'Mars/Base'], { configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Cannot set timezone: "Mars/Base" is not a time zone the campaign service knows');
    expect(r.stderr).toContain('Asia/Taipei');
    const file = path.join(configDir, 'config.json');
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').not.toContain('Mars');
  });

  it('keeps an IANA zone or a city, and a scheduled campaign then uses it', async () => {
    const configDir = tempDir();
    for (const v of ['Asia/Tokyo', 'TOKYO', 'Asia/Taipei']) {
      expect((await runCli(['config', 'set', 'timezone', v], { configDir })).exitCode).toBe(0);
    }
    const group = (await runCli(['groups', 'create', 'Readers'], { sandbox: sb.get() })).stdout.trim();
    const r = await runCli(['campaign', 'create', '--name', 'N', '--group', group, '--subject', 'S', '--html', '<p>x</p>',
      '--from', 'news@example.com', '--from-name', 'Acme', '--at', '2035-01-01 09:00', '--dry-run'], { configDir, sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('2035-01-01T01:00:00');
  });
});
