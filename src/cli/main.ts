// The whole CLI as a function: argv and streams in, exit code out. bin/mailctl.js is the only
// caller that touches the real process; tests call main() in-process. This is the one place
// where errors become messages and exit codes. The nouns are handed in (commands/main.ts binds
// mailctl's table, commands/nouns.ts), so this layer imports nothing of the commands above it.
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Readable, Writable } from 'node:stream';
// Only types from the modules a command runs with: their values come from ./runtime.js, loaded
// (one chunk in the bundle) when an action runs or an error is reported, never for --help.
import type { ErrorOutput, IO } from '../run/io.js';
import type { Context, Env, Globals, Tuning } from '../run/context.js';
import type { Clock } from '../core/clock.js';
import type { Prompter } from '../run/prompter.js';
import type { FetchLike } from '../api/http.js';
import type { DryRunRecorder } from '../api/recorder.js';
import { commandLineOf, GLOBAL_VALUE_OPTIONS, scanArgv, type ArgvScan } from './argv-scan.js';
import { DECLARED_GLOBALS, declares } from '../run/write-flags.js';
import { HELP_TOPICS, ROOT_HELP } from './root-help.js';
import { version } from '../core/version.js';
import { declareRoot } from '../run/root-options.js';
import { refuseRepeats } from './repeats.js';
import type { OutputChoice } from '../run/output/choice.js';
import type * as Runtime from './runtime.js';
import type { ActionFactory } from './declared.js';
import { sameCommand, suggest, type SuggestRun } from '../core/suggest.js';

/**
 * Registers the nouns on the program: the one the scanned line runs in full, the others as
 * one-line entries (commands/nouns.ts registerFor, which loads the one noun's registration).
 */
export type RegisterNouns = (scan: Pick<ArgvScan, 'noun' | 'complete'>, program: CommandUnknownOpts, action: ActionFactory) => void | Promise<void>;

export interface RunOptions {
  argv: string[];
  env: Env;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  signal?: AbortSignal;
  clock?: Clock;
  prompter?: Prompter;
  fetch?: FetchLike;
  tuning?: Partial<Tuning>;
  /** Where a dry run records (the MCP server reads a planned run's requests from it; src/run/context.ts). */
  recorder?: DryRunRecorder;
  /** Wraps the API clients' fetch in a real run (the MCP server's plan guard; src/run/context.ts). */
  wrapApiFetch?: (fetch: FetchLike) => FetchLike;
}


