// "--json: stdout is exactly one JSON document." Commands that only touch local state used to
// print nothing (config set/unset/use, sandbox reset) or a bare path (config path) with --json,
// which a script's JSON parser rejects.
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const json = async (argv: string[], configDir: string) => {
  const r = await runCli(['--json', ...argv], { configDir });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout);
};

describe('--json on local commands', () => {
  it('config path, set, unset and use each print one document', async () => {
    const dir = tempDir();
    expect((await json(['config', 'path'], dir)).path).toMatch(/config\.json$/);
    expect(await json(['config', 'set', 'from-name', 'Acme'], dir)).toEqual({ profile: 'default', setting: 'from-name', value: 'Acme' });
    expect(await json(['config', 'unset', 'from-name'], dir)).toEqual({ profile: 'default', setting: 'from-name', removed: true });
    await json(['--profile', 'staging', 'config', 'set', 'from-name', 'Staging'], dir);
    expect(await json(['config', 'use', 'staging'], dir)).toEqual({ profile: 'staging', default: true });
  });

  it('without --json they stay quiet on stdout (the news goes to stderr)', async () => {
    const dir = tempDir();
    const r = await runCli(['config', 'set', 'from-name', 'Acme'], { configDir: dir });
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Set from-name in profile "default".');
  });

  it('sandbox reset prints one document whether or not there was state to forget', async () => {
    const dir = tempDir();
    expect(await json(['sandbox', 'reset', '--yes'], dir)).toEqual({ reset: false, alreadyEmpty: true });
    expect((await runCli(['--sandbox', 'balance'], { configDir: dir })).exitCode).toBe(0);
    expect(await json(['sandbox', 'reset', '--yes'], dir)).toEqual({ reset: true });
  });
});
