// The sandbox's default sender: a fresh `--sandbox` can send and create campaigns without
// `config set from-address`, with an address the sandbox treats as verified. It is a --sandbox
// default only: a real profile still needs its own sender, and the stored profile is untouched.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCli as run, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_SENDER } from '../src/sandbox/constants.js';

const sb = useSandbox();

describe('--sandbox default sender', () => {
  it('a fresh sandbox sends transactional email with no sender configured', async () => {
    const dir = tempDir('mailctl-sender-');
    const r = await runCli(['--sandbox', 'send', '--to', 'a@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>', '--json'], { configDir: dir });
    expect(r.stderr).not.toContain('No sender address');
    expect(r.exitCode).toBe(0);
    const events = await runCli(['--sandbox', 'events', '--recipient', 'a@example.com', '--json'], { configDir: dir });
    expect(JSON.stringify(JSON.parse(events.stdout))).toContain(SANDBOX_SENDER.address);
  });

  it('a fresh sandbox creates a campaign with the default sender, and the profile keeps its own choice', async () => {
    const dir = tempDir('mailctl-sender-');
    // The in-process sandbox keeps the service's 2 requests/second: pace like a real run.
    const runCli = (argv: string[], o: { configDir: string }) => run(argv, { ...o, tuning: { rateLimit: true } });
    expect((await runCli(['--sandbox', 'groups', 'create', 'Newsletter'], { configDir: dir })).exitCode).toBe(0);
    const dry = await runCli(['--sandbox', 'campaign', 'create', '--name', 'N', '--group', 'Newsletter', '--subject', 'S', '--html', '<p>x</p>', '--dry-run', '--json'], { configDir: dir });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout).requests[0].body.content).toMatchObject({ fromAddress: SANDBOX_SENDER.address, fromName: SANDBOX_SENDER.name });
    expect((await runCli(['--sandbox', 'config', 'set', 'from-address', 'marketing@example.com'], { configDir: dir })).exitCode).toBe(0);
    const own = await runCli(['--sandbox', 'campaign', 'create', '--name', 'N', '--group', 'Newsletter', '--subject', 'S', '--html', '<p>x</p>', '--dry-run', '--json'], { configDir: dir });
    expect(JSON.parse(own.stdout).requests[0].body.content.fromAddress).toBe('marketing@example.com');
  });

  it('config list names the sandbox as the source, and nothing is written to the profile', async () => {
    const dir = tempDir('mailctl-sender-');
    const r = await runCli(['--sandbox', 'config', 'list', '--json'], { configDir: dir });
    expect(JSON.parse(r.stdout).settings['from-address']).toEqual({ value: SANDBOX_SENDER.address, source: 'sandbox' });
    const file = path.join(dir, 'config.json');
    if (fs.existsSync(file)) expect(fs.readFileSync(file, 'utf8')).not.toContain(SANDBOX_SENDER.address);
  });

  it('never applies to a real profile: without --sandbox there is still no sender', async () => {
    const r = await runCli(['send', '--to', 'a@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('No sender address');
  });
});
