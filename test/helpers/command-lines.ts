// Runs command lines as documentation writes them — the Examples of every --help screen
// (test/help-examples.test.ts) and the ```sh blocks of the README (test/readme.test.ts) — against
// the in-process sandbox, as a reader pasting them into one shell would:
// - in a place of their own: a fresh config folder (so a fresh, empty sandbox), a working folder
//   holding a copy of examples/, and a home folder with the usual completion folders;
// - `--sandbox` is added unless the line has it; a listening `--port N` is taken as `--port 0`
//   (any free port), so a run never collides with another test;
// - CP123 (campaign), IM123 (import) and LS123 (group) stand for the newest one the place's
//   sandbox holds, i.e. the code an earlier line printed (a fresh sandbox holds none);
// - a small shell: quotes, `~` (the place's home), `$NAME` from EXAMPLE_ENV, `NAME=value mailctl …`,
//   one producer piped in (`printf`, `printenv NAME`, `cat FILE`), `< FILE`, `> FILE`; `# …`
//   starts a comment;
// - the comment decides what is expected: "needs a terminal" → exit 2 (there is none here),
//   "exit N" → exit N, "until Ctrl-C" → runs until interrupted, then exit 0; otherwise exit 0.
// Time is virtual: every wait and the sandbox's clock move together, so waits end at once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../src/core/clock.js';
import { startCli, tempDir, type CliResult } from './cli.js';
import { until } from './wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What `$NAME` and `printenv NAME` give in documented lines. */
export const EXAMPLE_ENV: Record<string, string> = { CAMPAIGN_KEY: 'example-campaign-key', NOTIFY_KEY: 'example-notify-key' };

// ---- reading a line ----

/** `code  # comment`, where # is not inside quotes, not escaped, and starts a word. */
export function splitComment(s: string): { code: string; comment: string } {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = undefined;
      else if (c === '\\' && q === '"') i++;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]))) return { code: s.slice(0, i).trim(), comment: s.slice(i + 1).trim() };
  }
  return { code: s.trim(), comment: '' };
}

/** The exit code a line's comment promises. */
export function expectedExit(comment: string): number {
  if (/needs a terminal/i.test(comment)) return 2;
  const m = /\bexit (\d+)\b/i.exec(comment);
  return m ? Number(m[1]) : 0;
}

// ---- a small shell ----

type Token = { word: string } | { op: '|' | '<' | '>' };

function tokenize(s: string, home: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    if (/\s/.test(s[i])) {
      i++;
      continue;
    }
    if (s[i] === '|' || s[i] === '<' || s[i] === '>') {
      out.push({ op: s[i] as '|' });
      i++;
      continue;
    }
    let word = '';
    if (s[i] === '~' && (s[i + 1] === '/' || s[i + 1] === undefined || /\s/.test(s[i + 1]))) {
      word = home;
      i++;
    }
    while (i < s.length && !/[\s|<>]/.test(s[i])) {
      const c = s[i];
      if (c === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) throw new Error(`unclosed quote in: ${s}`);
        word += s.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && /["\\$`]/.test(s[i + 1] ?? '')) {
            word += s[i + 1];
            i += 2;
          } else if (s[i] === '$') {
            const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(i));
            if (!m) throw new Error(`unsupported $ in: ${s}`);
            if (!(m[1] in EXAMPLE_ENV)) throw new Error(`$${m[1]} is not in EXAMPLE_ENV`);
            word += EXAMPLE_ENV[m[1]];
            i += m[0].length;
          } else word += s[i++];
        }
        if (s[i] !== '"') throw new Error(`unclosed quote in: ${s}`);
        i++;
      } else if (c === '\\') {
        word += s[i + 1] ?? '';
        i += 2;
      } else if (c === '$' || c === '`' || c === ';' || c === '&' || c === '(' || c === ')') {
        throw new Error(`unsupported shell syntax "${c}" in: ${s}`);
      } else word += s[i++];
    }
    out.push({ word });
  }
  return out;
}

export interface Planned {
  argv: string[];
  /** `NAME=value` words before the command. */
  env?: Record<string, string>;
  stdin?: string | Buffer;
  stdout?: string;
}

function printf(args: string[]): string {
  const [format = '', ...rest] = args;
  const unescape = (x: string) => x.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  let k = 0;
  return unescape(format).replace(/%s/g, () => rest[k++] ?? '');
}

