// A tiny tmpfs for tests where a full disk is the point. Mounting needs root (CI runs as root);
// where it cannot mount, `smallDisk()` returns the reason and the test skips saying so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export interface SmallDisk {
  dir: string;
  /** Fills the disk with a ballast file, leaving about `leave` bytes free. */
  fill(leave: number): void;
  /** Frees the ballast. */
  free(): void;
  unmount(): void;
}

export function smallDisk(size = 256 * 1024): SmallDisk | { skip: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a small tmpfs here (${(r.stderr || r.error?.message || 'mount failed').trim()}); the full-disk case needs root` };
  }
  const ballast = path.join(dir, '.ballast');
  return {
    dir,
    fill(leave) {
      const free = fs.statfsSync(dir).bavail * fs.statfsSync(dir).bsize;
      fs.writeFileSync(ballast, Buffer.alloc(Math.max(0, free - leave)));
    },
    free() {
      fs.rmSync(ballast, { force: true });
    },
    unmount() {
      spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
