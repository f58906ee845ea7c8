// src/fs/append-whole.ts: a record reaches the file whole or not at all, and a torn tail left
// by a kill is cut back before the next append.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendWhole, appendWholeAsync, cutTornTail, DiskError } from '../src/fs/append-whole.js';
import { smallDisk } from './helpers/small-disk.js';

describe('appendWhole on a nearly full disk', () => {
  const disk = smallDisk();
  afterAll(() => ('unmount' in disk ? disk.unmount() : undefined));

  it.skipIf('skip' in disk)('a record that does not fit is a DiskError naming the file, and nothing of it stays', () => {
    if ('skip' in disk) return;
    const file = path.join(disk.dir, 'journal.jsonl');
    const fd = fs.openSync(file, 'a');
    appendWhole(fd, '{"n":1}\n', file);
    disk.fill(2048);
    const big = JSON.stringify({ n: 2, pad: 'x'.repeat(64 * 1024) }) + '\n';
    let err: unknown;
    try {
      appendWhole(fd, big, file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiskError);
    expect((err as DiskError).facts.code).toBe('DISK');
    expect((err as DiskError).message).toContain(file);
    expect((err as DiskError).message).toContain('ENOSPC');
    // The torn part was cut: the file holds the first record alone, and the next one lands whole.
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    disk.free();
    appendWhole(fd, '{"n":3}\n', file);
    fs.closeSync(fd);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });
});

describe('appendWholeAsync on a nearly full disk', () => {
  const disk = smallDisk();
  afterAll(() => ('unmount' in disk ? disk.unmount() : undefined));

  it.skipIf('skip' in disk)('a record the disk takes only part of is cut back, rejects with a DiskError, and the next one lands whole after space is freed', async () => {
    if ('skip' in disk) return;
    const file = path.join(disk.dir, 'journal.jsonl');
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND);
    await appendWholeAsync(fd, '{"n":1}\n', file, { sync: 'data' });
    // No page left: the record fits the rest of the file's page only in part (a short write).
    disk.fill(0);
    const big = JSON.stringify({ n: 2, pad: 'x'.repeat(3 * 4096) }) + '\n';
    const err = await appendWholeAsync(fd, big, file).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DiskError);
    expect((err as DiskError).facts.code).toBe('DISK');
    expect((err as DiskError).message).toBe(`Could not write ${file}: the disk is full (ENOSPC).`);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    disk.free();
    await appendWholeAsync(fd, '{"n":3}\n', file);
    fs.closeSync(fd);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });
});

describe('DiskError', () => {
  it('names the file, or says a file when the system gave no path', () => {
    expect(new DiskError('/x/y', 'EROFS').message).toBe('Could not write /x/y: the file system is read-only (EROFS).');
    expect(new DiskError('', 'EDQUOT').message).toBe('A file could not be written: the disk quota is used up (EDQUOT).');
    expect(new DiskError('/x/y', 'ENOSPC').withHint('run it again').hint).toBe('run it again');
  });
});

describe('cutTornTail', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-tail-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const withFile = (text: string, f: (fd: number) => number): [number, string] => {
    const file = path.join(dir, `f${Math.random()}`);
    fs.writeFileSync(file, text);
    const fd = fs.openSync(file, 'r+');
    const cut = f(fd);
    fs.closeSync(fd);
    return [cut, fs.readFileSync(file, 'utf8')];
  };

  it('cuts a partial last line and keeps every whole one', () => {
    expect(withFile('a\nb\n{"half', cutTornTail)).toEqual([6, 'a\nb\n']);
  });
  it('leaves a file that ends in a newline, or is empty, alone', () => {
    expect(withFile('a\nb\n', cutTornTail)).toEqual([0, 'a\nb\n']);
    expect(withFile('', cutTornTail)).toEqual([0, '']);
  });
  it('empties a file with no whole line at all, even one longer than its read chunk', () => {
    expect(withFile('x'.repeat(200_000), cutTornTail)).toEqual([200_000, '']);
  });
});
