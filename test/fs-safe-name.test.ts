// src/fs/safe-name.ts: a name a server chose becomes part of a path only as letters, digits,
// `-`, `_` and single dots — never a separator, `..` or a leading dot — or it is refused.
import path from 'node:path';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeFileName, uniqueSafeName } from '../src/fs/safe-name.js';
import { CliError, ExitCode } from '../src/core/errors.js';

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

function refusal(raw: unknown): CliError {
  try {
    safeFileName(raw, 'import code');
  } catch (e) {
    if (e instanceof CliError) return e;
    throw e;
  }
  throw new Error(`${JSON.stringify(raw)} was not refused`);
}

describe('safeFileName', () => {
  it.each([
    ['x/../../../../tmp/evil', 'x_________tmp_evil'],
    ['..\\..\\windows\\system32', 'windows_system32'],
    ['/etc/passwd', 'etc_passwd'],
    ['a/b', 'a_b'],
  ])('traversal %j → %j: no separator, no ..', (raw, want) => {
    expect(safeFileName(raw, 'import code')).toBe(want);
  });

  it.each([
    ['.hidden', 'hidden'],
    ['a..b', 'a_b'],
    ['CP1.v2', 'CP1.v2'],
    ['-rf', 'rf'],
    ['name.', 'name.'],
  ])('dots and leading marks %j → %j', (raw, want) => {
    expect(safeFileName(raw, 'report type')).toBe(want);
  });

  it.each([
    ['ＣＰ１', 'CP1'], // full-width forms fold to ASCII (NFKC)
    ['café', 'caf_'],
    ['invoice\u202egpj.exe', 'invoice_gpj.exe'],
    ['Title\u001b]0;owned\u0007', 'Title_0_owned_'],
  ])('unicode and controls %j → %j', (raw, want) => {
    expect(safeFileName(raw, 'report type')).toBe(want);
  });

  it('a number is used as digits; the result is at most 80 characters', () => {
    expect(safeFileName(12345, 'import code')).toBe('12345');
    expect(safeFileName('A'.repeat(500), 'import code')).toBe('A'.repeat(80));
  });

  it.each([[''], ['..'], ['...'], ['/'], ['../..'], ['日本語'], ['\u001b]\u0007'], [' '], [null], [undefined], [{ sn: 'x' }], [['a']]])('%j reduces to nothing usable: refused (exit 1, BAD_RESPONSE)', (raw) => {
    const e = refusal(raw);
    expect(e.exitCode).toBe(ExitCode.FAILED);
    expect(e.facts).toMatchObject({ code: 'BAD_RESPONSE', reached: 'yes' });
    expect(e.message).toMatch(/^The service gave the import code ".*", which cannot be made into a safe file name; nothing was written\.$/);
  });

  it('the refusal shows the name with its controls made visible', () => {
    expect(refusal('\u001b]\u0007..').message).toContain('"\\e]\\x07.."');
  });

  it('whatever the server says: refused, or a plain name that stays inside the folder', () => {
    const dir = path.resolve('/srv/reports');
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: fc.constantFrom('.', '/', '\\', 'a', '\u0000', '\u202e', 'Ａ', '-', '_'), maxLength: 40 })), (raw) => {
      let name: string;
      try {
        name = safeFileName(raw, 'report type');
      } catch (e) {
        expect(e).toBeInstanceOf(CliError);
        return;
      }
      expect(name).toMatch(SAFE);
      expect(name).not.toContain('..');
      expect(path.dirname(path.resolve(dir, `${name}.csv`))).toBe(dir);
    }), { numRuns: 1000 });
  });
});

describe('uniqueSafeName', () => {
  it('a name already safe is kept as it is (folders made before stay valid)', () => {
    for (const raw of ['CP123', 'a_b', 'CP1.v2', 'constructor']) expect(uniqueSafeName(raw, 'campaign code')).toBe(raw);
  });

  it('a name that had to change gets _ and 8 hex of its sha256: a/b and a_b stay apart', () => {
    expect(uniqueSafeName('a/b', 'campaign code')).toBe(`a_b_${createHash('sha256').update('a/b').digest('hex').slice(0, 8)}`);
    expect(uniqueSafeName('a/b', 'campaign code')).not.toBe(uniqueSafeName('a_b', 'campaign code'));
    expect(uniqueSafeName('__proto__', 'campaign code')).toMatch(/^proto___[0-9a-f]{8}$/);
  });

  it('refuses what safeFileName refuses', () => {
    expect(() => uniqueSafeName('../', 'campaign code')).toThrow(CliError);
  });

  it('distinct names that change never meet, and the same name always gives the same result', () => {
    const dir = path.resolve('/srv/reports');
    const unsafe = fc.string({ unit: fc.constantFrom('.', '/', '\\', 'a', 'b', '\u202e', 'Ａ', '-', '_', ' '), minLength: 1, maxLength: 12 });
    fc.assert(fc.property(unsafe, unsafe, (x, y) => {
      let a: string, b: string;
      try {
        a = uniqueSafeName(x, 'campaign code');
        b = uniqueSafeName(y, 'campaign code');
      } catch {
        return;
      }
      expect(uniqueSafeName(x, 'campaign code')).toBe(a);
      if (x !== y) expect(a).not.toBe(b);
      expect(a).not.toContain('..');
      expect(path.dirname(path.resolve(dir, `${a}.csv`))).toBe(dir);
    }), { numRuns: 1000 });
  });
});
