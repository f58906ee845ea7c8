// `--out-dir DIR` names the folder the report commands write into (declared in
// src/report/out-dir-options.ts). `--out` is a file everywhere (docs/flags.md).
import { UsageError } from '../core/errors.js';
import type { OutDirFlags } from './out-dir-options.js';

export interface OutDir {
  dir: string;
  /** How it was given, for messages: the flag, or `report sync`'s DIR argument. */
  flag: '--out-dir' | 'DIR';
}

/** The folder asked for (the flag, or `report sync DIR`), or undefined when neither was given. */
export function outDirOf(f: OutDirFlags, argument?: string): OutDir | undefined {
  const flag = argument !== undefined ? 'DIR' : '--out-dir';
  const dir = argument ?? f.outDir;
  if (dir === undefined) return undefined;
  if (dir === '') throw new UsageError(`${flag} is empty; give the folder the report files go into, such as ${flag === 'DIR' ? 'report sync reports' : '--out-dir reports'}.`);
  return { dir, flag };
}
