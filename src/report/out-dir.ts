// `--out-dir DIR` names the folder the report commands write into (declared in
// src/report/out-dir-options.ts). `--out` is a file everywhere (docs/flags.md).
import { UsageError } from '../core/errors.js';
import type { OutDirFlags } from './out-dir-options.js';

export interface OutDir {
  dir: string;
  /** The flag, for messages. */
  flag: '--out-dir';
}

/** The folder asked for, or undefined when --out-dir was not given. */
export function outDirOf(f: OutDirFlags): OutDir | undefined {
  const dir = f.outDir;
  if (dir === undefined) return undefined;
  if (dir === '') throw new UsageError('--out-dir is empty; give the folder the report files go into, such as --out-dir reports.');
  return { dir, flag: '--out-dir' };
}
