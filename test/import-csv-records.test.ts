// src/import/csv-records.ts replaces csv-parse's per-byte helpers with ones specialised to the
// import's dialect (issue 24.7). They must read every file exactly as csv-parse's own do: same
// records, same fields, same line count, same errors, wherever the chunks are cut. And the
// quoted-field indexes it reports must be the fields the file really quoted, and the sizes it
// notes the values' own.
import fc from 'fast-check';
import { Parser } from 'csv-parse';
import { describe, expect, it, vi } from 'vitest';
import { csvRecords, type CsvApi, type RecordNotes } from '../src/import/csv-records.js';
import { hostileCorpus, physicalRecords } from './helpers/hostile-csv.js';

const OPTIONS = { relax_column_count: true, relax_quotes: true, bom: true, skip_empty_lines: false, record_delimiter: ['\r\n', '\n', '\r'] };

interface Read {
  records: string[][];
  quoted?: number[][];
  lines: number[];
  error?: string;
}

/** Feeds `bytes` in chunks of `size` to a parser; the records, csv-parse's line count after each, and the error that stopped it. */
function read(api: CsvApi, bytes: Buffer, size: number, quoted?: number[], notes?: RecordNotes): Read {
  const out: Read = { records: [], lines: [], quoted: quoted ? [] : undefined };
  const push = (rec: string[]) => {
    out.records.push(rec);
    out.lines.push(api.info.lines);
    if (notes) {
      // The sizes the parser noted are the values' UTF-8 sizes; a record it saw no quote in has no value that needs one.
      expect([notes.bytes, notes.firstBytes]).toEqual([rec.reduce((n, v) => n + Buffer.byteLength(v), 0), Buffer.byteLength(rec[0])]);
      if (!notes.quote) expect(rec.filter((v) => /[",\r\n]/.test(v))).toEqual([]);
      notes.bytes = 0;
      notes.quote = false;
    }
    if (quoted) {
      out.quoted!.push([...quoted]);
      quoted.length = 0;
    }
  };
  for (let i = 0; i <= bytes.length; i += size) {
    const end = i + size >= bytes.length;
    const err = api.parse(bytes.length ? bytes.subarray(i, i + size) : undefined, false, push, () => {}) ?? (end ? api.parse(undefined, true, push, () => {}) : undefined);
    if (err) {
      out.error = `${(err as Error & { code?: string }).code}: ${err.message}`;
      break;
    }
    if (end) break;
  }
  return out;
}

const own = () => (new Parser(OPTIONS) as unknown as { api: CsvApi }).api;

function same(bytes: Buffer, size: number) {
  const { api, quoted, notes } = csvRecords();
  const ours = read(api, bytes, size, quoted, notes);
  const theirs = read(own(), bytes, size);
  expect({ ...ours, quoted: undefined }).toEqual(theirs);
  return ours;
}

/** The corpus as the parser gets it: UTF-8 (the UTF-16 files decoded, as src/import/encoding.ts does). */
const utf8Corpus = hostileCorpus().map((f) => {
  const be = f.bytes[0] === 0xfe && f.bytes[1] === 0xff;
  const le = f.bytes[0] === 0xff && f.bytes[1] === 0xfe;
  const text = be ? new TextDecoder('utf-16be').decode(f.bytes) : le ? new TextDecoder('utf-16le').decode(f.bytes) : f.bytes.toString('utf8');
  return { name: f.name, bytes: Buffer.from(text, 'utf8'), text };
});

describe('the specialised parser reads as csv-parse does', () => {
  it.each(utf8Corpus.map((f) => [f.name, f] as const))('%s: same records, lines and errors in any chunking', (_name, f) => {
    const whole = same(f.bytes, Math.max(1, f.bytes.length));
    for (const size of f.bytes.length < 50_000 ? [1, 2, 3, 7, 64] : [4099]) {
      expect(same(f.bytes, size).records).toEqual(whole.records);
    }
  });

  it('reports the quoted fields of every record as the file quotes them', () => {
    let checked = 0;
    for (const f of utf8Corpus) {
      if (f.text.includes('\0')) continue; // the model reads a quote before a NUL differently; the records themselves are compared above
      const model = physicalRecords(f.text);
      if (model.unclosed || !model.header) continue;
      const { api, quoted } = csvRecords();
      const ours = read(api, f.bytes, 1 << 16, quoted);
      const nonBlank = ours.records.map((r, i) => [r, ours.quoted![i]] as const).filter(([r]) => r.some((v) => v.trim() !== ''));
      const expected = [model.header!, ...model.records.map((r) => r.fields)];
      expect(nonBlank.map(([r]) => r)).toEqual(expected);
      const modelQuoted = model.records.map((r) => r.quoted.flatMap((q, i) => (q ? [i] : [])));
      expect(nonBlank.slice(1).map(([, q]) => q)).toEqual(modelQuoted);
      checked += model.records.length;
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it('on any text of CSV pieces', () => {
    const PIECES = ['a', 'Z', '0', '@', ',', '"', '""', ' ', '\t', '\r', '\n', '\r\n', '\u0000', 'é', '中', '😀', '\u00a0', '\ufeff'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }), fc.integer({ min: 1, max: 9 }), fc.boolean(), (pieces, size, bom) => {
        const bytes = Buffer.from((bom ? '\ufeff' : '') + pieces.join(''), 'utf8');
        same(bytes, size);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses to run over a parser that is not the one it was written for', async () => {
    // Another dialect stands in for a csv-parse whose options or helpers changed.
    vi.resetModules();
    vi.doMock('csv-parse', async (load) => {
      const m = await load<typeof import('csv-parse')>();
      class Other extends m.Parser {
        constructor(o: object) {
          super({ ...o, delimiter: ';' });
        }
      }
      return { ...m, Parser: Other };
    });
    try {
      const { csvRecords: changed } = await import('../src/import/csv-records.js');
      expect(() => changed()).toThrow(/csv-parse changed/);
    } finally {
      vi.doUnmock('csv-parse');
      vi.resetModules();
    }
  });
});
