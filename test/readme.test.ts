// The README is read by a newcomer in five minutes (issue 24.4), so it stays short and true:
// at most 300 lines; the two set-up commands exactly as promised (the main job against the
// sandbox, and `npm test`, which .ci/run runs too); every relative link in it and in docs/
// points at a file (and a heading) that exists; and every command line in its ```sh blocks runs
// as written against the sandbox.
//
// How the README's lines are run: in order, top to bottom, as one reader pasting them into one
// shell — one fresh config folder (so one fresh sandbox) and a working folder holding a copy of
// examples/. `--sandbox` is added unless the line has it, as the README tells the reader to.
// `npm ci && ` is dropped from a set-up line and `npx mailctl` is mailctl; lines that run npm
// itself are not run here. CP123/IM123 stand for the newest campaign or import the sandbox holds
// (the code an earlier line printed). A leading `printenv NAME |` feeds NAME's value from
// EXAMPLE_ENV. A listening `--port N` is taken as `--port 0` (any free port), so the run never
// collides with another test. The comment decides what is expected: "needs a terminal" → exit 2
// (there is none here), "exit N" → exit N, "until Ctrl-C" → runs until interrupted, then exit 0;
// otherwise exit 0. Time is virtual: every wait and the sandbox's clock move together.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../commands/main.js';
import type { Clock } from '../src/core/clock.js';
import { tempDir } from './helpers/cli.js';
import { shellWords } from './helpers/help-examples.js';
import { until } from './helpers/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The two set-up commands the README promises, word for word. */
const TRY_IT = 'npm ci && npx mailctl --sandbox import examples/contacts.csv --group Newsletter --create-group --wait';
const TEST_IT = 'npm ci && npm test';

/** What `printenv NAME` gives in README lines. */
const EXAMPLE_ENV: Record<string, string> = { CAMPAIGN_KEY: 'example-campaign-key', NOTIFY_KEY: 'example-notify-key' };

// ---- reading markdown ----

/** The lines of every fenced block of this language, `\` continuations joined. */
function fenced(md: string, lang: string): string[] {
  const out: string[] = [];
  let inside = false;
  let pending = '';
  for (const raw of md.split('\n')) {
    if (/^```/.test(raw)) {
      inside = !inside && raw.trim() === `\`\`\`${lang}`;
      continue;
    }
    if (!inside) continue;
    const l = raw.trim();
    if (l.endsWith('\\')) {
      pending += `${l.slice(0, -1).trimEnd()} `;
      continue;
    }
    if (pending + l) out.push(pending + l);
    pending = '';
  }
  return out;
}

/** `code  # comment`, where # is outside quotes and starts a word. */
function splitComment(s: string): { code: string; comment: string } {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = undefined;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]))) return { code: s.slice(0, i).trim(), comment: s.slice(i + 1).trim() };
  }
  return { code: s.trim(), comment: '' };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let inFence = false;
  for (const line of md.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const m = !inFence && /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Relative links of a markdown file (outside code), as [target, anchor]. */
function links(md: string): Array<{ target: string; anchor?: string }> {
  const text = md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const out: Array<{ target: string; anchor?: string }> = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1];
    if (/^[a-z]+:/i.test(href)) continue;
    const [target, anchor] = href.split('#');
    out.push({ target, anchor });
  }
  return out;
}

function markdownFiles(): string[] {
  const docs = path.join(root, 'docs');
  const found = fs.readdirSync(docs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(e.parentPath, e.name));
  return [path.join(root, 'README.md'), ...found];
}

// ---- the checks ----

