// The config directory holds API keys and journals: it is kept private (0700). Checked by every
// command that reads the config, not only by those that write it.
import fs from 'node:fs';
import os from 'node:os';
import { PRIVATE_DIR_MODE } from '../fs/safe-write.js';

/**
 * The config directory holds the keys, send journals and received events: only its owner may
 * list or enter it (0700). One created earlier with a wider mode (by hand, or by an older
 * mailctl) is tightened; when that fails, `warn` says so with the fix.
 */
export function keepPrivate(dir: string, warn: (message: string) => void, chmod: (dir: string, mode: number) => void = fs.chmodSync): void {
  if (os.platform() === 'win32') return; // no POSIX modes there
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st || (st.mode & 0o077) === 0) return;
  try {
    chmod(dir, PRIVATE_DIR_MODE);
  } catch (e) {
    const mode = (st.mode & 0o777).toString(8);
    warn(`The config directory ${dir} is open to other users (mode ${mode}) and could not be made private (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it holds your API keys. Run \`chmod 700 ${dir}\`.`);
  }
}

