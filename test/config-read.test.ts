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

// A hand-edited value of the wrong type or form: exit 3 and one sentence naming the file, the
// profile and the key, with the `config set` that fixes it; never a crash ("This is a bug") and
// never a value silently ignored.
describe('a wrong value in config.json', () => {
  const cases: Array<[string, unknown, string]> = [
    ['campaignUrl', 5, 'campaign-url'],
    ['fromAddress', 5, 'from-address'],
    ['fieldTypes', 'AGE:number', 'field-types'],
    ['nameMaxLength', 'abc', 'name-max-length'],
    ['output', 'xml', 'output'],
    ['sandbox', 'yes', 'sandbox'],
    ['timezone', ['Asia/Taipei'], 'timezone'],
  ];
  const configWith = (key: string, value: unknown) => {
    const dir = tempDir('mailctl-read-');
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ profiles: { default: { [key]: value } } }));
    return dir;
  };

  it.each(cases)('%s = %j: config list, doctor and --json doctor exit 3 naming the file, profile and key', async (key, value, flag) => {
    const dir = configWith(key, value);
    for (const argv of [['config', 'list'], ['doctor'], ['--json', 'doctor']]) {
      const r = await runCli(argv, { env: { MAILCTL_CONFIG_DIR: dir } });
      expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).not.toContain('This is a bug');
      if (argv[0] === '--json') continue;
      expect(r.stderr).toContain(path.join(dir, 'config.json'));
      expect(r.stderr).toContain('profile "default"');
      expect(r.stderr).toContain(`"${key}" (${flag})`);
      expect(r.stderr).toContain(`mailctl config set ${flag} VALUE`);
    }
  });

  it('a wrong from-address stops a --sandbox send with exit 3, before anything is sent', async () => {
    const dir = configWith('fromAddress', 5);
    const r = await runCli(['--sandbox', 'send', '--to', 'a@example.com', '--subject', 'hi', '--html', 'x'], { env: { MAILCTL_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('"fromAddress" (from-address)');
  });

  it('the hinted `config set` repairs the profile (the writer reads it unchecked)', async () => {
    const dir = configWith('sandbox', 'yes');
    const env = { MAILCTL_CONFIG_DIR: dir };
    expect((await runCli(['config', 'set', 'sandbox', 'true'], { env })).exitCode).toBe(0);
    const r = await runCli(['--json', 'config', 'list'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).settings.sandbox.value).toBe('true');
  });
});
