// --out-dir DIR, declared once for the report commands that write into a folder (export, links,
// sync); outDirOf (src/report/out-dir.ts) reads the type derived from here, so a flag removed here
// fails typecheck there. `--out` is a file in every command (docs/flags.md), never a folder.
// Loaded at start-up with the nouns' declarations: commander only.
import type { Command, OptionValues } from '@commander-js/extra-typings';

export function outDirOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>, description: string) {
  return c.option('--out-dir <dir>', description);
}

/** The options outDirOptions gives a command. */
export type OutDirFlags = ReturnType<ReturnType<typeof outDirOptions<[], {}, {}>>['opts']>;
