// The layers of src and commands, read from the import statements themselves (no tool needed):
// each folder has a rank in RANK, and an import may point only to a folder of the same rank or a
// lower one. An upward import, an import circle spanning two folders, or a folder of src with no
// rank fails here, naming the file and the import (docs/ARCHITECTURE.md draws the same table).
// Every import counts: static, dynamic and type-only alike (a type is a dependency on the other
// file's shape).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Each folder of src (and commands) and its rank, bottom to top. */
const RANK: Record<string, number> = {
  // errors, clock, sanitiser, sentences and pure parsers (dates, durations, URLs, email): imports nothing
  'src/core': 0,
  // what is copied from the service contracts: lists, tables, the time-zone codes
  'src/spec': 1,
  // appending whole records, writing exclusively then renaming, safe names, locks
  'src/fs': 2,
  // settings, profiles, keys, the config folder's local files
  'src/config': 3,
  // HTTP, the answer declarations, typed errors with their facts; the sandbox beside it (neither imports the other)
  'src/api': 4, 'src/sandbox': 4,
  // the run kit: Context, IO, prompter, poll, transfer, printers, and what commands are declared with
  'src/run': 5,
  // the feature folders: may use one another, never in a circle
  'src/campaign': 6, 'src/send': 6, 'src/import': 6, 'src/report': 6, 'src/webhook': 6, 'src/events': 6,
  'src/contacts': 6, 'src/store': 6, 'src/mcp': 6, 'src/groups': 6,
  // main, commander wiring, help, completion, the words of errors
  'src/cli': 7,
  commands: 8,
};

/** Imports the ranks allow that are still refused: [importing folder, imported file or folder, why]. */
const FORBIDDEN: Array<[string, string, string]> = [
  ['src/api', 'src/core/suggest.ts', 'the API layer builds no hints: src/cli/error-text.ts words its errors from their facts'],
  ['src/api', 'src/sandbox', 'the client and the sandbox each read the spec on their own'],
  ['src/sandbox', 'src/api', 'the client and the sandbox each read the spec on their own'],
];

type Graph = Map<string, string[]>;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The folder (a RANK key) a file belongs to. */
function folderOf(file: string): string | undefined {
  return Object.keys(RANK).find((k) => file === k || file.startsWith(`${k}/`));
}

/** Every relative import of a file (static, dynamic, type-only, re-export), resolved to a .ts path. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push(path.normalize(path.join(path.dirname(file), m[1])).replace(/\.js$/, '.ts'));
  return out;
}

/** "FILE imports TARGET" for each import pointing to a higher rank. */
function upwardImports(graph: Graph): string[] {
  return [...graph].flatMap(([f, targets]) => targets
    .filter((t) => RANK[folderOf(t)!] > RANK[folderOf(f)!])
    .map((t) => `${f} imports ${t} (${folderOf(f)}, rank ${RANK[folderOf(f)!]}, may not import ${folderOf(t)}, rank ${RANK[folderOf(t)!]})`));
}

/** "FILE imports TARGET" for each import FORBIDDEN names. */
function forbiddenImports(graph: Graph): string[] {
  return [...graph].flatMap(([f, targets]) => targets.flatMap((t) => FORBIDDEN
    .filter(([from, to]) => folderOf(f) === from && (t === to || t.startsWith(`${to}/`)))
    .map(([, , why]) => `${f} imports ${t}: ${why}`)));
}

/**
 * Each import circle whose files lie in more than one folder, as "a → b → … → a" through its
 * files (strongly connected components, Tarjan's, iterative; then one cycle through the component).
 */
function circlesAcrossFolders(graph: Graph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    index.set(start, next); low.set(start, next++); stack.push(start); on.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      const targets = graph.get(v)!;
      if (i < targets.length) {
        top[1]++;
        const w = targets[i];
        if (!index.has(w)) {
          index.set(w, next); low.set(w, next++); stack.push(w); on.add(w);
          work.push([w, 0]);
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) { const u = work[work.length - 1][0]; low.set(u, Math.min(low.get(u)!, low.get(v)!)); }
      if (low.get(v) === index.get(v)) {
        const comp: string[] = [];
        let w: string;
        do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
        if (new Set(comp.map(folderOf)).size > 1) components.push(comp);
      }
    }
  }
  return components.map((comp) => cycleThrough(graph, comp).join(' → '));
}

/** One cycle inside a strongly connected component, starting at its first file in sort order, that leaves that file's folder. */
function cycleThrough(graph: Graph, comp: string[]): string[] {
  const inComp = new Set(comp);
  const start = [...comp].sort()[0];
  // Breadth-first from start back to start, within the component: the shortest circle through it.
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v)!) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [...comp].sort();
}

function graphOf(files: string[]): Graph {
  return new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
}

const graph = graphOf(Object.keys(RANK).flatMap(filesUnder));

describe('the import graph of src and commands', () => {
  it('every folder of src has a rank (a new folder needs one), and every ranked folder exists', () => {
    const entries = fs.readdirSync(path.join(root, 'src')).filter((n) => !n.startsWith('.')).map((n) => `src/${n}`);
    expect(entries.filter((e) => RANK[e] === undefined)).toEqual([]);
    expect(Object.keys(RANK).filter((k) => !fs.existsSync(path.join(root, k)))).toEqual([]);
  });

  it('reads the imports it is meant to: static, dynamic, type-only and re-exports', () => {
    // main.ts's type-only and dynamic imports of the run kit and runtime, and runtime.ts's re-exports.
    expect(graph.get('src/cli/main.ts')).toEqual(expect.arrayContaining(['src/run/io.ts', 'src/run/context.ts', 'src/cli/runtime.ts', 'src/cli/help-topics.ts']));
    expect(graph.get('src/cli/runtime.ts')).toEqual(expect.arrayContaining(['src/run/context.ts', 'src/cli/error-text.ts']));
  });

  it('nothing imports a folder of a higher rank', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('no import circle spans two folders (the feature folders among themselves included)', () => {
    expect(circlesAcrossFolders(graph)).toEqual([]);
  });

  it('src/api imports neither the hint builder nor the sandbox, and the sandbox not src/api', () => {
    expect(forbiddenImports(graph)).toEqual([]);
  });

  it('the checks find what they are for, each naming the file and the import', () => {
    const planted: Graph = new Map([
      ['src/api/a.ts', ['src/core/suggest.ts', 'src/cli/x.ts']],
      ['src/core/suggest.ts', []],
      ['src/cli/x.ts', []],
      ['src/campaign/c.ts', ['src/send/s.ts']],
      ['src/send/s.ts', ['src/send/t.ts']],
      ['src/send/t.ts', ['src/campaign/c.ts']],
    ]);
    expect(upwardImports(planted)).toEqual(['src/api/a.ts imports src/cli/x.ts (src/api, rank 4, may not import src/cli, rank 7)']);
    expect(forbiddenImports(planted)).toEqual(['src/api/a.ts imports src/core/suggest.ts: the API layer builds no hints: src/cli/error-text.ts words its errors from their facts']);
    expect(circlesAcrossFolders(planted)).toEqual(['src/campaign/c.ts → src/send/s.ts → src/send/t.ts → src/campaign/c.ts']);
  });
});
