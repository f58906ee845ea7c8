// --since/--until and their old spellings --from/--to (hidden), declared once for every command
// that reads a time range (report list, report sync, events, events tail); parseTimeRange
// (src/cli/date.ts) reads the type derived from here, so a flag removed here fails typecheck
// there. Loaded at start-up with the nouns' declarations: commander only.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';

export interface RangeTexts {
  /** --since's help, in this command's words. */
  since: string;
  /** --until's help. */
  until: string;
}

export function rangeOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>, t: RangeTexts) {
  return c
    .option('--since <time>', t.since)
    .option('--until <time>', t.until)
    .addOption(new Option('--from <time>', 'old spelling of --since').hideHelp())
    .addOption(new Option('--to <time>', 'old spelling of --until').hideHelp());
}

/** The options rangeOptions gives a command. */
export type RangeFlags = ReturnType<ReturnType<typeof rangeOptions<[], {}, {}>>['opts']>;
