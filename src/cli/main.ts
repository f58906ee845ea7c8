// The whole CLI as a function: argv and streams in, exit code out. bin/mailctl.js is the only
// caller that touches the real process; tests call main() in-process. This is the one place
// where errors become messages and exit codes.
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Readable, Writable } from 'node:stream';
// Only types from the modules a command runs with: their values come from ./runtime.js, loaded
// (one chunk in the bundle) when an action runs or an error is reported, never for --help.
import type { IO } from './io.js';
import type { Context, Env, Globals, Tuning } from './context.js';
import type { Clock } from '../core/clock.js';
import type { Prompter } from './prompter.js';
import type { FetchLike } from '../api/http.js';
import type { DryRunRecorder } from '../api/recorder.js';
import { registerFor, VALUE_OPTIONS } from '../../commands/index.js';
import { DECLARED_GLOBALS, declares } from './write-flags.js';
import { HELP_TOPICS, ROOT_HELP } from './root-help.js';
import { version } from './version.js';
import { declareRoot } from './root-options.js';
import { refuseRepeats } from './repeats.js';
import type { OutputChoice } from '../output/choice.js';
import type { ActionFactory } from './declared.js';
import { sameCommand, suggest, type SuggestRun } from './suggest.js';

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
  /** Where a dry run records (the MCP server reads a planned run's requests from it; src/cli/context.ts). */
  recorder?: DryRunRecorder;
  /** Wraps the API clients' fetch in a real run (the MCP server's plan guard; src/cli/context.ts). */
  wrapApiFetch?: (fetch: FetchLike) => FetchLike;
}


export async function main(o: RunOptions): Promise<number> {
  const signal = o.signal ?? new AbortController().signal;
  let io: IO | undefined;
  // The words that run this command again (Context.commandLine); refined once the command is known.
  let commandLine = commandLineOf(o.argv, VALUE_OPTIONS);
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
    });

  const action: ActionFactory = (load) => async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as CommandUnknownOpts;
    const opts: Record<string, unknown> = { ...cmd.opts() };
    // The root holds every global flag wherever it was typed (src/cli/root-options.ts), typed
    // from its declaration.
    const g = program.opts();
    const globals: Globals = {
      profile: g.profile,
      json: !!g.json || g.query !== undefined || g.output === 'json',
      quiet: !!g.quiet,
      verbose: !!g.verbose,
      input: g.input !== false,
      sandbox: !!g.sandbox,
    };
    const { Context, systemClock, inquirerPrompter, chooseOutput, configDir, UsageError } = await import('./runtime.js');
    io = await makeIO(o, globals);
    // One output choice for the run (src/output/choice.ts), made before any request: a bad
    // --query or a --csv the command cannot print is exit 2 with nothing sent.
    const choice = await chooseOutput({
      flags: { json: g.json, csv: g.csv, output: g.output, query: g.query },
      takesCsv: declares(cmd, '--csv'), dryRun: !!program.getOptionValue('dryRun'),
      command: commandPath(cmd), profileFlag: g.profile, env: o.env, configDir: configDir(o.env),
    });
    globals.json = choice.format === 'json';
    io = await makeIO(o, globals, choice);
    // The root takes --dry-run and --yes wherever they appear; only a command that declares one
    // gets it (src/cli/write-flags.ts).
    for (const { key, flag, why } of DECLARED_GLOBALS) {
      if (!program.getOptionValue(key)) continue;
      if (!declares(cmd, flag)) {
        throw new UsageError(`\`${commandPath(cmd)}\` ${why}, so it takes no ${flag}.`, `See \`${suggest({ globals, env: o.env }, ...commandWords(cmd), '--help')}\` for its options.`);
      }
      opts[key] = true;
    }
    io.runKind = opts.dryRun === true ? 'dry-run' : declares(cmd, '--dry-run') ? 'write' : 'read';
    commandLine = commandLineOf(o.argv, new Set([...VALUE_OPTIONS, ...valueOptionsOf(cmd)]));
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
  const helpWord = helpWordOf(o.argv);
  if (helpWord !== undefined && Object.hasOwn(HELP_TOPICS, helpWord)) {
    const { helpTopic } = await import('./help-topics.js');
    o.stdout.write(helpTopic(helpWord as keyof typeof HELP_TOPICS));
    return 0;
  }
  registerFor(o.argv, program, action);
  if (helpWord !== undefined && !program.commands.some((c) => c.name() === helpWord || c.aliases().includes(helpWord))) {
    // Commander would show the top-level help and exit 0, as if the topic existed.
    o.stderr.write(`error: no command or help topic "${helpWord}".\nHelp topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: \`mailctl --help\`.\n`);
    return 2;
  }
  if (o.argv[0] === '__complete') {
    // Shell completion: candidates on stdout, one a line; never an error, never a request.
    const { completions } = await import('./complete.js');
    const words = o.argv.slice(o.argv[1] === '--' ? 2 : 1);
    const found = completions(program, words.length ? words : [''], o.env);
    if (found.length) o.stdout.write(`${found.join('\n')}\n`);
    return 0;
  }
  // Commander's own usage errors must not exit the process: make every subcommand throw.
  // After a usage error, show that command's usage line (not just "see --help"). A single-value
  // flag given twice is one of them (src/cli/repeats.ts).
  const run = runOfArgv(o.argv, o.env);
  const walk = (c: CommandUnknownOpts) => { c.exitOverride(); c.showHelpAfterError(usageHint(c, run)); refuseRepeats(c as never); c.commands.forEach(walk); };
  walk(program);

  try {
    await program.parseAsync(helpWord !== undefined ? helpAsFlag(program, o.argv) : o.argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError && COMMANDER_OK.has(e.code)) return 0; // help or version shown
    return reportError(e, io ?? (await makeIO(o, {})), signal, o.argv, o.env, commandLine);
  }
}

