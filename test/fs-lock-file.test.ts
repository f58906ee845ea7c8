// The one lock file (src/fs/lock-file.ts) that the rate budget, the --sandbox state, journals
// and report sync share: who may take it, when a lock left behind stops blocking, and that a
// holder only ever removes its own lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { until } from './helpers/wait.js';
import { lockHolder, takeLock } from '../src/fs/lock-file.js';
import { DiskError } from '../src/fs/append-whole.js';
import { smallDisk } from './helpers/small-disk.js';

const lockIn = () => path.join(tempDir('mailctl-lock-'), 'x.lock');
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('the lock file', () => {
  it('two holds in one process exclude each other (two commands run in one process are two runs)', () => {
    const lock = lockIn();
    const first = takeLock(lock, { about: { startedAt: '2026-11-25T10:00:00.000Z' } });
    expect(first).toBeDefined();
    expect(takeLock(lock)).toBeUndefined();
    expect(lockHolder(lock)).toMatchObject({ pid: process.pid, host: os.hostname(), startedAt: '2026-11-25T10:00:00.000Z' });
    first!.release();
    expect(fs.existsSync(lock)).toBe(false);
    const second = takeLock(lock);
    expect(second).toBeDefined();
    second!.release();
  });

  it('a lock naming this pid but another process (the pid was reused since) is taken over', () => {
    const lock = lockIn();
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'earlier.1' }));
    const held = takeLock(lock, { staleMs: 3_600_000 });
    expect(held).toBeDefined();
    held!.release();
  });

  it('a lock whose process is gone never blocks; a live one blocks until it is older than staleMs', () => {
    const lock = lockIn();
    fs.writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: os.hostname(), token: 'gone.1' }));
    takeLock(lock, { staleMs: 3_600_000 })!.release();

    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'live.1' }));
    expect(takeLock(lock, { staleMs: 60_000 })).toBeUndefined();
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lock, old, old);
    expect(takeLock(lock, { staleMs: 60_000 })).toBeDefined();
  });

  it("a holder whose lock was taken over as stale does not remove the new holder's lock", () => {
    const lock = lockIn();
    const first = takeLock(lock, { staleMs: 60_000 })!;
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lock, old, old); // the first holder hung
    const second = takeLock(lock, { staleMs: 60_000 });
    expect(second).toBeDefined();
    first.release();
    expect(fs.existsSync(lock)).toBe(true);
    expect(takeLock(lock, { staleMs: 60_000 })).toBeUndefined();
    second!.release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a held lock is kept fresh, so a long run is never taken for a hung one', async () => {
    const lock = lockIn();
    const held = takeLock(lock, { staleMs: 60_000, heartbeatMs: 20 })!;
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lock, old, old);
    await until('the holder touching its lock', () => Date.now() - fs.statSync(lock).mtimeMs < 60_000, 5_000);
    expect(takeLock(lock, { staleMs: 60_000 })).toBeUndefined();
    held.release();
  });
});

describe('a lock on a full disk', () => {
  const disk = smallDisk();
  afterAll(() => ('unmount' in disk ? disk.unmount() : undefined));

  it.skipIf('skip' in disk)('is a DiskError naming the lock, and no empty lock is left to block the next taker', () => {
    if ('skip' in disk) return;
    const lock = path.join(disk.dir, 'x.lock');
    disk.fill(0);
    let err: unknown;
    try {
      takeLock(lock);
    } catch (e) {
      err = e;
    } finally {
      disk.free();
    }
    expect(err).toBeInstanceOf(DiskError);
    expect((err as DiskError).message).toBe(`Could not write ${lock}: the disk is full (ENOSPC).`);
    expect(fs.existsSync(lock)).toBe(false);
    const held = takeLock(lock, { staleMs: 3_600_000 });
    expect(held).toBeDefined();
    held!.release();
  });
});
