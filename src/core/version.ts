// Not `import fs from 'node:fs'`: that ESM facade copies every export of fs, and its lazy
// ReadStream getter then loads all of streams on each start-up (~3 ms).
const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');

let cached: string | undefined;

/** The version in package.json, found by walking up from this file (src/ or dist/src/). */
export function version(): string {
  return (cached ??= String(ownPackage()?.pkg.version ?? '0.0.0'));
}

/** The folder mailctl is installed in (the one holding its package.json, examples/ and dist/). */
export function packageDir(): string | undefined {
  const found = ownPackage();
  return found && decodeURIComponent(found.dir.pathname);
}

function ownPackage(): { dir: URL; pkg: { version?: unknown } } | undefined {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(new URL('package.json', dir), 'utf8'));
      if (pkg.name === 'mailctl') return { dir, pkg };
    } catch {
      /* keep walking */
    }
    dir = new URL('..', dir);
  }
  return undefined;
}