export async function main(o: RunOptions, registerFor: RegisterNouns): Promise<number> {
  const signal = o.signal ?? new AbortController().signal;
  // argv read once, before commander: the noun to register, help, completion, and what an
  // early error's hint and --json document need (src/cli/argv-scan.ts).
  const scan = scanArgv(o.argv);
  // Built once, when the action knows the output choice; an error before then is printed
  // through errorOutput() (reportError).
  let io: IO | undefined;
  // The words that run this command again (Context.commandLine), once the command is known.
  let commandLine: string[] | undefined;
  const program = declareRoot(
    new Command('mailctl')
      .description('Drive the campaign and notification email services from the terminal.')
      .version(version(), '--version', 'print the version'),
  )
    .addHelpText('after', ROOT_HELP)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => o.stdout.write(s),
      writeErr: (s) => o.stderr.write(s),
      outputError: (s, write) => write(s),
      // Laid out for the run's own streams. Commander would read process.stdout's: a terminal's
      // width where main() writes elsewhere (tests, the MCP server, the build rendering the help
      // screens), and creating that stream on every help screen (~2.5 ms).
      getOutHelpWidth: () => widthOf(o.stdoutTTY, o.stdout),
      getErrHelpWidth: () => widthOf(o.stderrTTY, o.stderr),
      getOutHasColors: () => hasColors(o.env, o.stdoutTTY, o.stdout),
      getErrHasColors: () => hasColors(o.env, o.stderrTTY, o.stderr),
    });

  const action: ActionFactory = (load) => async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as CommandUnknownOpts;
    const opts: Record<string, unknown> = { ...cmd.opts() };
    // The root holds every global flag wherever it was typed (src/run/root-options.ts), typed
    // from its declaration.
    const g = program.opts();
    const runtime = await import('./runtime.js');
    const { Context, systemClock, inquirerPrompter, chooseOutput, configDir, UsageError } = runtime;
    // One output choice for the run (src/run/output/choice.ts), made before any request: a bad
    // --query or a --csv the command cannot print is exit 2 with nothing sent (reported
    // before the IO exists, as JSON when the line asked for it).
    const choice = await chooseOutput({
      flags: { json: g.json, csv: g.csv, output: g.output, query: g.query },
      takesCsv: declares(cmd, '--csv'), dryRun: !!program.getOptionValue('dryRun'),
      command: commandPath(cmd), profileFlag: g.profile, env: o.env, configDir: configDir(o.env),
    });
    const globals: Globals = {
      profile: g.profile,
      json: choice.format === 'json',
      quiet: !!g.quiet,
      verbose: !!g.verbose,
      input: g.input !== false,
      sandbox: !!g.sandbox,
    };
    io = makeIO(runtime, o, globals, choice);
    // The root takes --dry-run and --yes wherever they appear; only a command that declares one
    // gets it (src/run/write-flags.ts).
    for (const { key, flag, why } of DECLARED_GLOBALS) {
      if (!program.getOptionValue(key)) continue;
      if (!declares(cmd, flag)) {
        throw new UsageError(`\`${commandPath(cmd)}\` ${why}, so it takes no ${flag}.`, `See \`${suggest({ globals, env: o.env }, ...commandWords(cmd), '--help')}\` for its options.`);
      }
      opts[key] = true;
    }
    io.runKind = opts.dryRun === true ? 'dry-run' : declares(cmd, '--dry-run') ? 'write' : 'read';
    commandLine = commandLineOf(o.argv, new Set([...GLOBAL_VALUE_OPTIONS, ...valueOptionsOf(cmd)]));
    const ctx = new Context({
      io, env: o.env, globals, clock: o.clock ?? systemClock, signal,
      prompter: o.prompter ?? inquirerPrompter(() => o.stdin, o.stderr),
      fetch: o.fetch, tuning: o.tuning, dryRun: opts.dryRun === true, commandLine,
      recorder: o.recorder, wrapApiFetch: o.wrapApiFetch,
    });
    const { run } = await load();
    // Commander hands the declared arguments, then the options, in the order their types
    // (src/cli/declared.ts) say; the options here also carry the root's --dry-run/--yes.
    await (run as (ctx: Context, ...rest: unknown[]) => Promise<void>)(ctx, opts, ...args.slice(0, -2));
  };

  // `mailctl help environment`, `mailctl help exit-codes`: topics, not commands.
  const { help } = scan;
  if (help && Object.hasOwn(HELP_TOPICS, help.word)) {
    const { helpTopic } = await import('./help-topics.js');
    o.stdout.write(helpTopic(help.word as keyof typeof HELP_TOPICS));
    return 0;
  }
  await registerFor(scan, program, action);
  if (help && !subcommand(program, help.word)) {
    // Commander would show the top-level help and exit 0, as if the topic existed.
    o.stderr.write(`error: no command or help topic "${help.word}".\nHelp topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: \`mailctl --help\`.\n`);
    return 2;
  }
  if (scan.complete) {
    // Shell completion: candidates on stdout, one a line; never an error, never a request.
    const { completions } = await import('./complete.js');
    const found = completions(program, scan.complete, o.env);
    if (found.length) o.stdout.write(`${found.join('\n')}\n`);
    return 0;
  }
  // Commander's own usage errors must not exit the process: make every subcommand throw.
  // After a usage error, show that command's usage line (not just "see --help"). A single-value
  // flag given twice is one of them (src/cli/repeats.ts).
  const run = runOf(scan, o.env);
  const walk = (c: CommandUnknownOpts) => { c.exitOverride(); c.showHelpAfterError(usageHint(c, run)); refuseRepeats(c as never); c.commands.forEach(walk); };
  walk(program);

  try {
    await program.parseAsync(help ? helpAsFlag(program, help) : o.argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError && COMMANDER_OK.has(e.code)) return 0; // help or version shown
    const runtime = await import('./runtime.js');
    return reportError(runtime, e, io ?? runtime.errorOutput(o, scan.asksJson), signal, run, commandLine ?? commandLineOf(o.argv));
  }
}

