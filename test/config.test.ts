// `mailctl config`: set/get/unset/list/path/use, profiles chosen by flag, env or `config use`,
// the environment beating the profile, keys entered only by prompt/stdin/env, stored 0600, shown
// masked, and a missing key naming the command that fixes it; `config set timezone` checked like
// --timezone; with --json each subcommand prints one document.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter, tempDir, type CliOptions } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { unusedPort } from './helpers/wait.js';
import { smallDisk } from './helpers/small-disk.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists', // groups create: is the name taken?
    'POST /campaign/v1/contacts/lists/insert',
  ],
});
const sandbox = () => sb.get().sandbox;
let deadUrl: string; // a loopback URL nothing listens on

beforeAll(async () => {
  deadUrl = `http://127.0.0.1:${await unusedPort()}`;
});

/** One config dir shared by a sequence of runs, like one user's machine. */
function machine() {
  const dir = path.join(tempDir(), 'mailctl'); // not there yet: mailctl creates it
  const run = (argv: string[], o: CliOptions = {}) => runCli(argv, { configDir: dir, ...o });
  const setKey = (key: string, ...flags: string[]) => run(['config', 'set-key', '--with-key-stdin', ...flags], { stdin: `${key}\n` });
  const configPath = async () => (await run(['config', 'path'])).stdout.trim();
  return { dir, run, setKey, configPath };
}

/** What the sandbox received during fn. */
async function received<T>(fn: () => Promise<T>) {
  const before = sandbox().requests().length;
  const result = await fn();
  return { result, reqs: sandbox().requests().slice(before) };
}

