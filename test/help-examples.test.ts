// Help that teaches: every help screen (the root, every noun, every verb) ends with an Examples
// section, and every line in it runs — here, in-process, against the built-in sandbox.
//
// How a line is run (the convention the help texts follow):
// - `--sandbox` is added unless the line has it; EVERY screen gets a fresh config folder, so a
//   fresh (empty) sandbox, and a fresh working folder holding a copy of examples/. A screen's
//   lines run in order, so a line may use what an earlier line of the SAME screen made (the group
//   "Newsletter", a campaign, a profile); a screen needing one starts by making it. Pasted in
//   order into a new shell, each screen's examples work on their own.
// - Codes are written CP123 (campaign), IM123 (import), LS123 (group): each stands for the
//   newest one the screen's sandbox holds, i.e. the code an earlier line of that screen printed
//   (a fresh sandbox holds none).
// - A small shell: quotes, `\` line continuations, `~` (a home folder with the usual completion
//   folders), `$NAME` from EXAMPLE_ENV, `NAME=value mailctl …`, one producer piped in (`printf`,
//   `printenv NAME`, `cat FILE`), `< FILE`, `> FILE`. `# …` starts a comment; a line that is only
//   a comment explains the next one.
// - The comment decides what is expected: "needs a terminal" → exit 2 (there is none here),
//   "exit N" → exit N, "until Ctrl-C" → runs until interrupted, then exit 0. Otherwise exit 0.
// Time is virtual: every wait and the sandbox's clock move together, so waits end at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { main } from '../commands/main.js';
import { HELP_TOPICS } from '../src/cli/root-help.js';
import type { Clock } from '../src/core/clock.js';
import { runCli, tempDir } from './helpers/cli.js';
import { until } from './helpers/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `$NAME` and `printenv NAME` give in example lines. */
const EXAMPLE_ENV: Record<string, string> = { CAMPAIGN_KEY: 'example-campaign-key', NOTIFY_KEY: 'example-notify-key' };

// ---- the command tree and its help screens ----

/** Every help screen, as the argv that shows it: `--help` of the root and each command, and the help topics. */
function screens(): Array<{ argv: string[] }> {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out = [{ argv: ['--help'] }, ...Object.keys(HELP_TOPICS).map((t) => ({ argv: ['help', t] }))];
  const walk = (c: Command, names: string[]) => {
    out.push({ argv: [...names, '--help'] });
    for (const s of c.commands) walk(s, [...names, s.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

const EXAMPLES = /^Examples?\b[^:]*:$/;

interface Example {
  line: string;
  comment: string;
}

/** The Examples section of a help text; refuses one that is not the last section. */
function examplesOf(help: string): Example[] | string {
  const lines = help.replace(/\s+$/, '').split('\n');
  const at = lines.findLastIndex((l) => EXAMPLES.test(l));
  if (at < 0) return 'no Examples section';
  const body = lines.slice(at + 1);
  const stray = body.find((l) => l.trim() && !/^\s/.test(l));
  if (stray) return `the Examples section is not the last one (then: "${stray}")`;
  const out: Example[] = [];
  let pending = '';
  for (const raw of body) {
    const l = raw.trim();
    if (!l) continue;
    if (l.endsWith('\\')) {
      pending += `${l.slice(0, -1).trimEnd()} `;
      continue;
    }
    const full = pending + l;
    pending = '';
    if (full.startsWith('#')) continue;
    const { code, comment } = splitComment(full);
    out.push({ line: code.trim(), comment });
  }
  return out.length ? out : 'an empty Examples section';
}

/** `code  # comment`, where # is not inside quotes and starts a word. */
function splitComment(s: string): { code: string; comment: string } {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = undefined;
      else if (c === '\\' && q === '"') i++;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]))) return { code: s.slice(0, i), comment: s.slice(i + 1).trim() };
  }
  return { code: s, comment: '' };
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
    let quotedStart = false;
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
        quotedStart ||= !word;
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

