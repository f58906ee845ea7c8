// `--out-dir DIR` names the folder the report commands write into. `--out` is a file everywhere
// else (template show, webhook listen), so it is no longer the documented name here (issue 12.4);
// it stays as a hidden old spelling because crontabs and scripts use `report sync --out DIR`.
// Both are declared in src/report/out-dir-options.ts.
import { UsageError } from '../core/errors.js';
import type { OutDirFlags } from './out-dir-options.js';


export interface OutDir {
  dir: string;
  /** The flag as the user typed it, for messages. */
  flag: '--out-dir' | '--out';
}

/** The folder asked for (and the spelling used), or undefined when neither flag was given. */
export function outDirOf(f: OutDirFlags): OutDir | undefined {
  if (f.outDir !== undefined && f.out !== undefined) throw new UsageError('--out is the old spelling of --out-dir; give one of them.');
  const [dir, flag] = f.outDir !== undefined ? [f.outDir, '--out-dir' as const] : [f.out, '--out' as const];
  if (dir === undefined) return undefined;
  if (dir === '') throw new UsageError(`${flag} is empty; give the folder the report files go into, such as ${flag} reports.`);
  return { dir, flag };
}
