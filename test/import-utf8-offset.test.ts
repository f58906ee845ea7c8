// The invalid-UTF-8 refusal names the real file offset (0-based) of the first byte that is not part
// of a valid character, wherever the input's chunks happen to be cut — at the bad byte, inside the
// character before it, inside the bad sequence itself. It used to name the start of the chunk the
// check failed in (or of a character carried over from the previous chunk), so the same file gave
// different, wrong offsets depending on read sizes. Python's decoder (UnicodeDecodeError.start)
// is the independent reference for random damage.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Utf8Check } from '../src/import/encoding.js';
import { validateContacts } from '../src/import/validate.js';
import { UsageError } from '../src/core/errors.js';
import { runCli, tempDir } from './helpers/cli.js';

/** The offset the check names for `buf` fed in the given chunk sizes (cycled), or undefined when it accepts it. */
function offsetNamed(buf: Buffer, sizes: number[]): number | undefined {
  const c = new Utf8Check('f.csv');
  try {
    let at = 0;
    for (let k = 0; at < buf.length; k++) {
      const n = sizes[k % sizes.length];
      c.push(buf.subarray(at, at + n));
      at += n;
    }
    c.end();
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const m = /the first invalid byte is at offset (\d+), counting from 0/.exec((e as Error).message);
    expect(m, (e as Error).message).not.toBeNull();
    return Number(m![1]);
  }
}

/** Every way of cutting `buf` in two, and a few steady chunk sizes. */
function cuttings(buf: Buffer): number[][] {
  const out: number[][] = [[buf.length], [1], [2], [3], [5], [7], [4096]];
  for (let cut = 1; cut < buf.length; cut++) out.push([cut, buf.length]);
  return out;
}

// Valid text around the damage: characters of 1, 2, 3 and 4 bytes, so cuts fall inside each kind.
const BEFORE = Buffer.from('EMAIL,NAME\nann@example.com,Renée 陳 😀\nbob@example.com,');
const AFTER = Buffer.from(',ok 中\n');

const DAMAGE: Array<[string, number[], boolean?]> = [
  ['a stray continuation byte', [0x80]],
  ['a byte never in UTF-8 (FF)', [0xff]],
  ['an overlong form (C0 AF)', [0xc0, 0xaf]],
  ['an overlong 3-byte form (E0 80 80)', [0xe0, 0x80, 0x80]],
  ['a UTF-16 surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ['a lead byte F5', [0xf5, 0x80, 0x80, 0x80]],
  ['a 3-byte character cut short by ASCII (E4 B8 41)', [0xe4, 0xb8]],
  ['a 4-byte character cut short by ASCII (F0 9F 98 41)', [0xf0, 0x9f, 0x98]],
  ['Big5 (中文: A4 A4 A4 E5)', [0xa4, 0xa4, 0xa4, 0xe5]],
  ['a character cut off at the end of the file', [0xe4, 0xb8], true],
];

describe('the offset of the first invalid byte, at every chunk border', () => {
  it.each(DAMAGE)('%s', (_what, bytes, atEnd) => {
    const buf = Buffer.concat([BEFORE, Buffer.from(bytes), atEnd ? Buffer.alloc(0) : AFTER]);
    // The damage starts right after BEFORE, which is valid and ends on a whole character.
    for (const sizes of cuttings(buf)) expect(offsetNamed(buf, sizes), `chunks ${sizes.join(',')}`).toBe(BEFORE.length);
  });

  it('a valid file is accepted however it is cut', () => {
    const buf = Buffer.concat([BEFORE, AFTER]);
    for (const sizes of cuttings(buf)) expect(offsetNamed(buf, sizes)).toBeUndefined();
  });

  const python = spawnSync('python3', ['-c', 'print(1)'], { encoding: 'utf8' });
  it.skipIf(python.status !== 0)('random damage anywhere: the same offset as Python\'s decoder reports (UnicodeDecodeError.start)', () => {
    let seed = 19;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const base = Buffer.concat([BEFORE, Buffer.from('Zoë 王小明 🎉 naïve café ✓ '.repeat(8)), AFTER]);
    const cases = Array.from({ length: 300 }, () => {
      const buf = Buffer.from(base);
      // One to three bytes overwritten with anything, at random places.
      for (let k = 0, n = 1 + rand(3); k < n; k++) buf[rand(buf.length)] = rand(256);
      return buf;
    });
    const script = 'import json, sys\nfor line in sys.stdin:\n  b = bytes.fromhex(line.strip())\n  try:\n    b.decode("utf-8"); print(-1)\n  except UnicodeDecodeError as e:\n    print(e.start)';
    const r = spawnSync('python3', ['-c', script], { input: cases.map((b) => b.toString('hex')).join('\n') + '\n', encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const expected = r.stdout.trim().split('\n').map(Number);
    let damaged = 0;
    for (const [i, buf] of cases.entries()) {
      const want = expected[i] < 0 ? undefined : expected[i];
      if (want !== undefined) damaged++;
      for (const sizes of [[buf.length], [1 + rand(9)], [1 + rand(64), 1 + rand(5)]]) expect(offsetNamed(buf, sizes), `case ${i}, chunks ${sizes}`).toBe(want);
    }
    expect(damaged).toBeGreaterThan(100);
  });
});

describe('as the import reports it', () => {
  it('validateContacts, read in small chunks: the offset in the sentence, the Big5 hint kept', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `u${i}@example.com,User ${i}`).join('\n');
    const head = Buffer.from(`EMAIL,NAME\n${rows}\nz@example.com,`);
    const bad = Buffer.concat([head, Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]), Buffer.from('\n')]);
    for (const size of [1000, 777, 4096, 65536]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bad.length; i += size) chunks.push(bad.subarray(i, i + size));
      const dir = tempDir('mailctl-utf8-');
      const e = await validateContacts({ input: Readable.from(chunks), source: 'contacts.csv', nameMaxLength: 100, cleanedPath: path.join(dir, 'c.csv'), rejects: { path: path.join(dir, 'r.csv') } }).then(() => undefined, (x) => x);
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toContain(`(the first invalid byte is at offset ${head.length}, counting from 0)`);
      expect((e as UsageError).hint).toMatch(/--encoding big5/);
    }
  });

  it('mailctl import: exit 2, the sentence with the offset, nothing sent', async () => {
    const file = path.join(tempDir('mailctl-utf8-'), 'contacts.csv');
    fs.writeFileSync(file, Buffer.concat([BEFORE, Buffer.from([0xc0, 0xaf]), AFTER]));
    const r = await runCli(['import', file, '--group', 'G', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`is not valid UTF-8 (the first invalid byte is at offset ${BEFORE.length}, counting from 0)`);
  });
});