/**
 * argv less the flags suggest() puts back as the run chose them (--profile P, --sandbox): the
 * words of Context.commandLine. `valued` names the options that take the next word as their
 * value whatever it is (`--subject --sandbox` keeps its subject).
 */
function commandLineOf(argv: readonly string[], valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a === '--sandbox' || a.startsWith('--profile=')) continue;
    if (a === '--profile') {
      i++;
      continue;
    }
    out.push(a);
    if (valued.has(a) && i + 1 < argv.length) out.push(argv[++i]);
  }
  return out;
}

/** The flags of a command (and the nouns above it) whose value is required, so commander takes the next word as it is. */
function valueOptionsOf(c: CommandUnknownOpts): string[] {
  const out: string[] = [];
  for (let x: CommandUnknownOpts | null = c; x; x = x.parent) for (const opt of x.options) if (opt.required) out.push(...[opt.long, opt.short].filter((f): f is string => !!f));
  return out;
}

/** The word after `mailctl [global flags] help`, if any: a help topic or a command. */
function helpWordOf(argv: string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    if (argv[i] === '--') break;
    if (VALUE_OPTIONS.has(argv[i])) i++;
    else if (!argv[i].startsWith('-')) words.push(argv[i]);
  }
  return words[0] === 'help' ? words[1] : undefined;
}

/**
 * `mailctl [flags] help campaign create` → `[flags] campaign create --help`: commander's own
 * help command looks at one word only, and would show the noun's help for a verb.
 */
function helpAsFlag(program: CommandUnknownOpts, argv: string[]): string[] {
  let at = 0;
  while (argv[at] !== 'help') at += VALUE_OPTIONS.has(argv[at]) ? 2 : 1; // helpWordOf found it
  const words: string[] = [];
  let cmd = program;
  for (const w of argv.slice(at + 1)) {
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!sub) break;
    words.push(w);
    cmd = sub;
  }
  return [...argv.slice(0, at), ...words, '--help'];
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
 * The global flags a usage error's hint carries, read from argv (commander has not parsed them
 * when it refuses the line): --profile (or MAILCTL_PROFILE, which suggest() adds) and --sandbox.
 */
function runOfArgv(argv: string[], env: Env): SuggestRun {
  let profile: string | undefined;
  let sandbox = false;
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const a = argv[i];
    if (a === '--sandbox') sandbox = true;
    else if (a === '--profile' && i + 1 < argv.length) profile = argv[++i];
    else if (a.startsWith('--profile=')) profile = a.slice('--profile='.length);
    else if (VALUE_OPTIONS.has(a)) i++;
  }
  return { globals: { profile, sandbox }, env };
}

const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

async function makeIO(o: RunOptions, g: Partial<Globals>, choice: OutputChoice = {}): Promise<IO> {
  const { IO } = await import('./runtime.js');
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
  });
}

/** The longest line of an error message printed (service words in it are already cut shorter). */
const MAX_ERROR_LINE = 2000;

async function reportError(e: unknown, io: IO, signal: AbortSignal, argv: string[], env: Env, commandLine: readonly string[]): Promise<number> {
  const { CliError, ExitCode, SilentExit, InterruptedError, DiskError, isDiskProblem, errorJson, forTerminal, forTerminalLines } = await import('./runtime.js');
  if (e instanceof CommanderError) {
    // Commander already printed the message and the usage hint on stderr. A script that asked
    // for --json still gets its one document, even when parsing failed before globals existed.
    const flags = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
    const asksJson = flags.includes('--json') || flags.includes('--query') || flags.some((f, i) => f.startsWith('--query=') || f === '--output=json' || (f === '--output' && flags[i + 1] === 'json'));
    if (asksJson) io.printErrorJson({ error: { code: 'USAGE', message: e.message.replace(/^error: /, ''), exitCode: ExitCode.USAGE } });
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
  if (err instanceof DiskError && !err.hint) err = err.withHint(`Free some space on that disk, then run the command again: ${sameCommand({ ...runOfArgv(argv, env), commandLine })}`);
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
    if (io.json && !io.jsonWritten) io.printErrorJson({ error: errorJson(err) });
    if (err.message) io.error(`${lead}${io.paint('red', 'error:')} ${led(safe(err.message))}`);
    if (err.hint) io.error(lead + led(safe(err.hint)));
    return err.exitCode;
  }
  // A bug, not a user error: one line, no stack unless asked for.
  const msg = e instanceof Error ? e.message : String(e);
  if (io.json && !io.jsonWritten) io.printErrorJson({ error: { code: 'FAILED', message: `unexpected failure: ${msg}`, exitCode: ExitCode.FAILED } });
  io.error(`${lead}${io.paint('red', 'error:')} unexpected failure: ${forTerminal(msg, MAX_ERROR_LINE)}`);
  io.error('This is a bug in mailctl; rerun with MAILCTL_DEBUG=1 for details and report it.');
  if (env.MAILCTL_DEBUG && e instanceof Error && e.stack) io.error(forTerminalLines(e.stack, MAX_ERROR_LINE));
  return ExitCode.FAILED;
}
