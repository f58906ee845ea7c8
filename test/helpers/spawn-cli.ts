// The built CLI (bin/mailctl.js, what a user runs) as a process of its own, for the tests where
// the real process is the point: signals, kill -9, cron, two runs at once. Each gets its own home
// and config folder (unless told), runs there, and reaches both services of `sandbox` with the
// sandbox's keys, as runCli({ sandbox }) does in-process.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { tempDir } from './cli.js';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'mailctl.js');

export interface SpawnOptions {
  /** Both services' URLs and keys point at it. */
  sandbox?: RunningSandbox;
  /** Over the rest. */
  env?: Record<string, string>;
  /** HOME; default a fresh folder named with `prefix`. */
  home?: string;
  prefix?: string;
  /** Default: `config` in the home folder. */
  configDir?: string;
  /** Default: the home folder. */
  cwd?: string;
  /** Give the process a stdin the test writes to (child.stdin); default none. */
  stdin?: boolean;
}

export interface Spawned {
  child: ChildProcess;
  /** What it has written so far. */
  stdout(): string;
  stderr(): string;
  /** When it has exited and its output is read: its code (null when a signal ended it) and all it wrote. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function spawnCli(args: string[], o: SpawnOptions = {}): Spawned {
  const home = o.home ?? tempDir(o.prefix ?? 'mailctl-spawn-');
  const sb = o.sandbox;
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    MAILCTL_CONFIG_DIR: o.configDir ?? path.join(home, 'config'),
    ...(sb ? { MAILCTL_CAMPAIGN_URL: sb.campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign, MAILCTL_NOTIFY_URL: sb.notifyUrl, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify } : {}),
    ...o.env,
  };
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: o.cwd ?? home, stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.on('close', (code) => r({ code, stdout: out, stderr: err })));
  return { child, stdout: () => out, stderr: () => err, exited };
}
