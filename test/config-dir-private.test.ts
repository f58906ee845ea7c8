// The config directory holds API keys, send journals and received events (10.9: private by
// default): created 0700, and one that already exists with a wider mode is tightened — or, when
// that is not possible, the user is told once, with the command that fixes it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { keepPrivate } from '../src/config/private-dir.js';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('the config directory is private', () => {
  it('a new one is created 0700, the config file in it 0600', async () => {
    const dir = path.join(tempDir(), 'fresh', 'mailctl');
    const r = await runCli(['config', 'set', 'from-address', 'news@example.com'], { configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
  });

  it('an existing one open to others (0755) is tightened to 0700, quietly', async () => {
    const dir = path.join(tempDir(), 'mailctl');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    const r = await runCli(['config', 'set', 'from-address', 'news@example.com'], { configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(r.stderr).not.toContain('config directory');
  });

  it('when it cannot be tightened, one warning says so and how to fix it', () => {
    const dir = path.join(tempDir(), 'mailctl');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o775);
    const warned: string[] = [];
    keepPrivate(dir, (m) => warned.push(m), () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    });
    expect(warned).toEqual([`The config directory ${dir} is open to other users (mode 775) and could not be made private (EPERM); it holds your API keys. Run \`chmod 700 ${dir}\`.`]);
  });
});

describe('the config file itself', () => {
  const KEPT = JSON.stringify({ currentProfile: 'default', profiles: { default: { fromAddress: 'kept@example.com' } } });

  it('an existing one others may read (0644) is tightened to 0600 by a command that only reads it, content unchanged', async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o700);
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, KEPT);
    fs.chmodSync(file, 0o644);
    const r = await runCli(['config', 'get', 'from-address'], { configDir: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('kept@example.com\n');
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(KEPT);
  });

  it('a dry run changes no mode: it warns with the chmod, and the next real run tightens it', async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, KEPT);
    fs.chmodSync(file, 0o644);
    const r = await runCli(['groups', 'create', 'Dry', '--dry-run'], { configDir: dir, env: { MAILCTL_API_KEY: 'k-dry-run' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(mode(dir)).toBe(0o755);
    expect(mode(file)).toBe(0o644);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
    expect(r.stderr).toContain(`chmod 700 ${dir}`);
    expect((await runCli(['config', 'get', 'from-address'], { configDir: dir })).exitCode).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it('when it cannot be tightened, one warning says so and how to fix it', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o700);
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, KEPT);
    fs.chmodSync(file, 0o640);
    const warned: string[] = [];
    keepPrivate(dir, (m) => warned.push(m), () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    });
    expect(warned).toEqual([`The config file ${file} is open to other users (mode 640) and could not be made private (EPERM); it holds your API keys. Run \`chmod 600 ${file}\`.`]);
  });

  it('a symbolic link is never written through: a change is refused (exit 3), the file it points to untouched; reading still works', async () => {
    const dir = tempDir();
    const target = path.join(tempDir(), 'elsewhere.json');
    fs.writeFileSync(target, KEPT);
    fs.symlinkSync(target, path.join(dir, 'config.json'));
    const set = await runCli(['config', 'set', 'from-address', 'new@example.com'], { configDir: dir });
    expect(set.exitCode).toBe(3);
    expect(set.stderr).toContain(`The config file ${path.join(dir, 'config.json')} is a symbolic link, and mailctl does not write API keys and settings through links; nothing was changed.`);
    expect(set.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(fs.readFileSync(target, 'utf8')).toBe(KEPT);
    expect(fs.lstatSync(path.join(dir, 'config.json')).isSymbolicLink()).toBe(true);

    const get = await runCli(['config', 'get', 'from-address'], { configDir: dir });
    expect(get.exitCode).toBe(0);
    expect(get.stdout).toBe('kept@example.com\n');
  });
});
