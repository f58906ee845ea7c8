// The root's options, declared once: `mailctl --help` lists them, and their types (RootOpts, and
// the output flags src/run/output/choice.ts reads) come from this declaration, so a global flag that
// is removed or renamed here fails typecheck where it is read (src/cli/main.ts). Commander gives
// a root option precedence wherever it appears on the line, so the root holds every value.
// Loaded at every start-up: commander and the output format names only.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { OUTPUT_FORMATS } from '../core/output-formats.js';

export function declareRoot<A extends unknown[], O extends OptionValues, G extends OptionValues>(program: Command<A, O, G>) {
  return program
    .addOption(new Option('--profile <name>', 'use this config profile (env: MAILCTL_PROFILE)'))
    .option('--json', 'print one JSON document on stdout and nothing else')
    .option('--csv', 'lists and records: print CSV with a header row, for spreadsheets')
    .addOption(new Option('--output <format>', 'lists and records: table, tsv, json, csv, or auto (a table on a terminal, TSV piped; default: the profile\'s output setting)').choices(OUTPUT_FORMATS))
    .option('--query <expr>', 'print only what this JMESPath expression selects of the JSON document (implies --json)')
    .option('-q, --quiet', 'print only data and errors')
    .option('-v, --verbose', 'trace each request on stderr (key masked)')
    .option('--no-input', 'never prompt; fail with the flag that is missing instead')
    .option('--sandbox', 'use the built-in sandbox instead of the real services (no account needed)')
    .option('--dry-run', 'writes: show what would be sent or changed, and do nothing (here or after the verb)')
    .option('-y, --yes', 'destructive commands: do not ask for confirmation (here or after the verb)');
}

/** The root's option values, as commander hands them over. */
export type RootOpts = ReturnType<ReturnType<typeof declareRoot<[], {}, {}>>['opts']>;
