// The bundle's own code caches (src/config/code-cache.ts): kept beside Node's compile cache, in
// the config directory's compile-cache folder, on the runtimes that have one (CI runs this file
// on Node 20 and Node 24); written once, private, by the run that found none; one folder per
// build and runtime, the others' removed; a cache V8 refuses is replaced, and the run goes on.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const hasCompileCache = typeof (process.getBuiltinModule('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const buildId = () => fs.readFileSync(path.join(root, 'dist', 'cli', 'build-id'), 'utf8').trim();

function run(configDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: path.dirname(configDir), MAILCTL_CONFIG_DIR: configDir };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env, timeout: 15_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

function privateConfig(): string {
  const config = path.join(tempDir(), 'config');
  fs.mkdirSync(config, { mode: 0o700 });
  return config;
}

/** The cache files of this build, by name, with their bytes. */
function caches(config: string): Map<string, Buffer> {
  const folder = path.join(config, 'compile-cache', `mailctl-${process.version}-${process.arch}-${buildId()}`);
  if (!fs.existsSync(folder)) return new Map();
  return new Map(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]));
}

describe.runIf(hasCompileCache)('code caches of the bundle', () => {
  it('are written by the first run, privately, one per chunk it loaded, and used as they are by the next', async () => {
    const config = privateConfig();
    const first = await run(config, '--sandbox', 'balance');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const written = caches(config);
    expect([...written.keys()]).toEqual(expect.arrayContaining(['main.js.cache', expect.stringMatching(/^core-.*\.js\.cache$/), expect.stringMatching(/^api-.*\.js\.cache$/)]));
    const folder = path.join(config, 'compile-cache', `mailctl-${process.version}-${process.arch}-${buildId()}`);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    for (const f of written.keys()) expect(fs.statSync(path.join(folder, f)).mode & 0o777).toBe(0o600);
    // No temporary file left beside them.
    expect([...written.keys()].filter((f) => !f.endsWith('.js.cache'))).toEqual([]);

    const second = await run(config, '--sandbox', 'balance');
    expect(second).toEqual(first);
    expect(caches(config)).toEqual(written);
  });

  it('a chunk that imports an ES-module-only package (conf) works from its cache, with nothing on stderr', async () => {
    const config = privateConfig();
    // The first run writes the caches, the second runs from them.
    for (const zone of ['Asia/Taipei', 'Europe/Paris']) {
      expect(await run(config, 'config', 'set', 'timezone', zone)).toEqual({ code: 0, stdout: '', stderr: `Set timezone in profile "default".\n` });
    }
    expect([...caches(config).keys()]).toEqual(expect.arrayContaining([expect.stringMatching(/^store-.*\.js\.cache$/)]));
    expect(JSON.parse(fs.readFileSync(path.join(config, 'config.json'), 'utf8')).profiles.default.timezone).toBe('Europe/Paris');
  });

  it('one V8 refuses (damaged, or of another runtime) is replaced, and the run prints the same', async () => {
    const config = privateConfig();
    const first = await run(config, '--sandbox', 'balance');
    const folder = path.join(config, 'compile-cache', `mailctl-${process.version}-${process.arch}-${buildId()}`);
    fs.writeFileSync(path.join(folder, 'main.js.cache'), 'not a code cache');
    expect(await run(config, '--sandbox', 'balance')).toEqual(first);
    const after = caches(config).get('main.js.cache')!;
    expect(after.toString('latin1')).not.toBe('not a code cache');
    expect(after.length).toBeGreaterThan(1000);
  });

  it('the folders of other builds go when this build makes its own', async () => {
    const config = privateConfig();
    const old = path.join(config, 'compile-cache', `mailctl-${process.version}-${process.arch}-${'0'.repeat(32)}`);
    fs.mkdirSync(old, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(old, 'main.js.cache'), 'old');
    const nodeOwn = fs.readdirSync(path.join(config, 'compile-cache'));
    expect((await run(config, '--version')).code).toBe(0); // answered by the bin: loads no bundle, touches nothing
    expect(fs.existsSync(old)).toBe(true);
    expect(await run(config, 'completion', 'bash')).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(old)).toBe(false);
    expect(caches(config).size).toBeGreaterThan(0);
    // Node's own cache folder is not the bundle's to remove.
    for (const n of nodeOwn.filter((n) => !n.startsWith('mailctl-'))) expect(fs.existsSync(path.join(config, 'compile-cache', n))).toBe(true);
  });
});

describe.runIf(!hasCompileCache)('code caches of the bundle on a runtime without a compile cache (Node 20)', () => {
  it('are not written: the run goes on as before', async () => {
    const config = privateConfig();
    expect(await run(config, '--sandbox', 'balance')).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(config, 'compile-cache'))).toBe(false);
  });
});
