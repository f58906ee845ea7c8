// The import's accounting as a property (issue 9): for any CSV built from hostile pieces (every
// line end, quotes, commas, NULs, blanks, spaces, formula starts, odd unicode, ragged rows, a
// BOM, no final line end), fed in chunks of any size, every data record comes out exactly once:
// uploaded with its fields unchanged but the trimmed EMAIL, or rejected under the physical line
// it starts on with its fields as written. Bounded (runs, sizes) to take seconds.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { validateContacts } from '../src/import/validate.js';
import { UsageError } from '../src/cli/errors.js';
import { tempDir } from './helpers/cli.js';
import { build, EOLS, type Line } from './helpers/hostile-csv.js';

const PIECES = ['a', 'b', 'Z', '0', '@', '.', ',', '"', '""', ' ', '\t', '\r', '\n', '\r\n', '\u0000', '=', '+', '-', 'é', '中', '😀', '\u200b', '\u00a0', '\ufeff', "'"];
const piece = fc.constantFrom(...PIECES);
const text = fc.array(piece, { maxLength: 6 }).map((xs) => xs.join(''));
const email = fc.oneof(
  fc.nat({ max: 30 }).map((n) => `u${n}@example.com`),
  fc.tuple(fc.nat({ max: 30 }), fc.constantFrom('', ' ', '\t', '\u00a0')).map(([n, pad]) => `${pad}U${n}@Example.COM${pad}`),
  text,
);

const line = (cols: number) =>
  fc.record({
    kind: fc.constantFrom('row', 'row', 'row', 'row', 'blank', 'ragged'),
    email,
    rest: fc.array(text, { minLength: cols - 1, maxLength: cols - 1 }),
    extra: fc.array(text, { maxLength: 2 }),
    blank: fc.constantFrom([''], ['', ''], ['  '], ['\t', ' '], ['\n']),
    eol: fc.constantFrom(...EOLS),
    quote: fc.constantFrom<Line['quote']>('needed', 'needed', 'all'),
  }).map((l): Line => ({
    fields: l.kind === 'blank' ? [...l.blank] : l.kind === 'ragged' ? [l.email, ...l.rest, ...(l.extra.length ? l.extra : ['x'])] : [l.email, ...l.rest],
    eol: l.eol,
    quote: l.quote,
  }));

const csvFile = fc.nat({ max: 2 }).chain((extraCols) =>
  fc.record({
    extraCols: fc.constant(extraCols),
    lines: fc.array(line(2 + extraCols), { maxLength: 40 }),
    headerEol: fc.constantFrom(...EOLS),
    bom: fc.boolean(),
    finalEol: fc.boolean(),
    chunk: fc.integer({ min: 1, max: 97 }),
  }),
);

const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const asWritten = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

describe('every record uploaded or rejected, exactly once', () => {
  it('holds for generated CSVs fed in chunks of every size', async () => {
    let files = 0;
    let records = 0;
    await fc.assert(
      fc.asyncProperty(csvFile, async ({ extraCols, lines, headerEol, bom, finalEol, chunk }) => {
        const header = ['EMAIL', 'NAME', ...Array.from({ length: extraCols }, (_, i) => `F${i}`)];
        const f = build('generated', [{ fields: header, eol: headerEol }, ...lines], { bom, finalEol });
        const dir = tempDir('mailctl-prop-');
        const cleanedPath = path.join(dir, 'clean.csv');
        const chunks: Buffer[] = [];
        for (let i = 0; i < f.bytes.length; i += chunk) chunks.push(f.bytes.subarray(i, i + chunk));
        const run = validateContacts({ input: Readable.from(chunks), source: 'generated.csv', nameMaxLength: 100, cleanedPath, rejects: { path: path.join(dir, 'rejects.csv') } });
        try {
          if (!f.records.length) {
            // Stage 1: a header and no contacts is refused whole, leaving nothing behind.
            await expect(run).rejects.toBeInstanceOf(UsageError);
            expect(fs.readdirSync(dir)).toEqual([]);
            return;
          }
          const result = await run;
          files++;
          records += f.records.length;
          const rejects = result.rejectsPath ? (parse(fs.readFileSync(result.rejectsPath), { relax_column_count: true }) as string[][]).slice(1) : [];
          const byLine = new Map(f.records.map((r) => [r.line, r]));
          const rejected = new Set(rejects.map((r) => Number(r[0])));
          expect(rejected.size).toBe(rejects.length);
          for (const r of rejects) expect(r.slice(2)).toEqual(byLine.get(Number(r[0]))?.fields.map(asWritten));
          const kept = f.records.filter((r) => !rejected.has(r.line));
          expect(parse(fs.readFileSync(cleanedPath))).toEqual([header, ...kept.map((r) => [r.fields[0].trim(), ...r.fields.slice(1)])]);
          expect(result).toMatchObject({ read: f.records.length, valid: kept.length, rejected: rejects.length, blank: f.blank });
          // Nothing that was not quoted in the source carries a line break or a NUL upstream.
          for (const r of kept) for (const v of r.fields) expect(v).not.toContain('\u0000');
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.PROP_RUNS ?? 1000), seed: process.env.PROP_SEED ? Number(process.env.PROP_SEED) : 9 },
    );
    expect(files).toBeGreaterThan(100);
    console.info(`property test: ${files} generated files with records, ${records} records, all accounted`);
  }, 60_000);
});
