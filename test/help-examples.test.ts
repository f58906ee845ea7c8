// Help that teaches: every help screen (the root, every noun, every verb) ends with an Examples
// section, and every line in it runs — here, in-process, against the built-in sandbox.
//
// How a line is run is the convention of test/helpers/command-lines.ts, with one place per
// screen: EVERY screen gets a fresh config folder (so a fresh, empty sandbox) and a fresh working
// folder holding a copy of examples/. A screen's lines run in order, so a line may use what an
// earlier line of the SAME screen made (the group "Newsletter", a campaign, a profile; CP123 and
// the like stand for its codes); a screen needing one starts by making it. Pasted in order into
// a new shell, each screen's examples work on their own. A line that is only a comment explains
// the next one.
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { HELP_TOPICS } from '../src/cli/root-help.js';
import { runCli } from './helpers/cli.js';
import { expectedExit, freshPlace, plan, runLine, splitComment, virtualClock } from './helpers/command-lines.js';

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
    out.push({ line: code, comment });
  }
  return out.length ? out : 'an empty Examples section';
}

// ---- the tests ----

const all = screens();
const clock = virtualClock();
const cwdBefore = process.cwd();
afterAll(() => process.chdir(cwdBefore));

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
      const place = freshPlace('mailctl-examples-');
      const help = await runCli(argv);
      expect(help.exitCode).toBe(0);
      const examples = examplesOf(help.stdout);
      if (typeof examples === 'string') expect.fail(`${title}: ${examples}`);
      const problems: string[] = [];
      let ran = 0;
      for (const ex of examples) {
        let r;
        try {
          r = await runLine(place, clock, ex.line, ex.comment);
        } catch (e) {
          problems.push(`"${ex.line}": ${(e as Error).message}`);
          continue;
        }
        ran++;
        const want = expectedExit(ex.comment);
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
