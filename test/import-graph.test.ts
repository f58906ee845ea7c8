// The layers of src, read from the import statements themselves (no tool needed): core ← fs ←
// config ← api ← the feature folders ← cli ← commands (docs/ARCHITECTURE.md). A lower layer
// importing a higher one, or an import circle spanning two folders, fails here — for the folders
// in ENFORCED, the ones already layered. The rest are listed in NOT_YET: extend ENFORCED as each
// is cleaned up (issue 24 item 1), until NOT_YET is empty and every folder is held to it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Each folder (or top-level file) of src, and its layer: an import may only point to the same or a lower one. */
const LAYER: Record<string, number> = {
  'src/core': 0,
  'src/spec': 0,
  'src/fs': 1,
  'src/config': 2,
  'src/api': 3,
  // the feature folders, between the API and the CLI
  'src/campaign': 4, 'src/send': 4, 'src/import': 4, 'src/report': 4, 'src/webhook': 4, 'src/events': 4,
  'src/contacts': 4, 'src/sandbox': 4, 'src/store': 4, 'src/mcp': 4, 'src/groups': 4,
  'src/run': 5,
  'src/cli': 5,
  commands: 6,
};

/** Folders held to the rule now: nothing in them imports upward or sits in a circle with another folder. */
const ENFORCED = ['src/core', 'src/spec', 'src/api'];
/** Folders not layered yet (their upward imports are known); move each to ENFORCED once it is clean. */
const NOT_YET = ['src/fs', 'src/config', 'src/campaign', 'src/send', 'src/import', 'src/report', 'src/webhook', 'src/events', 'src/contacts', 'src/sandbox', 'src/store', 'src/mcp', 'src/groups', 'src/run', 'src/cli', 'commands'];

function filesUnder(dir: string): string[] {
  const abs = path.join(root, dir);
  if (fs.statSync(abs).isFile()) return [dir];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The folder (a LAYER key) a file belongs to. */
function folderOf(file: string): string | undefined {
  return Object.keys(LAYER).find((k) => file === k || file.startsWith(`${k}/`));
}

/** Every relative import of a file (static, dynamic and type-only alike: each is a dependency on the other's shape), resolved to a .ts path. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) out.push(path.normalize(path.join(path.dirname(file), m[1])).replace(/\.js$/, '.ts'));
  return out;
}

const files = Object.keys(LAYER).flatMap(filesUnder);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));

describe('the import graph of src and commands', () => {
  it('every folder is either held to the layers or listed as not yet', () => {
    expect([...ENFORCED, ...NOT_YET].sort()).toEqual(Object.keys(LAYER).sort());
  });

  it('every folder and top-level file of src has a layer (a new folder needs one)', () => {
    const entries = fs.readdirSync(path.join(root, 'src')).filter((n) => !n.startsWith('.')).map((n) => `src/${n}`);
    expect(entries.filter((e) => LAYER[e] === undefined)).toEqual([]);
  });

  it.each(ENFORCED)('%s imports nothing from a higher layer', (folder) => {
    const upward = [...graph].filter(([f]) => folderOf(f) === folder).flatMap(([f, targets]) =>
      targets.filter((t) => LAYER[folderOf(t)!] > LAYER[folder]).map((t) => `${f} → ${t}`));
    expect(upward).toEqual([]);
  });

  it.each(ENFORCED)('%s is in no import circle with another folder', (folder) => {
    // Strongly connected components (Tarjan), iterative; a component spanning two folders is a circle between them.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const circles: string[][] = [];
    let next = 0;
    for (const start of graph.keys()) {
      if (index.has(start)) continue;
      const work: Array<[string, number]> = [[start, 0]];
      index.set(start, next); low.set(start, next++); stack.push(start); on.add(start);
      while (work.length) {
        const [v, i] = work[work.length - 1];
        const targets = graph.get(v)!;
        if (i < targets.length) {
          work[work.length - 1][1]++;
          const w = targets[i];
          if (!index.has(w)) {
            index.set(w, next); low.set(w, next++); stack.push(w); on.add(w);
            work.push([w, 0]);
          } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
          continue;
        }
        work.pop();
        if (work.length) low.set(work[work.length - 1][0], Math.min(low.get(work[work.length - 1][0])!, low.get(v)!));
        if (low.get(v) === index.get(v)) {
          const comp: string[] = [];
          let w: string;
          do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
          if (new Set(comp.map(folderOf)).size > 1) circles.push(comp);
        }
      }
    }
    const mine = circles.filter((c) => c.some((f) => folderOf(f) === folder)).map((c) => c.sort().join(' ↔ '));
    expect(mine).toEqual([]);
  });
});
