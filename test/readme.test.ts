// The README is read by a newcomer in five minutes (issue 24.4), so it stays short and true:
// at most 300 lines; the two set-up commands exactly as promised (the main job against the
// sandbox, and `npm test`, which .ci/run runs too); every relative link in it and in docs/
// points at a file (and a heading) that exists; and every command line in its ```sh blocks runs
// as written against the sandbox.
//
// How the README's lines are run: the convention of test/helpers/command-lines.ts, in order, top to
// bottom, as one reader pasting them into one shell — one place (one fresh config folder, so one
// fresh sandbox, and a working folder holding a copy of examples/). `npm ci && ` is dropped from a
// set-up line and `npx mailctl` is mailctl; lines that run npm itself are not run here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedExit, freshPlace, runLine, splitComment, virtualClock } from './helpers/command-lines.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The two set-up commands the README promises, word for word. */
const TRY_IT = 'npm ci && npx mailctl --sandbox import examples/contacts.csv --group Newsletter --create-group --wait';
const TEST_IT = 'npm ci && npm test';

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

describe('the command lines of README.md', () => {
  const lines = commandLines();
  const cwdBefore = process.cwd();
  afterAll(() => process.chdir(cwdBefore));

  it('are plain mailctl lines (what the reader pastes)', () => {
    expect(lines.length).toBeGreaterThan(20);
    for (const { line } of lines) expect(line, line).toMatch(/^(printenv [A-Z_]+ \| )?mailctl /);
  });

  it('run as written, in order, against one fresh sandbox', async () => {
    const place = freshPlace('mailctl-readme-');
    const clock = virtualClock();
    const problems: string[] = [];
    for (const { line, comment } of lines) {
      const r = await runLine(place, clock, line, comment);
      const want = expectedExit(comment);
      if (r.exitCode !== want) problems.push(`"${line}" exited ${r.exitCode}, not ${want}:\n${r.stderr.trim()}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