/** The flags of a command (and the nouns above it) whose value is required, so commander takes the next word as it is. */
function valueOptionsOf(c: CommandUnknownOpts): string[] {
  const out: string[] = [];
  for (let x: CommandUnknownOpts | null = c; x; x = x.parent) for (const opt of x.options) if (opt.required) out.push(...[opt.long, opt.short].filter((f): f is string => !!f));
  return out;
}

/** The subcommand of `cmd` of that name or alias. */
function subcommand(cmd: CommandUnknownOpts, word: string): CommandUnknownOpts | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/**
 * `mailctl [flags] help campaign create` → `[flags] campaign create --help`: commander's own
 * help command looks at one word only, and would show the noun's help for a verb. The words
 * after `help` are taken while they name a command, one level down each.
 */
function helpAsFlag(program: CommandUnknownOpts, help: NonNullable<ArgvScan['help']>): string[] {
  const words: string[] = [];
  let cmd = program;
  for (const w of help.after) {
    const sub = subcommand(cmd, w);
    if (!sub) break;
    words.push(w);
    cmd = sub;
  }
  return [...help.before, ...words, '--help'];
}

function commandPath(c: CommandUnknownOpts): string {
  return ['mailctl', ...commandWords(c)].join(' ');
}

/** The words after `mailctl` that name a command: `campaign create`. */
function commandWords(c: CommandUnknownOpts): string[] {
  const names: string[] = [];
  for (let x: CommandUnknownOpts | null = c; x?.parent; x = x.parent) names.unshift(x.name());
  return names;
}

function usageHint(c: CommandUnknownOpts, run: SuggestRun): string {
  return `Usage: ${commandPath(c)} ${c.usage()}\n(run \`${suggest(run, ...commandWords(c), '--help')}\` for details)`;
}

/**
 * The global flags a usage error's hint carries, as argv gave them (commander has not parsed
 * them when it refuses the line): --profile (or MAILCTL_PROFILE, which suggest() adds) and --sandbox.
 */
function runOf(scan: ArgvScan, env: Env): SuggestRun {
  return { globals: { profile: scan.profile, sandbox: scan.sandbox }, env };
}

/**
 * A terminal's width, as commander reads one; undefined for anything else, which commander takes
 * as 80 columns (its own default gives undefined too; its type says number).
 */
function widthOf(tty: boolean | undefined, stream: Writable): number {
  return (tty ? (stream as { columns?: number }).columns : undefined) as number;
}

/** Whether commander keeps colour in what it prints: its own rule (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, else a terminal that has colours), read from the run's env. */
function hasColors(env: Env, tty: boolean | undefined, stream: Writable): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return !!tty && !!(stream as { hasColors?: () => boolean }).hasColors?.();
}

const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** The run's one IO, for its output choice. */
function makeIO({ IO, systemClock }: typeof Runtime, o: RunOptions, g: Globals, choice: OutputChoice): IO {
  // Times shown relative to now ("3 hours ago") use the run's clock, as everything else does.
  const clock = o.clock ?? systemClock;
  return new IO({
    get stdin() {
      return o.stdin;
    },
    get stdinTTY() {
      return !!o.stdinTTY;
    },
    get stdout() {
      return o.stdout;
    },
    get stderr() {
      return o.stderr;
    },
    get stdoutTTY() {
      return !!o.stdoutTTY;
    },
    get stderrTTY() {
      return !!o.stderrTTY;
    },
    env: o.env, json: g.json, output: choice.format, query: choice.query, quiet: g.quiet, noInput: g.input === false,
    now: () => clock.now(),
  });
}