/** A line as the shell would run it: mailctl's argv, its environment words, stdin and stdout. */
export function plan(line: string, cwd: string, home: string): Planned {
  const tokens = tokenize(line, home);
  const words = (from: number, to: number) =>
    tokens.slice(from, to).map((t) => {
      if (!('word' in t)) throw new Error(`unexpected "${t.op}" in: ${line}`);
      return t.word;
    });
  let start = 0;
  let stdin: string | Buffer | undefined;
  const pipe = tokens.findIndex((t) => 'op' in t && t.op === '|');
  if (pipe >= 0) {
    const [cmd, ...args] = words(0, pipe);
    if (cmd === 'printf') stdin = printf(args);
    else if (cmd === 'printenv' && args.length === 1 && args[0] in EXAMPLE_ENV) stdin = `${EXAMPLE_ENV[args[0]]}\n`;
    else if (cmd === 'cat' && args.length === 1) stdin = fs.readFileSync(path.resolve(cwd, args[0]));
    else throw new Error(`unsupported producer "${cmd}" in: ${line}`);
    start = pipe + 1;
  }
  let end = tokens.length;
  let stdout: string | undefined;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (!('op' in t)) continue;
    end = Math.min(end, i);
    const target = tokens[i + 1];
    if (!target || !('word' in target)) throw new Error(`a redirection without a file in: ${line}`);
    if (t.op === '<') stdin = fs.readFileSync(path.resolve(cwd, target.word));
    else if (t.op === '>') stdout = path.resolve(cwd, target.word);
    else throw new Error(`a second pipe in: ${line}`);
    i++;
  }
  const cmdline = words(start, end);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(cmdline[0] ?? '')) {
    const [name, ...value] = cmdline.shift()!.split('=');
    env[name] = value.join('=');
  }
  const [cmd, ...argv] = cmdline;
  if (cmd !== 'mailctl') throw new Error(`an example runs mailctl, not "${cmd}": ${line}`);
  return { argv, stdin, stdout, ...(Object.keys(env).length ? { env } : {}) };
}

// ---- where and when lines run ----

export type VirtualClock = Clock & { advance(ms: number): void; sleeps: number };

/** Virtual time: sleeping moves it on at once, and the in-process sandbox reads the same clock. */
export function virtualClock(): VirtualClock {
  let offset = 0;
  let sleeps = 0;
  return {
    get sleeps() {
      return sleeps;
    },
    now: () => Date.now() + offset,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps++;
      offset += Math.max(0, ms);
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
    },
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Where a sequence of lines runs: one config folder (one sandbox), one working folder, one home. */
export interface Place {
  configDir: string;
  cwd: string;
  home: string;
}

export function freshPlace(prefix: string): Place {
  const base = tempDir(prefix);
  const p = { configDir: path.join(base, 'config'), cwd: path.join(base, 'work'), home: path.join(base, 'home') };
  fs.cpSync(path.join(root, 'examples'), path.join(p.cwd, 'examples'), { recursive: true });
  for (const d of ['.local/share/bash-completion/completions', '.config/fish/completions', '.zfunc']) fs.mkdirSync(path.join(p.home, d), { recursive: true });
  return p;
}

type CodeKind = 'CP' | 'IM' | 'LS';

/** The newest code of a kind the place's sandbox holds. */
function newest(p: Place, kind: CodeKind): string | undefined {
  const file = path.join(p.configDir, 'sandbox', 'state.json');
  if (!fs.existsSync(file)) return undefined;
  const c = JSON.parse(fs.readFileSync(file, 'utf8')).campaign;
  const list: Array<{ sn?: string; importSn?: string }> = kind === 'CP' ? c.campaigns : kind === 'IM' ? c.imports : c.groups;
  const last = list.at(-1);
  return last?.sn ?? last?.importSn;
}

/**
 * Runs one line in `p`, in process, its comment deciding how it ends ("until Ctrl-C": once it
 * has said something or waited twice, it is interrupted). Throws when the line is not one the
 * small shell runs, or a code it names does not exist yet.
 */
export async function runLine(p: Place, clock: VirtualClock, line: string, comment: string): Promise<CliResult & { argv: string[] }> {
  const withCodes = line.replace(/\b(CP|IM|LS)123\b/g, (whole, kind: CodeKind) => {
    const code = newest(p, kind);
    if (!code) throw new Error(`${whole} in "${line}" stands for the newest ${kind} code, and there is none yet`);
    return code;
  });
  const planned = plan(withCodes, p.cwd, p.home);
  const argv = planned.argv.map((w, i, all) => (all[i - 1] === '--port' ? '0' : w));
  if (!argv.includes('--sandbox')) argv.unshift('--sandbox');
  const abort = new AbortController();
  // Each line starts a little later, as a person typing them would: past the per-second and
  // per-10-seconds limits of the previous line.
  clock.advance(11_000);
  process.chdir(p.cwd);
  const run = startCli(argv, {
    env: { HOME: p.home, ...planned.env },
    configDir: p.configDir,
    stdin: planned.stdin,
    signal: abort.signal,
    clock,
    tuning: 'product',
  });
  if (/until Ctrl-C/i.test(comment)) {
    // Running: it has said something (a server's address) or waited twice (a follower polling).
    const sleeps = clock.sleeps;
    try {
      await until(`"${line}" to start`, () => run.stdout().length + run.stderr().length > 0 || clock.sleeps >= sleeps + 2);
    } finally {
      abort.abort();
    }
  }
  const r = await run.exited;
  if (planned.stdout) fs.writeFileSync(planned.stdout, r.stdout);
  return { ...r, argv };
}