describe('README.md: a newcomer reads it in five minutes', () => {
  it('is at most 300 lines', () => {
    expect(README.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('gives the two set-up commands, and CI runs the test command it gives', () => {
    const lines = fenced(README, 'sh');
    expect(lines).toContain(TRY_IT);
    expect(lines).toContain(TEST_IT);
    // .ci/run runs "the same test command the README gives".
    expect(fs.readFileSync(path.join(root, '.ci/run'), 'utf8')).toMatch(/^\s*(PATH="[^"]*" )?npm test$/m);
  });

  it('has a docs/README.md index that names every topic document', () => {
    const index = fs.readFileSync(path.join(root, 'docs/README.md'), 'utf8');
    const topics = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    const missing = topics.filter((f) => !index.includes(`](${f})`));
    expect(missing, 'docs/README.md should link these').toEqual([]);
  });
});

describe('every relative link in README.md and docs/ resolves', () => {
  for (const file of markdownFiles()) {
    const name = path.relative(root, file);
    it(name, () => {
      const problems: string[] = [];
      for (const { target, anchor } of links(fs.readFileSync(file, 'utf8'))) {
        const to = target ? path.resolve(path.dirname(file), target) : file;
        if (!fs.existsSync(to)) {
          problems.push(`${target}: no such file`);
          continue;
        }
        if (anchor && to.endsWith('.md') && !anchors(fs.readFileSync(to, 'utf8')).has(anchor)) problems.push(`${target}#${anchor}: no such heading`);
      }
      expect(problems).toEqual([]);
    });
  }
});

// ---- running the README's lines ----

interface Line {
  line: string;
  comment: string;
}

function commandLines(): Line[] {
  const out: Line[] = [];
  for (const full of fenced(README, 'sh')) {
    const { code, comment } = splitComment(full);
    if (!code) continue;
    const line = code.replace(/^npm ci && /, '').replace(/^npx mailctl\b/, 'mailctl');
    if (/^npm\b/.test(line)) continue;
    out.push({ line, comment });
  }
  return out;
}

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

function newest(configDir: string, kind: 'CP' | 'IM'): string | undefined {
  const file = path.join(configDir, 'sandbox', 'state.json');
  if (!fs.existsSync(file)) return undefined;
  const c = JSON.parse(fs.readFileSync(file, 'utf8')).campaign;
  const list: Array<{ sn?: string; importSn?: string }> = kind === 'CP' ? c.campaigns : c.imports;
  const last = list.at(-1);
  return last?.sn ?? last?.importSn;
}

function expectedExit(comment: string): number {
  if (/needs a terminal/i.test(comment)) return 2;
  const m = /\bexit (\d+)\b/i.exec(comment);
  return m ? Number(m[1]) : 0;
}

describe('the command lines of README.md', () => {
  const lines = commandLines();
  const cwdBefore = process.cwd();
  afterAll(() => process.chdir(cwdBefore));

  it('are plain mailctl lines (what the reader pastes)', () => {
    expect(lines.length).toBeGreaterThan(20);
    for (const { line } of lines) expect(line, line).toMatch(/^(printenv [A-Z_]+ \| )?mailctl /);
  });

  it('run as written, in order, against one fresh sandbox', async () => {
    const base = tempDir('mailctl-readme-');
    const configDir = path.join(base, 'config');
    const cwd = path.join(base, 'work');
    fs.cpSync(path.join(root, 'examples'), path.join(cwd, 'examples'), { recursive: true });
    const clock = virtualClock();
    const problems: string[] = [];
    for (const { line, comment } of lines) {
      let stdin = '';
      let cmd = line;
      const fed = /^printenv ([A-Z_]+) \| (.*)$/.exec(line);
      if (fed) {
        if (!(fed[1] in EXAMPLE_ENV)) throw new Error(`${fed[1]} is not in EXAMPLE_ENV`);
        stdin = `${EXAMPLE_ENV[fed[1]]}\n`;
        cmd = fed[2];
      }
      cmd = cmd.replace(/\b(CP|IM)123\b/g, (whole, kind: 'CP' | 'IM') => {
        const code = newest(configDir, kind);
        if (!code) throw new Error(`${whole} in "${line}" stands for the newest ${kind} code, and there is none yet`);
        return code;
      });
      const argv = shellWords(cmd).slice(1).map((w, i, all) => (all[i - 1] === '--port' ? '0' : w));
      if (!argv.includes('--sandbox')) argv.unshift('--sandbox');
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = '';
      let err = '';
      stdout.on('data', (c) => (out += c));
      stderr.on('data', (c) => (err += c));
      const abort = new AbortController();
      // Each line starts a little later, as a person typing them would: past the rate limits.
      clock.advance(11_000);
      process.chdir(cwd);
      const running = main({
        argv,
        env: { PATH: process.env.PATH, HOME: path.join(base, 'home'), MAILCTL_CONFIG_DIR: configDir },
        stdin: Readable.from(stdin ? [Buffer.from(stdin)] : []),
        stdout, stderr, stdinTTY: false, stdoutTTY: false, stderrTTY: false,
        signal: abort.signal, clock,
      });
      if (/until Ctrl-C/i.test(comment)) {
        const sleeps = clock.sleeps;
        try {
          await until(`"${line}" to start`, () => out.length + err.length > 0 || clock.sleeps >= sleeps + 2);
        } finally {
          abort.abort();
        }
      }
      const exitCode = await running;
      const want = expectedExit(comment);
      if (exitCode !== want) problems.push(`"${line}" exited ${exitCode}, not ${want}:\n${err.trim()}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
