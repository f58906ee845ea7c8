// src/fs/safe-write.ts, the one way mailctl writes a file, against links and files planted where
// it writes: a temporary file is created new (never through a link, never over a file), a
// target link is replaced rather than followed, `replace: false` keeps whatever is there, an
// append never follows a link, and a user-named link is refused unless --force.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempBeside, openAppendNoFollow, refuseSymlink, writeFileAtomic, writeFileAtomicSync } from '../src/fs/safe-write.js';
import { DiskError } from '../src/fs/append-whole.js';
import { smallDisk } from './helpers/small-disk.js';
import { CliError, ExitCode } from '../src/core/errors.js';
import { tempDir } from './helpers/cli.js';

/** A folder to write in, and a precious file elsewhere that a planted link points at. */
function scene(): { dir: string; victim: string } {
  const dir = tempDir('mailctl-safe-write-');
  const victim = path.join(tempDir('mailctl-victim-'), 'authorized_keys');
  fs.writeFileSync(victim, 'precious\n');
  return { dir, victim };
}

const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe('createTempBeside', () => {
  it('creates a new private file in the target\'s folder, named .NAME.<hex>.part', async () => {
    const { dir } = scene();
    const { path: tmp, handle } = await createTempBeside(path.join(dir, 'out.csv'));
    await handle.close();
    expect(path.dirname(tmp)).toBe(dir);
    expect(path.basename(tmp)).toMatch(/^\.out\.csv\.[0-9a-f]{12}\.part$/);
    expect(mode(tmp)).toBe(0o600);
  });

  it('a link planted at the very name it picks is not opened through: it picks another name', async () => {
    const { dir, victim } = scene();
    const tried: string[] = [];
    const { path: tmp, handle } = await createTempBeside(path.join(dir, 'out.csv'), {
      // The attacker wins the race for the first name (the hook runs before the file exists).
      beforeCreate: async (name) => {
        tried.push(name);
        if (tried.length === 1) fs.symlinkSync(victim, name);
      },
    });
    await handle.writeFile('mine');
    await handle.close();
    expect(tried).toHaveLength(2);
    expect(tmp).toBe(tried[1]);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.lstatSync(tried[0]).isSymbolicLink()).toBe(true); // left alone, never written
    expect(fs.readFileSync(tmp, 'utf8')).toBe('mine');
  });

  it('a dangling link planted at its name creates nothing where it points', async () => {
    const { dir } = scene();
    const nowhere = path.join(tempDir('mailctl-victim-'), 'created-through-link');
    let first = true;
    const { handle } = await createTempBeside(path.join(dir, 'out.csv'), {
      beforeCreate: async (name) => {
        if (first) fs.symlinkSync(nowhere, name);
        first = false;
      },
    });
    await handle.close();
    expect(fs.existsSync(nowhere)).toBe(false);
  });
});

