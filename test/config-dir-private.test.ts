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
