// --since/--until, declared once for every command that reads a time range (report list, report
// sync, events, events tail): the only names a time range has (docs/flags.md); parseTimeRange
// (src/cli/date.ts) reads the type derived from here, so a flag removed here fails typecheck
// there. Loaded at start-up with the nouns' declarations: commander only.
import type { Command, OptionValues } from '@commander-js/extra-typings';

export interface RangeTexts {
  /** --since's help, in this command's words. */
  since: string;
  /** --until's help. */
  until: string;
}

export function rangeOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>, t: RangeTexts) {
  return c
    .option('--since <time>', t.since)
    .option('--until <time>', t.until);
}

/** The options rangeOptions gives a command. */
export type RangeFlags = ReturnType<ReturnType<typeof rangeOptions<[], {}, {}>>['opts']>;
