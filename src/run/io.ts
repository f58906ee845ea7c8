// One IO object per run: where data (stdout) and chatter (stderr) go, whether each is a
// terminal, and whether we may prompt or animate. Commands get it through the Context;
// main.ts builds it once the run's output choice is made. An error found before that (a usage
// error commander refused, a bad --query) is printed through errorOutput(): the same lines on
// the same streams, without an IO.
import type { Readable, Writable } from 'node:stream';
import { forTerminal, safeJson } from '../core/sanitize.js';
import { isTruthy } from '../core/env.js';
import type { OutputFormat } from '../core/output-formats.js';
import type { CompiledQuery } from './output/choice.js';
import { zoneOf } from './output/time.js';

export interface Spinner {
  text(message: string): void;
  succeed(message?: string): void;
  fail(message?: string): void;
  stop(): void;
}

export interface IOOptions {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  stdinTTY: boolean;
  env: Record<string, string | undefined>;
  /** How lists and records print (src/run/output/choice.ts); unset: table on a terminal, TSV piped. */
  output?: OutputFormat;
  /** Same as output: 'json'. */
  json?: boolean;
  /** The compiled --query, applied to the JSON document of data (never to an error). */
  query?: CompiledQuery;
  quiet?: boolean;
  noInput?: boolean;
  /** The run's clock, for times shown relative to now ("3 hours ago"). */
  now?: () => number;
}

/** What printing an error needs of a run's output (main.ts reportError): the run's IO, or errorOutput() before there is one. */
export interface ErrorOutput {
  /** The line asked for one JSON document: the error is one too. */
  readonly json: boolean;
  /** That document is out already: no second one. */
  readonly jsonWritten: boolean;
  errorLead?: () => string;
  error(line: string): void;
  printErrorJson(value: unknown): void;
  paint(style: Style, text: string): string;
}

export type Style = 'red' | 'green' | 'yellow' | 'dim' | 'bold' | 'cyan';

/** Colour only for a person reading stderr on a terminal that shows it (NO_COLOR, TERM=dumb: none). */
function colorOn(stderrTTY: boolean, env: Record<string, string | undefined>): boolean {
  return stderrTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

function paintText(color: boolean, style: Style, text: string): string {
  if (!color) return text;
  const codes: Record<Style, [number, number]> = {
    red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22],
  };
  const [a, b] = codes[style];
  return `\u001b[${a}m${text}\u001b[${b}m`;
}

/**
 * Where an error goes before the run's IO exists: stderr, painted as the IO would, and the
 * {"error": …} document on stdout when the command line asked for JSON (src/cli/argv-scan.ts).
 */
export function errorOutput(o: Pick<IOOptions, 'stdout' | 'stderr' | 'env'> & { stderrTTY?: boolean }, json: boolean): ErrorOutput {
  const color = colorOn(!!o.stderrTTY, o.env);
  const out = {
    json,
    jsonWritten: false,
    error: (line: string) => void o.stderr.write(line + '\n'),
    printErrorJson: (value: unknown) => {
      out.jsonWritten = true;
      o.stdout.write(safeJson(value, 2) + '\n');
    },
    paint: (style: Style, text: string) => paintText(color, style, text),
  };
  return out;
}

export class IO implements ErrorOutput {
  /** table · tsv · json · csv: flags, else the profile's setting, else by the terminal. */
  readonly output: OutputFormat;
  readonly json: boolean;
  readonly quiet: boolean;
  /** CI or --no-input: never ask. */
  readonly nonInteractive: boolean;

  constructor(o: IOOptions) {
    this.src = o;
    this.output = o.output ?? (o.json ? 'json' : o.stdoutTTY ? 'table' : 'tsv');
    this.json = this.output === 'json';
    this.quiet = !!o.quiet;
    const ci = isTruthy(o.env.CI);
    this.nonInteractive = ci || !!o.noInput;
    this.ci = ci;
  }

  private readonly ci: boolean;
  private readonly src: IOOptions;

  // The streams are read through the options on demand: creating process.stdin or stderr
  // loads net/tty and streams, a cost every start-up would pay though few runs use them.
  get stdout(): Writable {
    return this.src.stdout;
  }

  get stderr(): Writable {
    return this.src.stderr;
  }

  /** stdout is a terminal: tables and relative dates instead of TSV. */
  get isTTY(): boolean {
    return this.src.stdoutTTY;
  }

  get stderrTTY(): boolean {
    return this.src.stderrTTY;
  }

  get color(): boolean {
    return colorOn(this.src.stderrTTY, this.src.env);
  }

  /** Now, by the run's clock (tests inject one). */
  now(): number {
    return this.src.now ? this.src.now() : Date.now();
  }

  /** The zone times are shown in on a terminal: TZ of the run's environment, else the machine's. */
  get timeZone(): string | undefined {
    return zoneOf(this.src.env.TZ);
  }

  get stdin(): Readable {
    return this.src.stdin;
  }