interface Planned {
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

function plan(line: string, cwd: string, home: string): Planned {
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

// ---- running lines ----

/** Virtual time: sleeping moves it on at once, and the in-process sandbox reads the same clock. */
function virtualClock(): Clock & { advance(ms: number): void; sleeps: number } {
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

interface Screen {
  configDir: string;
  cwd: string;
  home: string;
}

function freshScreen(): Screen {
  const base = tempDir('mailctl-examples-');
  const g = { configDir: path.join(base, 'config'), cwd: path.join(base, 'work'), home: path.join(base, 'home') };
  fs.cpSync(path.join(root, 'examples'), path.join(g.cwd, 'examples'), { recursive: true });
  for (const d of ['.local/share/bash-completion/completions', '.config/fish/completions', '.zfunc']) fs.mkdirSync(path.join(g.home, d), { recursive: true });
  return g;
}

/** Codes the sandbox of a screen holds, newest last. */
function newest(g: Screen, kind: 'CP' | 'IM' | 'LS'): string | undefined {
  const file = path.join(g.configDir, 'sandbox', 'state.json');
  if (!fs.existsSync(file)) return undefined;
  const c = JSON.parse(fs.readFileSync(file, 'utf8')).campaign;
  const list: Array<{ sn?: string; importSn?: string }> = kind === 'CP' ? c.campaigns : kind === 'IM' ? c.imports : c.groups;
  const last = list.at(-1);
  return last?.sn ?? last?.importSn;
}

const clock = virtualClock();
const cwdBefore = process.cwd();
afterAll(() => process.chdir(cwdBefore));

async function runExample(g: Screen, ex: Example): Promise<{ exitCode: number; stdout: string; stderr: string; argv: string[] }> {
  const withCodes = ex.line.replace(/\b(CP|IM|LS)123\b/g, (whole, kind: 'CP' | 'IM' | 'LS') => {
    const code = newest(g, kind);
    if (!code) throw new Error(`${whole} in "${ex.line}" stands for the newest ${kind} code, and there is none yet`);
    return code;
  });
  const p = plan(withCodes, g.cwd, g.home);
  const argv = p.argv.includes('--sandbox') ? p.argv : ['--sandbox', ...p.argv];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const abort = new AbortController();
  const untilCtrlC = /until Ctrl-C/i.test(ex.comment);
  // Each line starts a little later, as a person typing them would: past the per-second and
  // per-10-seconds limits of the previous line.
  clock.advance(11_000);
  process.chdir(g.cwd);
  const running = main({
    argv,
    env: { PATH: process.env.PATH, HOME: g.home, MAILCTL_CONFIG_DIR: g.configDir, ...p.env },
    stdin: Readable.from(p.stdin === undefined ? [] : [Buffer.from(p.stdin)]),
    stdout, stderr, stdinTTY: false, stdoutTTY: false, stderrTTY: false,
    signal: abort.signal, clock,
  });
  if (untilCtrlC) {
    // Running: it has said something (a server's address) or waited twice (a follower polling).
    const sleeps = clock.sleeps;
    try {
      await until(`"${ex.line}" to start`, () => out.length + err.length > 0 || clock.sleeps >= sleeps + 2);
    } finally {
      abort.abort();
    }
  }
  const exitCode = await running;
  await new Promise((r) => setImmediate(r));
  if (p.stdout) fs.writeFileSync(p.stdout, out);
  return { exitCode, stdout: out, stderr: err, argv };
}

function expectedExit(ex: Example): number {
  if (/needs a terminal/i.test(ex.comment)) return 2;
  const m = /\bexit (\d+)\b/i.exec(ex.comment);
  return m ? Number(m[1]) : 0;
}

// ---- the tests ----

const all = screens();

let exampleCount = 0;

describe('every help screen ends with runnable examples', () => {
  it(`there are ${all.length} help screens and the walk finds them all`, () => {
    expect(all.length).toBeGreaterThan(60);
  });

  afterAll(() => {
    // The sum, for the record: every screen has at least two.
    expect(exampleCount).toBeGreaterThanOrEqual(2 * all.length);
  });

  // Each screen on its own: a fresh config folder (so a fresh sandbox) and a fresh working
  // folder, so a screen's examples work pasted in order into a new shell, whatever was run before
  // (CP123 and the like stand for codes an earlier line of the SAME screen made).
  for (const { argv } of all) {
    const title = ['mailctl', ...argv].join(' ');
    it(`${title}: its examples run, in order, against a fresh sandbox`, async () => {
      const g = freshScreen();
      const help = await runCli(argv);
      expect(help.exitCode).toBe(0);
      const examples = examplesOf(help.stdout);
      if (typeof examples === 'string') expect.fail(`${title}: ${examples}`);
      const problems: string[] = [];
      let ran = 0;
      for (const ex of examples) {
        let r;
        try {
          r = await runExample(g, ex);
        } catch (e) {
          problems.push(`"${ex.line}": ${(e as Error).message}`);
          continue;
        }
        ran++;
        const want = expectedExit(ex);
        if (r.exitCode !== want) problems.push(`"${ex.line}" exited ${r.exitCode}, not ${want}:\n${r.stderr.trim()}`);
      }
      expect(problems).toEqual([]);
      exampleCount += ran;
      expect(ran).toBeGreaterThanOrEqual(2);
    }, 30_000);
  }
});

describe('the examples parser (the convention above)', () => {
  it('finds the last section, joins continued lines, keeps comments apart and refuses a section after it', () => {
    const text = 'Usage: x\n\nExamples:\n  # a note\n  mailctl a --b "c # d" \\\n      --e   # exit 5\n  mailctl f\n';
    expect(examplesOf(text)).toEqual([{ line: 'mailctl a --b "c # d" --e', comment: 'exit 5' }, { line: 'mailctl f', comment: '' }]);
    expect(examplesOf('Examples:\n  mailctl a\n\nExit codes:\n  0 ok\n')).toMatch(/not the last/);
    expect(examplesOf('Usage: x\n')).toBe('no Examples section');
  });

  it('runs pipes and redirections as a shell would', () => {
    const home = os.tmpdir();
    expect(plan(`printf 'EMAIL,NAME\\na@example.com,A\\n' | mailctl import - --group G`, '/w', home)).toEqual({ argv: ['import', '-', '--group', 'G'], stdin: 'EMAIL,NAME\na@example.com,A\n', stdout: undefined });
    expect(plan('mailctl completion bash > ~/x', '/w', home).stdout).toBe(path.join(home, 'x'));
    expect(plan('printenv NOTIFY_KEY | mailctl config set-key --with-key-stdin', '/w', home).stdin).toBe('example-notify-key\n');
    expect(() => plan('cloudflared tunnel --url http://127.0.0.1:8787', '/w', home)).toThrow(/runs mailctl/);
  });
});
