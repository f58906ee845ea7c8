// The compile cache the bin turns on (enableCompileCache in src/config/paths.ts): V8's compiled code of the
// bundle kept in the config directory between runs, where the runtime has one (Node ≥ 22.1;
// CI runs this file on Node 20 and Node 24), never a directory created just for it, and
// nothing a user sees when it cannot be used.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const hasCompileCache = typeof (process.getBuiltinModule('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function run(configDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: path.dirname(configDir), MAILCTL_CONFIG_DIR: configDir };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env, timeout: 15_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

describe('compile cache', () => {
  it(hasCompileCache ? 'is kept in <config dir>/compile-cache, private, and filled by a run' : 'is not written on a runtime without one (Node 20)', async () => {
    const config = path.join(tempDir(), 'config');
    fs.mkdirSync(config, { mode: 0o700 });
    const r = await run(config, 'completion', 'bash');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const cache = path.join(config, 'compile-cache');
    if (!hasCompileCache) {
      expect(fs.existsSync(cache)).toBe(false);
      return;
    }
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
    // Node keeps one folder per runtime version, holding one entry per module compiled.
    const [version] = fs.readdirSync(cache);
    expect(fs.readdirSync(path.join(cache, version)).length).toBeGreaterThan(0);
    // A second run reads the cache and prints the same.
    expect(await run(config, 'completion', 'bash')).toEqual(r);
  });

  it('never creates the config directory for it', async () => {
    const config = path.join(tempDir(), 'config');
    const r = await run(config, '--help');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(config)).toBe(false);
  });

  it('is not used in a config directory that others may write to (a cache there would be code they chose)', async () => {
    const config = path.join(tempDir(), 'config');
    fs.mkdirSync(config);
    fs.chmodSync(config, 0o777);
    const r = await run(config, 'completion', 'bash');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(config, 'compile-cache'))).toBe(false);
  });

  it('when the cache folder cannot be used, the run goes on as usual and says nothing', async () => {
    const config = path.join(tempDir(), 'config');
    fs.mkdirSync(config, { mode: 0o700 });
    fs.writeFileSync(path.join(config, 'compile-cache'), 'not a folder');
    const r = await run(config, 'completion', 'bash');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('mailctl');
    expect(fs.readFileSync(path.join(config, 'compile-cache'), 'utf8')).toBe('not a folder');
  });
});
