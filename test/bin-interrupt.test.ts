// Ctrl-C on the real binary: one SIGINT stops the wait cleanly (exit 130) and prints the
// command that resumes it. In-process tests cannot see this: it depends on the signal
// handlers the process really has once its dependencies are loaded.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { until } from './helpers/wait.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'mailctl.js');
const sb = useSandbox({ delays: { importProcessing: 60_000 } });

describe('SIGINT on bin/mailctl.js', () => {
  it('one Ctrl-C while waiting for an import: exit 130 and the resume command', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nann@example.com,Ann\n');
    const env = {
      PATH: process.env.PATH, HOME: dir, MAILCTL_CONFIG_DIR: dir,
      MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign,
    };
    const child = spawn(process.execPath, [bin, 'import', file, '--group', 'Slow', '--create-group', '--wait'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // Interrupt once it is polling the import status.
    const polling = () => sb.get().sandbox.requests('campaign').some((r) => r.path.startsWith('/v1/contacts/imports/result/'));
    await until('the import status being polled', polling, 10_000);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(130);
    const sn = /Import (IM\w+) started/.exec(err)?.[1];
    expect(sn).toBeTruthy();
    expect(err).toContain(`mailctl import status ${sn} --wait`);
  }, 30_000);
});