  get stdinTTY(): boolean {
    return this.src.stdinTTY;
  }
  /**
   * What the run is, for the --query warning (set by main once the command is known): a dry run
   * sent nothing; a write (a command that takes --dry-run) may have written, so it must not be
   * run again for its output; a read says neither.
   */
  runKind: 'read' | 'write' | 'dry-run' = 'read';
  /** Set once the --json document is out, so an error does not print a second one. */
  jsonWritten = false;
  /**
   * Put before each error line main() prints: a command whose stderr is a log (report sync under
   * cron) dates them as it dates its summary line.
   */
  errorLead?: () => string;

  /** Prompts need a person at both ends: stdin and stdout terminals, not CI, not --no-input. */
  get canPrompt(): boolean {
    return this.stdinTTY && this.isTTY && !this.nonInteractive;
  }

  /** Animations only for a person watching stderr, and never when output must stay quiet. */
  get canAnimate(): boolean {
    return this.stderrTTY && !this.json && !this.quiet && !this.ci;
  }

  /** Data: one line on stdout. */
  out(line: string): void {
    this.stdout.write(line.endsWith('\n') ? line : line + '\n');
  }

  /**
   * The single JSON document of --json: exact, with nothing a terminal would act on left raw;
   * what --query selects of it when one was given. A query that fails on the document (a type
   * error: it parsed, so the command ran) must not cost the result, which may be the only record
   * of a write: the whole document is printed instead, with one sentence on stderr that says so
   * and what the run was (runKind). The exit code stays the command's own.
   */
  printJson(value: unknown): void {
    const q = this.src.query?.apply(value);
    if (q && !q.applied) {
      // Not silenced by --quiet: stdout is not the shape the script asked for.
      this.stderr.write(`${this.paint('yellow', 'warning:')} --query "${forTerminal(this.src.query!.expr, 200)}" could not be applied to the result (${forTerminal(q.reason.replace(/[.\s]+$/, ''), 300)}), so the whole result was printed instead; ${QUERY_FAILED_AFTER[this.runKind]}\n`);
    }
    this.jsonWritten = true;
    this.stdout.write(safeJson(q?.applied ? q.value : value, 2) + '\n');
  }

  /** One line of NDJSON (a stream of events, printed only when --json and --query are not given). */
  printJsonLine(value: unknown): void {
    this.stdout.write(safeJson(value) + '\n');
  }

  /** The {"error": …} document: never filtered by --query, so a script always sees the failure. */
  printErrorJson(value: unknown): void {
    this.jsonWritten = true;
    this.stdout.write(safeJson(value, 2) + '\n');
  }

  /** Progress and confirmations for a person: stderr, silenced by --quiet. */
  info(line: string): void {
    if (!this.quiet) this.stderr.write(line + '\n');
  }

  /** Warnings: stderr, silenced by --quiet like info() (docs/flags.md: "-q, --quiet: only data and errors"). */
  warn(line: string): void {
    if (!this.quiet) this.stderr.write(`${this.paint('yellow', 'warning:')} ${line}\n`);
  }

  /** Always printed (errors). */
  error(line: string): void {
    this.stderr.write(line + '\n');
  }

  paint(style: Style, text: string): string {
    return paintText(this.color, style, text);
  }

  /**
   * A spinner on stderr when someone is watching; otherwise a no-op that prints nothing. Its
   * words often carry a service's (an import code, a status) or a file's name, so every one —
   * start, update, end — goes through the sanitiser here, once for every caller.
   */
  async spinner(label: string): Promise<Spinner> {
    if (!this.canAnimate) return silentSpinner;
    const { default: ora } = await import('ora');
    // A terminal that reports 0 columns (a pty nobody sized, e.g. `script` fed from a pipe) makes
    // ora divide by 0 and clear "Infinity" lines forever. There, print the start and end lines
    // without animating; a width ora can use (or none, where it assumes 80) animates as usual.
    const columns = (this.stderr as { columns?: unknown }).columns;
    const animate = columns === undefined || (typeof columns === 'number' && columns > 0);
    const safe = (m: string | undefined) => (m === undefined ? undefined : forTerminal(m, SPINNER_MAX));
    const s = ora({ text: safe(label), stream: this.stderr as NodeJS.WritableStream, isEnabled: animate, discardStdin: false, color: this.color ? 'cyan' : false as never }).start();
    return {
      text: (m) => { s.text = safe(m)!; },
      succeed: (m) => { s.succeed(safe(m)); },
      fail: (m) => { s.fail(safe(m)); },
      stop: () => { s.stop(); },
    };
  }
}

/** How the --query warning ends: by what is known of the run, never "do not run it again" when nothing was written. */
const QUERY_FAILED_AFTER: Record<IO['runKind'], string> = {
  'dry-run': 'it was a dry run: nothing was sent.',
  write: 'the command itself finished — do not run it again.',
  read: 'the command itself finished.',
};

/** A spinner line is one line: a label longer than this is cut (with a note of how much). */
const SPINNER_MAX = 300;

const silentSpinner: Spinner = { text() {}, succeed() {}, fail() {}, stop() {} };
