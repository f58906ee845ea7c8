// Shell completion: candidates come from the commander tree (nouns, verbs, flags, choices) and
// group names from the local cache that listing groups refreshes — never from a request. The
// bash script is run for real in bash against the built binary.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const complete = async (words: string[], env: Record<string, string | undefined> = {}) =>
  (await runCli(['__complete', '--', ...words], { env })).stdout.split('\n').filter(Boolean);

describe('mailctl __complete', () => {
  it('nouns, verbs, flags and enumerated values from the command tree', async () => {
    expect(await complete(['gr'])).toEqual(['groups']);
    expect(await complete(['groups', ''])).toEqual(['create', 'list']);
    expect(await complete(['send', '--sub'])).toEqual(['--subject']);
    expect(await complete(['--sandbox', 'campaign', 'status', 'CP1', '--w'])).toEqual(['--wait']);
    expect(await complete(['completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });

  it('group names and codes from the cache that listing every group wrote; the Tab itself makes no request', async () => {
    const dir = tempDir('mailctl-complete-');
    for (const name of ['Newsletter', 'News VIP']) expect((await runCli(['groups', 'create', name], { sandbox: sb.get() })).exitCode).toBe(0);
    expect((await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } })).exitCode).toBe(0);
    const before = sb.get().sandbox.requests().length;
    const found = await complete(['import', 'x.csv', '--group', 'News'], { MAILCTL_CONFIG_DIR: dir });
    expect(found).toEqual(['News VIP', 'Newsletter']);
    expect(await complete(['campaign', 'create', '--exclude', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual(expect.arrayContaining(['Newsletter', expect.stringMatching(/^[A-Z]/)]));
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a cached name or code with control characters (a hostile service\'s) is never offered to the shell', async () => {
    const dir = tempDir('mailctl-complete-');
    fs.mkdirSync(path.join(dir, 'cache'));
    const groups = [{ sn: 'LS1', name: 'News' }, { sn: 'LS2', name: 'News\u001b]0;owned\u0007' }, { sn: 'LS3\u202e', name: 'Newt' }, { sn: 'LS4', name: 'News\nline' }];
    fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now(), groups }));
    expect(await complete(['import', 'x.csv', '--group', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual(['LS1', 'News']);
  });

  it('a cache older than an hour is not offered', async () => {
    const dir = tempDir('mailctl-complete-');
    fs.mkdirSync(path.join(dir, 'cache'));
    fs.writeFileSync(path.join(dir, 'cache', 'groups-profile-default.json'), JSON.stringify({ at: Date.now() - 2 * 3600_000, groups: [{ sn: 'LS1', name: 'Old' }] }));
    expect(await complete(['import', 'x.csv', '--group', ''], { MAILCTL_CONFIG_DIR: dir })).toEqual([]);
  });
});

describe('mailctl completion bash', () => {
  it('the printed script completes in a real bash through the built binary', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    const shim = tempDir('mailctl-shim-');
    fs.writeFileSync(path.join(shim, 'mailctl'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, 'bin', 'mailctl.js')}" "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(shim, 'completion.bash'), script);
    const probe = `source "${shim}/completion.bash"; COMP_WORDS=(mailctl report ""); COMP_CWORD=2; _mailctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile('bash', ['-c', probe], { env: { PATH: `${shim}:${process.env.PATH}`, HOME: shim, MAILCTL_CONFIG_DIR: shim }, timeout: 15_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    expect(out.split('\n').filter(Boolean)).toEqual(expect.arrayContaining(['export', 'links', 'list', 'metrics']));
  });

  it('zsh and fish scripts ask the same __complete entry point', async () => {
    for (const shell of ['zsh', 'fish']) {
      const r = await runCli(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('mailctl __complete --');
    }
    expect((await runCli(['completion', 'tcsh'])).exitCode).toBe(2);
  });
});