describe('writeFileAtomic', () => {
  it('a symlink at the target is replaced by the file, its target untouched; the file is private', async () => {
    const { dir, victim } = scene();
    const target = path.join(dir, 'page.html');
    fs.symlinkSync(victim, target);
    await writeFileAtomic(target, '<p>new</p>');
    expect(fs.lstatSync(target).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toBe('<p>new</p>');
    expect(mode(target)).toBe(0o600);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.readdirSync(dir)).toEqual(['page.html']); // no temporary file left
  });

  it('replace: false keeps an existing file (EEXIST) and leaves no temporary file', async () => {
    const { dir } = scene();
    const target = path.join(dir, 'page.html');
    fs.writeFileSync(target, 'old');
    await expect(writeFileAtomic(target, 'new', { replace: false })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(target, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['page.html']);
  });

  it('replace: false keeps a symlink there, dangling or not, and creates nothing through it', async () => {
    const { dir, victim } = scene();
    const target = path.join(dir, 'page.html');
    fs.symlinkSync(victim, target);
    await expect(writeFileAtomic(target, 'new', { replace: false })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');

    const nowhere = path.join(path.dirname(victim), 'not-yet');
    const dangling = path.join(dir, 'other.html');
    fs.symlinkSync(nowhere, dangling);
    await expect(writeFileAtomic(dangling, 'new', { replace: false })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.existsSync(nowhere)).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['other.html', 'page.html']);
  });

  it('replace: false writes a target that is not there', async () => {
    const { dir } = scene();
    const target = path.join(dir, 'new.html');
    await writeFileAtomic(target, 'fresh', { replace: false });
    expect(fs.readFileSync(target, 'utf8')).toBe('fresh');
    expect(mode(target)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['new.html']);
  });
});

describe('openAppendNoFollow', () => {
  it('refuses to open through a symlink (ELOOP); the target is untouched', () => {
    const { dir, victim } = scene();
    const file = path.join(dir, 'events.jsonl');
    fs.symlinkSync(victim, file);
    expect(() => openAppendNoFollow(file)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('creates a missing file 0600 and appends to an existing one', () => {
    const { dir } = scene();
    const file = path.join(dir, 'events.jsonl');
    for (const line of ['a\n', 'b\n']) {
      const fd = openAppendNoFollow(file);
      fs.writeSync(fd, line);
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('a\nb\n');
    expect(mode(file)).toBe(0o600);
  });
});

describe('refuseSymlink', () => {
  it('refuses a symlink (even a dangling one) with one sentence naming the flag and --force (exit 2)', () => {
    const { dir, victim } = scene();
    for (const [name, to] of [['live', victim], ['dangling', path.join(dir, 'nowhere')]]) {
      const link = path.join(dir, name);
      fs.symlinkSync(to, link);
      let err: unknown;
      try {
        refuseSymlink(link, '--out', false);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).exitCode).toBe(ExitCode.USAGE);
      expect((err as CliError).message).toBe(`${link} (--out) is a symbolic link; mailctl does not write through links.`);
      expect((err as CliError).hint).toMatch(/--force/);
    }
  });

  it('lets a symlink through with --force, and a plain file or a missing path always', () => {
    const { dir, victim } = scene();
    const link = path.join(dir, 'link');
    fs.symlinkSync(victim, link);
    expect(() => refuseSymlink(link, '--out', true)).not.toThrow();
    fs.writeFileSync(path.join(dir, 'plain'), 'x');
    expect(() => refuseSymlink(path.join(dir, 'plain'), '--out', false)).not.toThrow();
    expect(() => refuseSymlink(path.join(dir, 'missing'), '--out', false)).not.toThrow();
  });
});

describe('whole files on a nearly full disk (a small tmpfs; needs root to mount)', () => {
  const disk = smallDisk();
  afterAll(() => ('unmount' in disk ? disk.unmount() : undefined));

  it.skipIf('skip' in disk)('writeFileAtomicSync and writeFileAtomic: a file the disk takes only part of is never renamed in; the target stays as it was, no temporary file is left, and the DiskError names the target', async () => {
    if ('skip' in disk) return;
    const target = path.join(disk.dir, 'config.json');
    fs.writeFileSync(target, '{"old":true}');
    const big = JSON.stringify({ pad: 'x'.repeat(3 * 4096) });
    // One page left: the temporary file's first page is written (a short write), the rest is refused.
    disk.fill(4096);
    const errors: unknown[] = [];
    try {
      try {
        writeFileAtomicSync(target, big);
      } catch (e) {
        errors.push(e);
      }
      await writeFileAtomic(target, big).catch((e: unknown) => errors.push(e));
    } finally {
      disk.free();
    }
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).toBeInstanceOf(DiskError);
      expect((e as DiskError).message).toBe(`Could not write ${target}: the disk is full (ENOSPC).`);
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('{"old":true}');
    expect(fs.readdirSync(disk.dir).filter((n) => n !== '.ballast')).toEqual(['config.json']);
    writeFileAtomicSync(target, big);
    expect(fs.readFileSync(target, 'utf8')).toBe(big);
  });
});
