// Runs the BUILT bin/mailctl.js on a real pseudo-terminal, the way a person at a terminal would:
// `script` (util-linux) gives the child a pty whose input is what we write to script's stdin
// and whose output (stdout and stderr, as on a screen) comes back on script's stdout. Tests wait
// for a prompt's text, then type keys. node-pty would need a native build; `script` is enough.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'mailctl.js');

/** Why the pty tests cannot run here, or undefined when `script` is available. */
export const ptyUnavailable: string | undefined = (() => {
  const r = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return '`script` (util-linux) is not installed, so no pseudo-terminal can be made for these tests';
  return undefined;
})();

/** Keys as a terminal sends them (raw mode: Enter is a carriage return). */
export const KEY = { up: '\u001b[A', down: '\u001b[B', enter: '\r', space: ' ', backspace: '\u007f', ctrlC: '\u0003', esc: '\u001b' } as const;

// CSI (with private markers), OSC, and the two-byte escapes inquirer and ora use.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?<=>]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][A-Za-z0-9]|\u001b[78=>]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '').replace(/\r/g, '');
}

export interface PtyOptions {
  env: Record<string, string | undefined>;
  /** Terminal size; cols 0 leaves the pty unsized (it then reports 0 columns and 0 rows). */
  cols?: number;
  rows?: number;
  cwd?: string;
}

const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

export class Pty {
  /** Everything the terminal showed, escapes included. */
  raw = '';
  readonly exit: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  /** How much of the stripped text waitFor has consumed: each wait looks only after the last match. */
  private seen = 0;
  private exitCode: number | null | undefined;

  constructor(argv: string[], o: PtyOptions) {
    const cols = o.cols ?? 100;
    const size = cols === 0 ? '' : `stty cols ${cols} rows ${o.rows ?? 40}; `;
    const command = `${size}exec ${[process.execPath, BIN, ...argv].map(quote).join(' ')}`;
    // The child gets only what the test gives it (no CI from the runner's environment: CI turns
    // prompts and spinners off, and here a person is at the terminal).
    const env = { TERM: 'xterm-256color', ...o.env, SHELL: '/bin/sh' };
    this.child = spawn('script', ['-qfec', command, '/dev/null'], { env: env as NodeJS.ProcessEnv, cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (d: Buffer) => (this.raw += d.toString('utf8')));
    this.child.stderr.on('data', (d: Buffer) => (this.raw += d.toString('utf8')));
    this.exit = new Promise((resolve) => this.child.on('exit', (code) => resolve((this.exitCode = code))));
  }

  /** The screen's text so far without escapes (every redraw, in order). */
  text(): string {
    return stripAnsi(this.raw);
  }

  /** Waits until `pattern` shows after the previous match; returns the text up to and including it. */
  async waitFor(pattern: string | RegExp, ms = 30_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const text = this.text();
      const rest = text.slice(this.seen);
      const m = typeof pattern === 'string' ? (rest.includes(pattern) ? { index: rest.indexOf(pattern), 0: pattern } : null) : pattern.exec(rest);
      if (m) {
        const upTo = this.seen + m.index! + m[0].length;
        const shown = text.slice(this.seen, upTo);
        this.seen = upTo;
        return shown;
      }
      if (this.exitCode !== undefined) throw new Error(`mailctl exited (${this.exitCode}) before showing ${String(pattern)}; the screen ended with:\n${rest.slice(-2000)}`);
      if (Date.now() > end) throw new Error(`timed out waiting for ${String(pattern)}; the screen ended with:\n${rest.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Types keys, one write per key, each after a short pause so every key is its own keypress. */
  async keys(...keys: string[]): Promise<void> {
    for (const k of keys) {
      this.child.stdin.write(k);
      await new Promise((r) => setTimeout(r, 60));
    }
  }

  /** Types text (one write: readline still sees one keypress per character), then Enter. */
  async line(text: string): Promise<void> {
    if (text) await this.keys(text);
    await this.keys(KEY.enter);
  }

  /** The exit code, failing after `ms`; the process is killed then, so a hang cannot outlive the test. */
  async exited(ms = 30_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.kill();
        reject(new Error(`mailctl did not exit within ${ms} ms; the screen ended with:\n${this.text().slice(-2000)}`));
      }, ms);
    });
    try {
      return await Promise.race([this.exit, timeout]);
    } finally {
      clearTimeout(timer);
      this.child.stdin.end();
    }
  }

  kill(): void {
    if (this.exitCode !== undefined) return;
    // A CLI stuck in a loop does not always die of the hang-up when script goes, so kill the
    // process script started (the shell exec'd into node) by its id first, then script.
    for (const pid of childrenOf(this.child.pid!)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    this.child.kill('SIGKILL');
  }
}

/** Ids of the processes whose parent is `ppid` (Linux /proc; empty elsewhere). */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return out;
  }
  for (const e of entries) {
    try {
      // stat: "pid (comm) state ppid …"; comm may hold spaces or parentheses, so read after the last ")".
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) out.push(Number(e));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}
