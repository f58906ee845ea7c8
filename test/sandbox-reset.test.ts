// `mailctl sandbox reset`: forgets the --sandbox state kept under MAILCTL_CONFIG_DIR. With --json
// it prints one document whether or not there was state to forget (it used to print nothing).
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const json = async (argv: string[], configDir: string) => {
  const r = await runCli(['--json', ...argv], { configDir });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout);
};

describe('sandbox reset', () => {
  it('sandbox reset prints one document whether or not there was state to forget', async () => {
    const dir = tempDir();
    expect(await json(['sandbox', 'reset', '--yes'], dir)).toEqual({ reset: false, alreadyEmpty: true });
    expect((await runCli(['--sandbox', 'balance'], { configDir: dir })).exitCode).toBe(0);
    expect(await json(['sandbox', 'reset', '--yes'], dir)).toEqual({ reset: true });
  });
});
