// Commands that only use the configuration read the file; they never create or rewrite it (conf,
// the writer, is loaded only by commands that change the config). Values still resolve as
// before: flags > environment > profile.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/balance'] });

describe('reading the config', () => {
  it('a one-request command with the key in the environment leaves a fresh config folder untouched', async () => {
    const dir = tempDir('mailctl-read-');
    const r = await runCli(['balance'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a profile stored by `config set` is what the next command reads; its file is not rewritten', async () => {
    const dir = tempDir('mailctl-read-');
    const env = { MAILCTL_CONFIG_DIR: dir, MAILCTL_CAMPAIGN_URL: undefined, MAILCTL_CAMPAIGN_API_KEY: undefined };
    expect((await runCli(['--profile', 'ops', 'config', 'set', 'campaign-url', sb.get().campaignUrl], { env })).exitCode).toBe(0);
    const key = await runCli(['--profile', 'ops', 'config', 'set-key', '--service', 'campaign', '--with-key-stdin'], { env, stdin: 'sandbox-campaign-key\n' });
    expect(key.exitCode).toBe(0);
    const file = path.join(dir, 'config.json');
    const before = fs.statSync(file).mtimeMs;
    const text = fs.readFileSync(file, 'utf8');
    const r = await runCli(['--profile', 'ops', 'balance'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^email\t\d+/);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.statSync(file).mtimeMs).toBe(before);
  });

  it('a config file that is not JSON: exit 3 with one sentence naming the folder', async () => {
    const dir = tempDir('mailctl-read-');
    fs.writeFileSync(path.join(dir, 'config.json'), '{ not json');
    const r = await runCli(['balance'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(`The config file in ${dir} cannot be read`);
  });
});
