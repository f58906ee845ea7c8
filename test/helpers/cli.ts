// Runs the CLI in-process against streams in memory: runCli(argv, {tty}) → {stdout, stderr, exitCode}.
import { PassThrough, Readable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Prompter } from '../../src/cli/prompter.js';
import type { Tuning } from '../../src/cli/context.js';
import type { Clock } from '../../src/cli/clock.js';
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
  tuning?: Partial<Tuning>;
  prompter?: Prompter;
  signal?: AbortSignal;
  clock?: Clock;
  /** Defaults to a fresh temp dir per call unless env.MAILCTL_CONFIG_DIR is given. */
  configDir?: string;
}

/** Fast test defaults: no client-side pacing (the sandbox's own limit is off too), short waits. */
export const FAST: Partial<Tuning> = { rateLimit: false, retryBaseMs: 10, pollMinMs: 20, pollMaxMs: 50, timeoutMs: 5000 };

export function tempDir(prefix = 'mailctl-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function runCli(argv: string[], o: CliOptions = {}): Promise<CliResult> {
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
  const exitCode = await main({
    argv, env, stdin, stdout, stderr,
    stdinTTY: !!o.tty, stdoutTTY: !!o.tty, stderrTTY: !!o.tty,
    signal: o.signal, prompter: o.prompter, clock: o.clock,
    tuning: { ...FAST, ...o.tuning },
  });
  await new Promise((r) => setImmediate(r));
  return { stdout: out, stderr: err, exitCode };
}

/** A prompter that answers from a script and fails the test on an unexpected question. */
export function scriptedPrompter(answers: Array<string | boolean>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (message: string) => {
    asked.push(message);
    if (!answers.length) throw new Error(`unexpected prompt: ${message}`);
    return answers.shift()!;
  };
  return {
    asked,
    password: async (m) => String(next(m)),
    input: async (m) => String(next(m)),
    confirm: async (m) => Boolean(next(m)),
    select: async (m) => String(next(m)) as never,
  };
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/;
