// What a folder holds, to prove a command changed nothing in it: every entry's name, size,
// mtime and a hash of its bytes, and the folder's own mtime (which moves when an entry is
// created or removed, even one removed again, like a lock file).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function snapshot(dir: string): unknown {
  return {
    dir: fs.statSync(dir).mtimeMs,
    files: fs.readdirSync(dir).sort().map((n) => {
      const f = path.join(dir, n);
      const st = fs.statSync(f);
      return { n, size: st.size, m: st.mtimeMs, h: crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex') };
    }),
  };
}