/** The longest line of an error message printed (service words in it are already cut shorter). */
const MAX_ERROR_LINE = 2000;

/**
 * Prints an error as its message (and hint) on stderr, or the {"error": …} document, through
 * the run's IO or, before it exists, errorOutput() — which for a usage error commander found
 * means argv asked for JSON: a script that did still gets its one document, even when parsing
 * failed before globals existed.
 */
async function reportError(runtime: typeof Runtime, e: unknown, io: ErrorOutput, signal: AbortSignal, run: SuggestRun, commandLine: readonly string[]): Promise<number> {
  const { CliError, ExitCode, SilentExit, InterruptedError, DiskError, isDiskProblem, errorJson, errorWords, forTerminal, forTerminalLines } = runtime;
  if (e instanceof CommanderError) {
    // Commander already printed the message and the usage hint on stderr.
    if (io.json && !io.jsonWritten) io.printErrorJson({ error: { code: 'USAGE', message: e.message.replace(/^error: /, ''), exitCode: ExitCode.USAGE } });
    return ExitCode.USAGE;
  }
  if (e instanceof SilentExit) return e.exitCode;
  let err = e instanceof CliError ? e : undefined;
  // A full disk is never "a bug in mailctl": an errno the disk caused that no command turned
  // into its own DiskError still names the disk problem and the path the system gave.
  if (!err && isDiskProblem(e)) err = new DiskError(String((e as NodeJS.ErrnoException).path ?? (e as { dest?: string }).dest ?? ''), e.code!);
  // Without a hint of its own (the command that resumes the work), the disk error's hint is this
  // same command line, to run once there is room: the commands whose work would not be safe to
  // redo from the start give their own.
  if (err instanceof DiskError && !err.hint) err = err.withHint(`${err.fix}, then run the command again: ${sameCommand({ ...run, commandLine })}`);
  if (!err && (signal.aborted || (e as Error)?.name === 'AbortError')) err = new InterruptedError();
  // Messages carry words from services and files: printed only through the sanitiser (each
  // line kept, control characters shown, a runaway line cut). --json keeps the service's own
  // words exact in serviceMessage (JSON escapes them).
  const safe = (s: string) => forTerminalLines(s, MAX_ERROR_LINE);
  // A command that writes a log (report sync) puts its date before every line, the message's
  // later lines and the hint's included.
  const lead = io.errorLead?.() ?? '';
  const led = (s: string) => s.replace(/\n/g, `\n${lead}`);
  if (err) {
    // An API error's sentence and hint are made here, for this run (src/cli/error-text.ts).
    const words = errorWords(err, run);
    if (io.json && !io.jsonWritten) io.printErrorJson({ error: errorJson(err, words) });
    if (words.message) io.error(`${lead}${io.paint('red', 'error:')} ${led(safe(words.message))}`);
    if (words.hint) io.error(lead + led(safe(words.hint)));
    return err.exitCode;
  }
  // A bug, not a user error: one line, no stack unless asked for.
  const msg = e instanceof Error ? e.message : String(e);
  if (io.json && !io.jsonWritten) io.printErrorJson({ error: { code: 'FAILED', message: `unexpected failure: ${msg}`, exitCode: ExitCode.FAILED } });
  io.error(`${lead}${io.paint('red', 'error:')} unexpected failure: ${forTerminal(msg, MAX_ERROR_LINE)}`);
  io.error('This is a bug in mailctl; rerun with MAILCTL_DEBUG=1 for details and report it.');
  if (run.env.MAILCTL_DEBUG && e instanceof Error && e.stack) io.error(forTerminalLines(e.stack, MAX_ERROR_LINE));
  return ExitCode.FAILED;
}
