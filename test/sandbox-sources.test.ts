// The sandbox reads the specs on its own (issue 14 item 5): no file under src/sandbox imports the
// client's API layer (src/api), so the emulator cannot silently share the client's reading of a
// response shape, and the client's tolerant branches meet shapes it did not write.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SANDBOX = path.join(ROOT, 'src', 'sandbox');
const API = path.join(ROOT, 'src', 'api');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Every module a file names: static imports and re-exports, `import type`, and dynamic import(). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) out.push(m[1]);
  return out;
}

describe('src/sandbox stands on its own', () => {
  it('no sandbox file imports anything under src/api', () => {
    const files = sources(SANDBOX);
    expect(files.length).toBeGreaterThan(20);
    const offending: string[] = [];
    for (const f of files) {
      for (const s of specifiers(fs.readFileSync(f, 'utf8'))) {
        if (!s.startsWith('.')) continue;
        const target = path.resolve(path.dirname(f), s);
        if (target === API || target.startsWith(API + path.sep)) offending.push(`${path.relative(ROOT, f)} → ${s}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('the check sees an import of src/api when there is one (it is not vacuous)', () => {
    expect(specifiers("import type { Group } from '../../api/campaign-types.js';\nconst m = await import('../api/http.js');")).toEqual(['../../api/campaign-types.js', '../api/http.js']);
  });
});
