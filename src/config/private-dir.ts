// The config directory holds API keys and journals: it is kept private (0700), and the config
// file in it 0600. Checked by every command that reads the config, not only by those that write it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import { CONFIG_FILE_NAME } from './read.js';

/**
 * The config directory holds the keys, send journals and received events: only its owner may
 * list or enter it (0700). One created earlier with a wider mode (by hand, or by an older
 * mailctl) is tightened, and so is a config file in it that others may read (conf makes it 0600
 * only when it writes it); when that fails, `warn` says so with the fix.
 */
export function keepPrivate(dir: string, warn: (message: string) => void, chmod: (dir: string, mode: number) => void = fs.chmodSync, o: { dryRun?: boolean } = {}): void {
  if (os.platform() === 'win32') return; // no POSIX modes there
  // A dry run changes no file, not even a mode: it says what a real run would tighten.
  const change = o.dryRun ? dryRunChmod : chmod;
  tighten(dir, fs.statSync(dir, { throwIfNoEntry: false }), PRIVATE_DIR_MODE, 'config directory', warn, change);
  // lstat: a link there is not chmod-ed through (the writer refuses it: src/config/store.ts).
  const file = path.join(dir, CONFIG_FILE_NAME);
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st?.isFile()) tighten(file, st, PRIVATE_FILE_MODE, 'config file', warn, change);
}

function dryRunChmod(): void {
  throw Object.assign(new Error('a dry run changes nothing; any other run makes it private'), { code: 'dry run: left as it is' });
}

function tighten(p: string, st: fs.Stats | undefined, mode: number, what: string, warn: (message: string) => void, chmod: (p: string, mode: number) => void): void {
  if (!st || (st.mode & 0o077) === 0) return;
  try {
    chmod(p, mode);
  } catch (e) {
    const was = (st.mode & 0o777).toString(8);
    warn(`The ${what} ${p} is open to other users (mode ${was}) and could not be made private (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it holds your API keys. Run \`chmod ${mode.toString(8)} ${p}\`.`);
  }
}
