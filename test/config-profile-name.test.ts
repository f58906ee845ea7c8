// One check for a profile name wherever it enters (src/config/profile-name.ts): --profile,
// MAILCTL_PROFILE, `config use`, `config delete-profile`, and the config file's own current
// profile. `__proto__` once made `set-key` print "Saved" while nothing was stored, `--profile ''`
// silently used another profile, and `config use constructor` found Object's constructor as a
// stored profile. The store itself treats such keys as ordinary entries.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliOptions } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { openConfig } from '../src/config/store.js';
import { readConfig } from '../src/config/read.js';

const sb = useSandbox();

function machine() {
  const dir = path.join(tempDir(), 'mailctl');
  const run = (argv: string[], o: CliOptions = {}) => runCli(argv, { configDir: dir, ...o });
  const file = path.join(dir, 'config.json');
  const stored = () => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);
  return { dir, run, file, stored };
}

describe('a bad profile name is exit 2 with one sentence, and nothing is stored or sent', () => {
  it.each([
    ['__proto__', 'is a name JavaScript reserves'],
    ['constructor', 'is a name JavaScript reserves'],
    ['', 'is empty'],
    ['a b', 'may hold only letters, digits'],
    ['../x', 'may hold only letters, digits'],
    ['x'.repeat(65), 'is longer than 64 characters'],
  ])('set-key --profile %j', async (name, why) => {
    const m = machine();
    const r = await m.run(['--profile', name, 'config', 'set-key', '--with-key-stdin'], { stdin: 'k-123456789\n' });
    expect(r.stderr).toContain(`--profile "${name}" ${why}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('Saved');
    expect(m.stored()?.profiles ?? {}).toEqual({});
  });

  it('--profile and MAILCTL_PROFILE on a command that calls the service: no request', async () => {
    const before = sb.get().sandbox.requests().length;
    const flag = await runCli(['--profile', '__proto__', 'groups', 'list'], { sandbox: sb.get() });
    expect(flag.exitCode).toBe(2);
    const env = await runCli(['groups', 'list'], { sandbox: sb.get(), env: { MAILCTL_PROFILE: 'constructor' } });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain('MAILCTL_PROFILE "constructor" is a name JavaScript reserves');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('config use and delete-profile check the name too', async () => {
    const m = machine();
    const use = await m.run(['config', 'use', 'constructor']);
    expect(use.exitCode).toBe(2);
    expect(use.stderr).toContain('The profile name "constructor" is a name JavaScript reserves');
    expect(m.stored()?.currentProfile).toBeUndefined();
    const del = await m.run(['config', 'delete-profile', '__proto__', '--yes']);
    expect(del.exitCode).toBe(2);
    expect(del.stderr).toContain('The profile name "__proto__"');
  });

  it('a hand-edited file naming "__proto__" as current profile is a config error (exit 3), not obeyed', async () => {
    const m = machine();
    fs.mkdirSync(m.dir, { recursive: true });
    // Raw JSON: in a JavaScript literal, `__proto__:` would set the prototype instead of a key.
    fs.writeFileSync(m.file, '{"currentProfile": "__proto__", "profiles": {"__proto__": {"apiKey": "x"}, "work": {}}}');
    const before = sb.get().sandbox.requests().length;
    const r = await m.run(['groups', 'list'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("The config file's current profile \"__proto__\"");
    expect(sb.get().sandbox.requests().length).toBe(before);
    expect((await m.run(['config', 'profiles', '--profile', 'work'])).stdout).not.toContain('__proto__');
  });
});

describe('good names keep working', () => {
  it('letters, digits, dot, dash and underscore: stored and used', async () => {
    const m = machine();
    const r = await m.run(['--profile', 'prod.eu_2-b', 'config', 'set-key', '--with-key-stdin'], { stdin: 'k-123456789\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(m.stored().profiles)).toEqual(['prod.eu_2-b']);
    expect((await m.run(['config', 'use', 'prod.eu_2-b'])).exitCode).toBe(0);
    expect(m.stored().currentProfile).toBe('prod.eu_2-b');
  });
});

describe('the config store and reader treat reserved keys as plain entries', () => {
  it('a key named like an Object member is stored as its own entry, and never found where none is stored', async () => {
    const dir = tempDir();
    const store = await openConfig(dir);
    expect(store.getProfile('constructor')).toBeUndefined();
    expect(store.getProfile('toString')).toBeUndefined();
    store.setProfile('__proto__', { apiKey: 'kept' });
    const raw = JSON.parse(fs.readFileSync(store.path, 'utf8'));
    expect(Object.hasOwn(raw.profiles, '__proto__')).toBe(true);
    expect(store.getProfile('__proto__')).toEqual({ apiKey: 'kept' });
    expect(store.profileNames()).toEqual([]); // not a name the rule allows: never offered
    expect(readConfig(dir).getProfile('constructor')).toBeUndefined();
    expect(readConfig(dir).profileNames()).toEqual([]);
  });
});
