// Runs the CLI in-process against streams in memory: runCli(argv, {tty}) → {stdout, stderr, exitCode};
// startCli when a test must read what a run has said while it still runs (a listener, a follower).
import { PassThrough, Readable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../commands/main.js';
import { BACK, GoBack, type BackOption, type Choice, type ChoiceOrSeparator, type Prompter } from '../../src/run/prompter.js';
import type { Tuning } from '../../src/run/context.js';
import type { Clock } from '../../src/core/clock.js';
import type { FetchLike } from '../../src/api/http.js';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface CliOptions {
  /** Pretend stdin, stdout and stderr are terminals. */
  tty?: boolean;
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer | Readable;
  /** Point both services (URLs and keys) at this sandbox. */
  sandbox?: RunningSandbox;
  /** Over FAST; 'product' runs with the CLI's own defaults (pacing, waits), as a user's shell would. */
  tuning?: Partial<Tuning> | 'product';
  prompter?: Prompter;
  signal?: AbortSignal;
  clock?: Clock;
  /** Replaces the network (test/helpers/virtual-time.ts). */
  fetch?: FetchLike;
  /** Defaults to a fresh temp dir per call unless env.MAILCTL_CONFIG_DIR is given. */
  configDir?: string;
}

/** Fast test defaults: no client-side pacing (the sandbox's own limit is off too), short waits. */
export const FAST: Partial<Tuning> = { rateLimit: false, retryBaseMs: 10, pollMinMs: 20, pollMaxMs: 50, timeoutMs: 5000 };

export function tempDir(prefix = 'mailctl-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface StartedCli {
  /** What the run has written so far. */
  stdout(): string;
  stderr(): string;
  /** Settles when main returns (and the streams have been read). */
  exited: Promise<CliResult>;
}

/** One run of main, under way: its output can be read before it ends. */
export function startCli(argv: string[], o: CliOptions = {}): StartedCli {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const stdin = o.stdin instanceof Readable ? o.stdin : Readable.from(o.stdin === undefined ? [] : [Buffer.from(o.stdin)]);
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MAILCTL_CONFIG_DIR: o.configDir ?? tempDir(),
    ...(o.sandbox
      ? {
          MAILCTL_CAMPAIGN_URL: o.sandbox.campaignUrl,
          MAILCTL_NOTIFY_URL: o.sandbox.notifyUrl,
          MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign,
          MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify,
        }
      : {}),
    ...o.env,
  };
  const exited = main({
    argv, env, stdin, stdout, stderr,
    stdinTTY: !!o.tty, stdoutTTY: !!o.tty, stderrTTY: !!o.tty,
    signal: o.signal, prompter: o.prompter, clock: o.clock, fetch: o.fetch,
    tuning: o.tuning === 'product' ? undefined : { ...FAST, ...o.tuning },
  }).then(async (exitCode) => {
    await new Promise((r) => setImmediate(r));
    return { stdout: out, stderr: err, exitCode };
  });
  return { stdout: () => out, stderr: () => err, exited };
}

export function runCli(argv: string[], o: CliOptions = {}): Promise<CliResult> {
  return startCli(argv, o).exited;
}

/**
 * A prompter that answers from a script and fails the test on an unexpected question. A list
 * question (checkbox) takes an array of values and, like the real one, refuses a disabled or
 * unknown entry or an answer its validate rejects; a search takes the term typed and picks the
 * first entry it finds that can be picked. BACK (src/run/prompter.ts) answers "go back" (Esc, or
 * the Back entry) where the question offers it, and fails the test where it does not. `defaults`
 * records the default each question showed (for a list, the values checked).
 */
export type ScriptedAnswer = string | boolean | string[];

export function scriptedPrompter(answers: Array<ScriptedAnswer | ((shown: string[]) => ScriptedAnswer | Promise<ScriptedAnswer>)>): Prompter & { asked: string[]; shown: string[][]; defaults: unknown[] } {
  const asked: string[] = [];
  const shown: string[][] = [];
  const defaults: unknown[] = [];
  /** The next answer; a function answers at the moment of asking, seeing the entries listed. */
  const next = async (message: string, o: BackOption & { entries?: string[]; default?: unknown } = {}): Promise<ScriptedAnswer> => {
    asked.push(message);
    defaults.push(o.default);
    if (!answers.length) throw new Error(`unexpected prompt: ${message}`);
    const a = answers.shift()!;
    const answer = typeof a === 'function' ? await a(o.entries ?? []) : a;
    if (answer === BACK) {
      if (!o.back) throw new Error(`the script goes back at "${message}", which offers no way back`);
      throw new GoBack();
    }
    return answer;
  };
  return {
    asked,
    shown,
    defaults,
    password: async (m) => String(await next(m)),
    input: async (m, o = {}) => String(await next(m, o)),
    editor: async (m, o = {}) => String(await next(m, o)),
    confirm: async (m, d, o = {}) => Boolean(await next(m, { ...o, default: d })),
    select: async (m, _c, o = {}) => String(await next(m, o)) as never,
    checkbox: async <T extends string>(m: string, choices: Array<ChoiceOrSeparator<T>>, opts: { validate?: (v: T[]) => true | string } & BackOption = {}) => {
      const entries = choices.filter((c): c is Choice<T> => !('separator' in c));
      const view = entries.map((c) => `${c.checked ? '[x]' : '[ ]'} ${c.name}${c.disabled ? ` (${c.disabled})` : ''}`);
      shown.push(view);
      const a = await next(m, { entries: view, back: opts.back, default: entries.filter((c) => c.checked).map((c) => c.value) });
      if (!Array.isArray(a)) throw new Error(`the script answers "${m}" with ${JSON.stringify(a)}, not a list`);
      for (const v of a) {
        const c = entries.find((x) => x.value === v);
        if (!c) throw new Error(`"${v}" is not among the entries of "${m}": ${entries.map((x) => x.value).join(', ')}`);
        if (c.disabled) throw new Error(`"${v}" cannot be checked in "${m}": ${c.disabled}`);
      }
      const ok = opts.validate ? opts.validate(a as T[]) : true;
      if (ok !== true) throw new Error(`"${m}" refuses ${JSON.stringify(a)}: ${ok}`);
      return a as T[];
    },
    search: async <T extends string>(m: string, source: (term: string) => Array<Choice<T>>) => {
      const term = String(await next(m));
      const hit = source(term).find((c) => !c.disabled);
      if (!hit) throw new Error(`searching "${term}" in "${m}" finds nothing to pick`);
      return hit.value;
    },
  };
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/;

/**
 * A list's TSV: its header line (snake_case names, src/run/output/format.ts) and its rows. Throws
 * when the first line is not such a header, so a test never reads a header as data.
 */
export function tsv(stdout: string): { header: string[]; rows: string[][] } {
  const [first = '', ...rest] = stdout.replace(/\n$/, '').split('\n');
  const header = first.split('\t');
  if (!header.every((h) => /^[a-z0-9]+(_[a-z0-9]+)*$/.test(h))) throw new Error(`not a TSV header line: ${JSON.stringify(first)}`);
  return { header, rows: rest.filter((l) => l !== '').map((l) => l.split('\t')) };
}

/** The rows of a list's TSV, without its header line. */
export const tsvRows = (stdout: string): string[][] => tsv(stdout).rows;
