// --out-dir DIR and its old spelling --out (hidden), declared once for the report commands that
// write into a folder (export, links, sync); outDirOf (src/report/out-dir.ts) reads the type
// derived from here, so a flag removed here fails typecheck there. Loaded at start-up with the
// nouns' declarations: commander only.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';

export function outDirOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>, description: string) {
  return c
    .option('--out-dir <dir>', description)
    // --out is a file in every other command; here it was the old name of --out-dir (issue 12.4).
    .addOption(new Option('--out <dir>', 'old spelling of --out-dir').hideHelp());
}

/** The options outDirOptions gives a command. */
export type OutDirFlags = ReturnType<ReturnType<typeof outDirOptions<[], {}, {}>>['opts']>;