describe('config set / get / unset / list', () => {
  it('round-trips a setting, and unset removes it (get then prints nothing, exit 0 as under --json)', async () => {
    const m = machine();
    expect((await m.run(['config', 'set', 'from-address', 'news@example.com'])).exitCode).toBe(0);
    expect(await m.run(['config', 'get', 'from-address'])).toMatchObject({ exitCode: 0, stdout: 'news@example.com\n' });
    expect((await m.run(['config', 'list'])).stdout).toMatch(/^from-address\tnews@example\.com\tprofile$/m);
    expect((await m.run(['config', 'unset', 'from-address'])).exitCode).toBe(0);
    expect(await m.run(['config', 'get', 'from-address'])).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await m.run(['--json', 'config', 'get', 'from-address'])).toMatchObject({ exitCode: 0, stdout: '{\n  "from-address": null\n}\n' });
  });

  it('field-types with a field given twice is refused (exit 2), nothing stored', async () => {
    const m = machine();
    const r = await m.run(['config', 'set', 'field-types', 'AGE:number,age:date']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('AGE is given twice');
    expect(await m.run(['config', 'get', 'field-types'])).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('a sender name with terminal escapes: config get and list show them made visible on a terminal, exact under --json', async () => {
    const m = machine();
    const name = 'Ann\u001b]0;x\u0007';
    expect((await m.run(['config', 'set', 'from-name', name])).exitCode).toBe(0);
    for (const argv of [['config', 'get', 'from-name'], ['config', 'list']]) {
      const r = await m.run(argv, { tty: true });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('Ann');
      expect(r.stdout).not.toContain('\u001b]0');
      expect(r.stdout).not.toContain('\u0007');
    }
    expect(JSON.parse((await m.run(['--json', 'config', 'get', 'from-name'])).stdout)).toEqual({ 'from-name': name });
  });

  it('refuses a bad value (exit 2, one sentence) and an unknown setting, storing nothing', async () => {
    const m = machine();
    const bad = await m.run(['config', 'set', 'from-address', 'not-an-address']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not an email address');
    const url = await m.run(['config', 'set', 'campaign-url', 'https://api.example.com/v1']);
    expect(url.exitCode).toBe(2);
    expect(url.stderr).toContain('without /v1');
    const unknown = await m.run(['config', 'set', 'colour', 'blue']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Unknown setting "colour"');
    expect(await m.run(['config', 'get', 'from-address'])).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('refuses a key as a plain argument (`config set api-key X`): exit 2, names set-key, X stored nowhere', async () => {
    const m = machine();
    await m.run(['config', 'set', 'from-name', 'Shop']); // make sure the file exists
    for (const name of ['api-key', 'campaign-key', 'notify-key', 'apiKey']) {
      const r = await m.run(['config', 'set', name, 'argv-secret-123456789']);
      expect(r.exitCode, name).toBe(2);
      expect(r.stderr).toContain('mailctl config set-key');
    }
    expect(fs.readFileSync(await m.configPath(), 'utf8')).not.toContain('argv-secret');
  });
});

describe('profiles: --profile, MAILCTL_PROFILE, `config use`', () => {
  it('each way of choosing a profile reads that profile, in the order flag > env > `config use`', async () => {
    const m = machine();
    expect((await m.run(['--profile', 'work', 'config', 'set', 'from-name', 'Work'])).exitCode).toBe(0);
    expect((await m.run(['--profile', 'home', 'config', 'set', 'from-name', 'Home'])).exitCode).toBe(0);
    expect(await m.run(['config', 'get', 'from-name'])).toMatchObject({ exitCode: 0, stdout: '' }); // the default profile has none
    expect((await m.run(['--profile', 'work', 'config', 'get', 'from-name'])).stdout).toBe('Work\n');
    expect((await m.run(['config', 'get', 'from-name'], { env: { MAILCTL_PROFILE: 'home' } })).stdout).toBe('Home\n');

    expect((await m.run(['config', 'use', 'work'])).exitCode).toBe(0);
    expect((await m.run(['config', 'get', 'from-name'])).stdout).toBe('Work\n');
    expect((await m.run(['config', 'get', 'from-name'], { env: { MAILCTL_PROFILE: 'home' } })).stdout).toBe('Home\n');
    expect((await m.run(['--profile', 'home', 'config', 'get', 'from-name'], { env: { MAILCTL_PROFILE: 'work' } })).stdout).toBe('Home\n');
    expect((await m.run(['config', 'profiles'])).stdout).toMatch(/^\*\twork$/m);
    // A typo is refused, names the profiles there are, and leaves the default as it was.
    const typo = await m.run(['config', 'use', 'wrok']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('There is no profile "wrok" (profiles: home, work)');
    expect(typo.stderr).toContain('mailctl --profile wrok config set-key');
    expect((await m.run(['config', 'profiles'])).stdout).toMatch(/^\*\twork$/m);
  });

  it('a key stored in one profile is not used by another; the fix names that profile', async () => {
    const m = machine();
    expect((await m.setKey(SANDBOX_KEYS.campaign, '--service', 'campaign', '--profile', 'work')).exitCode).toBe(0);
    const env = { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl };
    const { result: other, reqs: none } = await received(() => m.run(['--profile', 'home', 'balance'], { env }));
    expect(other.exitCode).toBe(3);
    expect(other.stderr).toContain('mailctl --profile home config set-key --service campaign');
    expect(none).toEqual([]);
    const { result: work, reqs } = await received(() => m.run(['--profile', 'work', 'balance'], { env }));
    expect(work.exitCode).toBe(0);
    expect(reqs.map((r) => r.headers['x-api-key'])).toEqual([SANDBOX_KEYS.campaign]);
  });
});

describe('keys', () => {
  it('`config set-key --with-key-stdin` stores the key, and later commands send it', async () => {
    const m = machine();
    const saved = await m.setKey(SANDBOX_KEYS.campaign, '--service', 'campaign');
    expect(saved.exitCode).toBe(0);
    expect(saved.stdout + saved.stderr).not.toContain(SANDBOX_KEYS.campaign);
    expect((await m.run(['config', 'set', 'campaign-url', sb.get().campaignUrl])).exitCode).toBe(0);
    const { result, reqs } = await received(() => m.run(['balance']));
    expect(result.exitCode).toBe(0);
    expect(reqs).toHaveLength(1);
    expect(reqs[0].headers['x-api-key']).toBe(SANDBOX_KEYS.campaign);
  });

  it('a shared key (--service both) is used by the campaign service', async () => {
    const m = machine();
    expect((await m.setKey(SANDBOX_KEYS.campaign)).exitCode).toBe(0);
    const { result, reqs } = await received(() => m.run(['balance'], { env: { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl } }));
    expect(result.exitCode).toBe(0);
    expect(reqs[0].headers['x-api-key']).toBe(SANDBOX_KEYS.campaign);
  });

  it('the hidden prompt stores the key on a terminal; without one set-key refuses (exit 2) and points to stdin', async () => {
    const m = machine();
    const prompter = scriptedPrompter(['typed-key-abcdef123456']);
    const typed = await m.run(['config', 'set-key', '--service', 'notify'], { tty: true, prompter });
    expect(typed.exitCode).toBe(0);
    expect(prompter.asked).toHaveLength(1);
    expect(fs.readFileSync(await m.configPath(), 'utf8')).toContain('typed-key-abcdef123456');

    const piped = await m.run(['config', 'set-key', '--service', 'notify']);
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('--with-key-stdin');
  });

  it('an empty key on stdin is refused (exit 2) and nothing is saved', async () => {
    const m = machine();
    const r = await m.run(['config', 'set-key', '--with-key-stdin'], { stdin: '\n' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('empty');
    expect((await m.run(['config', 'list'])).stdout).toMatch(/^campaign-key\t\(not set\)/m);
  });

  it('the config file is created with mode 0600 and its directory 0700', async () => {
    const m = machine();
    expect((await m.setKey('secret-key-0123456789')).exitCode).toBe(0);
    const file = await m.configPath();
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(m.dir).mode & 0o777).toBe(0o700);
  });

  it('`config list` shows keys masked (table, TSV and --json), never the full key', async () => {
    const m = machine();
    const campaignKey = 'campaign-secret-0123456789';
    const notifyKey = 'notify-secret-9876543210';
    await m.setKey(campaignKey, '--service', 'campaign');
    await m.setKey(notifyKey, '--service', 'notify');
    for (const o of [{}, { tty: true }] as CliOptions[]) {
      for (const argv of [['config', 'list'], ['config', 'list', '--json'], ['-v', 'config', 'list']]) {
        const r = await m.run(argv, o);
        expect(r.exitCode).toBe(0);
        const all = r.stdout + r.stderr;
        expect(all).not.toContain(campaignKey);
        expect(all).not.toContain(notifyKey);
        expect(all).toContain('camp…89');
        expect(all).toContain('noti…10');
      }
    }
  });

  it('a missing key fails with exit 3 naming `mailctl config set-key`, before anything is sent', async () => {
    const m = machine();
    const { result, reqs } = await received(() => m.run(['balance'], { env: { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl } }));
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('mailctl config set-key --service campaign');
    expect(result.stdout).toBe('');
    expect(reqs).toEqual([]);
  });
});

describe('the environment beats the profile', () => {
  it('MAILCTL_CAMPAIGN_URL and MAILCTL_CAMPAIGN_API_KEY override the profile\'s URL and key', async () => {
    const m = machine();
    await m.setKey('profile-key-that-is-wrong', '--service', 'campaign');
    await m.run(['config', 'set', 'campaign-url', deadUrl]);
    const env = { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
    const { result, reqs } = await received(() => m.run(['balance'], { env }));
    expect(result.exitCode).toBe(0);
    expect(reqs.map((r) => r.headers['x-api-key'])).toEqual([SANDBOX_KEYS.campaign]);
    const list = await m.run(['config', 'list'], { env });
    expect(list.stdout).toMatch(/^campaign-key\tsand…ey\tMAILCTL_CAMPAIGN_API_KEY$/m);
    expect(list.stdout).toContain(`campaign-url\t${sb.get().campaignUrl}\tMAILCTL_CAMPAIGN_URL`);
  });

  it('MAILCTL_API_KEY beats the profile key, and the per-service variable beats MAILCTL_API_KEY', async () => {
    const m = machine();
    await m.setKey('profile-key-that-is-wrong');
    await m.run(['config', 'set', 'campaign-url', sb.get().campaignUrl]);
    const shared = await received(() => m.run(['balance'], { env: { MAILCTL_API_KEY: SANDBOX_KEYS.campaign } }));
    expect(shared.result.exitCode).toBe(0);
    expect(shared.reqs[0].headers['x-api-key']).toBe(SANDBOX_KEYS.campaign);

    const specific = await received(() => m.run(['balance'], { env: { MAILCTL_API_KEY: 'shared-key-that-is-wrong', MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign } }));
    expect(specific.result.exitCode).toBe(0);
    expect(specific.reqs[0].headers['x-api-key']).toBe(SANDBOX_KEYS.campaign);

    // Control: with no environment the (wrong) profile key is what goes out.
    const profileOnly = await received(() => m.run(['balance']));
    expect(profileOnly.result.exitCode).toBe(3);
    expect(profileOnly.reqs[0].headers['x-api-key']).toBe('profile-key-that-is-wrong');
  });
});

describe('config set timezone', () => {
  // It used to store anything ("Mars"), so the typo surfaced only at the next scheduled
  // `campaign create`. It is now checked like --timezone: an IANA zone, a city of the service's
  // list or a code (spec 000 section 2, the 88 time-zone codes).
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

describe('--json on local commands', () => {
  // "--json: stdout is exactly one JSON document." These used to print nothing (config
  // set/unset/use) or a bare path (config path) with --json, which a script's JSON parser rejects.
  const json = async (argv: string[], configDir: string) => {
    const r = await runCli(['--json', ...argv], { configDir });
    expect(r.exitCode).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('config path, set, unset and use each print one document', async () => {
    const dir = tempDir();
    expect((await json(['config', 'path'], dir)).path).toMatch(/config\.json$/);
    expect(await json(['config', 'set', 'from-name', 'Acme'], dir)).toEqual({ profile: 'default', setting: 'from-name', value: 'Acme' });
    expect(await json(['config', 'unset', 'from-name'], dir)).toEqual({ profile: 'default', setting: 'from-name', removed: true });
    await json(['--profile', 'staging', 'config', 'set', 'from-name', 'Staging'], dir);
    expect(await json(['config', 'use', 'staging'], dir)).toEqual({ profile: 'staging', default: true });
  });

  it('config set-key and delete-profile print one document too; the key only masked, as config list shows it', async () => {
    const dir = tempDir();
    const r = await runCli(['--json', '--profile', 'p2', 'config', 'set-key', '--with-key-stdin'], { configDir: dir, stdin: 'zzzzzzzzzzzz\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('zzzzzzzzzzzz');
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ profile: 'p2', service: 'both' });
    const listed = JSON.parse((await runCli(['--json', '--profile', 'p2', 'config', 'list'], { configDir: dir })).stdout);
    expect(doc.key).toBe(listed.settings['campaign-key'].value);
    expect(await json(['config', 'delete-profile', 'p2', '--yes'], dir)).toEqual({ profile: 'p2', deleted: true });
  });

  it('without --json they stay quiet on stdout (the news goes to stderr)', async () => {
    const dir = tempDir();
    const r = await runCli(['config', 'set', 'from-name', 'Acme'], { configDir: dir });
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Set from-name in profile "default".');
  });
});

describe('config writes on a full disk (a small tmpfs; needs root to mount)', () => {
  const mounted = smallDisk();
  afterAll(() => ('unmount' in mounted ? mounted.unmount() : undefined));

  it.skipIf('skip' in mounted)('config set: exit 1 DISK naming config.json, the file as it was and no temporary file left; the same command then saves', async () => {
    if ('skip' in mounted) return;
    const configDir = path.join(mounted.dir, 'config');
    fs.mkdirSync(configDir, { mode: 0o700 });
    expect((await runCli(['config', 'set', 'from-name', 'Before'], { configDir })).exitCode).toBe(0);
    const file = path.join(configDir, 'config.json');
    const before = fs.readFileSync(file, 'utf8');
    mounted.fill(0);
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(['config', 'set', 'from-name', 'After the disk filled'], { configDir });
    } finally {
      mounted.free();
    }
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: Could not write ${file}: the disk is full (ENOSPC).`);
    expect(r.stderr).toContain("Free some space on that disk, then run the command again: mailctl config set from-name 'After the disk filled'");
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(configDir).filter((n) => n !== 'config.json')).toEqual([]);
    expect((await runCli(['config', 'set', 'from-name', 'After the disk filled'], { configDir })).exitCode).toBe(0);
    expect((await runCli(['config', 'get', 'from-name'], { configDir })).stdout.trim()).toBe('After the disk filled');
  });

  it.skipIf('skip' in mounted)('a read-only file system: DISK with the fix for that, not "free some space"', async () => {
    if ('skip' in mounted) return;
    const configDir = path.join(mounted.dir, 'config-ro');
    fs.mkdirSync(configDir, { mode: 0o700 });
    expect(spawnSync('mount', ['-o', 'remount,ro', mounted.dir]).status).toBe(0);
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(['config', 'set', 'from-name', 'Read only', '--json'], { configDir });
    } finally {
      spawnSync('mount', ['-o', 'remount,rw', mounted.dir]);
    }
    expect(r.exitCode).toBe(1);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('DISK');
    expect(error.message).toContain('the file system is read-only (EROFS)');
    expect(error.hint).toMatch(/^Make that file system writable, or point MAILCTL_CONFIG_DIR \(or the output path\) elsewhere, then run the command again: /);
    expect(error.hint).not.toContain('Free some space');
  });

  it.skipIf('skip' in mounted)('--sandbox on a read-only config folder: its own files named, exit 3 at once, never "cannot reach the service" after retries', async () => {
    if ('skip' in mounted) return;
    const configDir = path.join(mounted.dir, 'config-ro-sandbox');
    fs.mkdirSync(configDir, { mode: 0o700 });
    expect(spawnSync('mount', ['-o', 'remount,ro', mounted.dir]).status).toBe(0);
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(['--sandbox', 'balance', '--json'], { configDir });
    } finally {
      spawnSync('mount', ['-o', 'remount,rw', mounted.dir]);
    }
    expect(r.exitCode).toBe(3);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('CONFIG');
    expect(error.message).toContain(`The built-in sandbox keeps its state in ${path.join(configDir, 'sandbox')}, which cannot be used`);
    expect(r.stderr).not.toContain('Cannot reach');
  });
});
