// --since/--until, declared once for every command that reads a time range (report list, report
// sync, events, events tail): the only names a time range has (docs/flags.md). parseTimeRange
// (src/core/date.ts) reads RangeFlags; the check at the end holds the options declared here to
// exactly that shape, so a flag removed or renamed here fails typecheck. Loaded at start-up with
// the nouns' declarations: commander only.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { RangeFlags } from '../core/date.js';

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
type Declared = ReturnType<ReturnType<typeof rangeOptions<[], {}, {}>>['opts']>;

/** True only when A and B hold the same keys with the same types. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while the declaration and parseTimeRange's RangeFlags agree: a flag renamed here fails typecheck. */
export type DeclaredIsRangeFlags = Assert<Same<Required<Declared>, Required<RangeFlags>>>;
