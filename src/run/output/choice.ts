// Which output a run prints, decided once before the command runs (src/cli/main.ts):
//   flags (--json, --csv, --output FORMAT, --query EXPR) > the profile's `output` setting >
//   auto (a table on a terminal, TSV when piped).
// Conflicting flags and a --query that does not parse are usage errors (exit 2) raised here,
// before the command has made any request. --csv is for commands that print a list or a record
// (they declare --csv themselves); others refuse the flag rather than ignore it, and the
// setting `output csv` falls back to auto for them.
import { UsageError } from '../../core/errors.js';
import type { Env } from '../context.js';
import { readConfig } from '../../config/read.js';
import { profileNameFor } from '../../config/settings.js';

import { OUTPUT_FORMATS, type OutputFormat } from '../../core/output-formats.js';
import type { RootOpts } from '../root-options.js';

/** The root's output flags, typed from its declaration (src/run/root-options.ts). */
export type OutputFlags = Pick<RootOpts, 'json' | 'csv' | 'output' | 'query'>;

export interface OutputChoice {
  format?: OutputFormat;
  /** The compiled --query: the one JSON document in, what to print out. */
  query?: CompiledQuery;
}

/** What a --query made of the document, or why it could not be applied to it. */
export type QueryResult = { applied: true; value: unknown } | { applied: false; reason: string };

export interface CompiledQuery {
  /** The expression as typed, for messages. */
  expr: string;
  apply(value: unknown): QueryResult;
}

export interface ChoiceInput {
  flags: OutputFlags;
  /** The command prints a list or a record (it declares --csv). */
  takesCsv: boolean;
  dryRun: boolean;
  /** `mailctl groups list`, for messages. */
  command: string;
  profileFlag?: string;
  env: Env;
  configDir: string;
}

/** The format the flags alone ask for, or a UsageError when they disagree. */
export function flagFormat(f: OutputFlags): OutputFormat | undefined {
  const asked: Array<[string, OutputFormat]> = [];
  if (f.json) asked.push(['--json', 'json']);
  if (f.csv) asked.push(['--csv', 'csv']);
  if (f.output !== undefined && f.output !== 'auto') asked.push([`--output ${f.output}`, f.output as OutputFormat]);
  // --query filters the one JSON document, so it asks for JSON.
  if (f.query !== undefined) asked.push(['--query', 'json']);
  const formats = new Set(asked.map(([, fmt]) => fmt));
  if (formats.size > 1) {
    const names = asked.map(([flag]) => flag);
    throw new UsageError(`${names.join(' and ')} ask for different outputs; choose one.`, f.query !== undefined ? '--query filters the JSON document (it implies --json).' : undefined);
  }
  return asked[0]?.[1];
}

export async function chooseOutput(i: ChoiceInput): Promise<OutputChoice> {
  let format = flagFormat(i.flags);
  if (format === 'csv' && !i.takesCsv) {
    throw new UsageError(`\`${i.command}\` prints no list or record, so it takes no ${i.flags.csv ? '--csv' : '--output csv'}.`, 'Use --json for a document a script can read.');
  }
  if (format === 'csv' && i.dryRun) {
    throw new UsageError('A dry run prints the requests it would send, not a list, so it takes no --csv.', 'Drop --csv, or use --json for the requests as one document.');
  }
  if (format === undefined && i.flags.output !== 'auto') format = await settingFormat(i);
  const query = i.flags.query === undefined ? undefined : await compileQuery(i.flags.query);
  return { format, query };
}

/** The profile's `output` setting, when it applies to this command; unreadable config = auto. */
async function settingFormat(i: ChoiceInput): Promise<OutputFormat | undefined> {
  let value: unknown;
  try {
    const store = readConfig(i.configDir);
    value = store.getProfile(profileNameFor(i.profileFlag, i.env, store))?.output;
  } catch {
    // A broken config file or profile name is reported by the command that needs it (with its
    // own exit code), not by the output choice: `config` commands must still run to fix it.
    return undefined;
  }
  if (value === 'csv' && (!i.takesCsv || i.dryRun)) return undefined;
  return (OUTPUT_FORMATS as readonly unknown[]).includes(value) && value !== 'auto' ? (value as OutputFormat) : undefined;
}

/**
 * --query EXPR: a JMESPath expression (as in the AWS CLI), compiled now so a typo is exit 2
 * before anything is sent. The library loads only when --query is given.
 *
 * A query that parses can still fail on the result (`abs(@)` on a record: a type error). By then
 * the command has finished — a write has been sent — so that is no usage error: apply() says why,
 * and the caller prints the whole document instead (src/run/io.ts printJson), keeping the exit
 * code the command earned.
 */
export async function compileQuery(expr: string): Promise<CompiledQuery> {
  const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(expr);
  } catch (e) {
    throw new UsageError(`--query "${expr}" is not a JMESPath expression: ${(e as Error).message}.`, 'See https://jmespath.org for the syntax; quote the expression for your shell.');
  }
  return {
    expr,
    apply(value) {
      // The document as JSON would carry it (no undefined members), which is what the query reads.
      const data = JSON.parse(JSON.stringify(value) ?? 'null');
      try {
        return { applied: true, value: TreeInterpreter.search(ast, data) };
      } catch (e) {
        return { applied: false, reason: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
