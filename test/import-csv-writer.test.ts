// A dry run counts the size of the upload it does not write (src/import/csv-writer.ts,
// csvLineBytes): it must be the size of the lines a real run writes, byte for byte, for any
// text — quotes, commas, line breaks, spaces at either end, every kind of character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine, csvLineBytes, plainLine, plainLineBytes } from '../src/import/csv-writer.js';

const written = (fields: string[]) => Buffer.byteLength(csvLine(fields), 'utf8');

describe('csvLineBytes', () => {
  it('is the UTF-8 size of the written line for every UTF-16 unit alone, at either end and inside a value', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const fields of [[ch], [`${ch}a`], [`a${ch}`], [`a${ch}b`], ['x', ch]]) {
        if (csvLineBytes(fields) !== written(fields)) expect({ c, fields, bytes: csvLineBytes(fields) }).toEqual({ c, fields, bytes: written(fields) });
      }
    }
  });

  it('is the UTF-8 size of the written line for any fields', () => {
    const unit = fc.oneof(
      fc.constantFrom('"', ',', '\r', '\n', ' ', '\t', '\u00a0', '\u3000', '\ufeff', 'a', 'é', '中', '😀', '\ud800', '\udc00', '\u2028'),
      fc.string({ unit: 'binary', maxLength: 3 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    const value = fc.array(unit, { maxLength: 8 }).map((xs) => xs.join(''));
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), (fields) => csvLineBytes(fields) === written(fields)), { numRuns: 5000 });
  });

  it('plainLine and plainLineBytes: the same line and size for values with no quote, comma or line break', () => {
    const unit = fc.oneof(
      fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\ufeff', '\u2028', '\v', 'a', 'é', '中', '😀', '\ud800', "'", '='),
      fc.string({ unit: 'binary', maxLength: 3 }).map((t) => t.replace(/[",\r\n]/g, '')),
    );
    const value = fc.array(unit, { maxLength: 8 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), (fields) => {
        const bytes = fields.reduce((n, f) => n + Buffer.byteLength(f, 'utf8'), 0);
        expect(plainLine(fields)).toBe(csvLine(fields));
        return plainLineBytes(fields, bytes) === written(fields);
      }),
      { numRuns: 5000 },
    );
  });

  it('counts the lines of the benchmark and the corpus as written', () => {
    for (const fields of [['EMAIL', 'NAME'], ['user00000001@mail1.example.com', 'User 00000001', '21', '2024-02-11'], ['', ''], ['a@b.co', ' padded '], ['a@b.co', 'Bob "the builder"'], ['a@b.co', 'Lin, Mei'], ['a@b.co', 'two\r\nlines']]) {
      expect(csvLineBytes(fields)).toBe(written(fields));
    }
  });
});
