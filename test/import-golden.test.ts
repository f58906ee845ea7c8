// The import's output pinned byte for byte (issue 24.7): the speed work on src/import must not
// change what a check accepts, rejects or writes. For every file of the hostile corpus, a file
// with typed custom fields and a slice of the benchmark's file, the cleaned upload, the rejects
// file and the line map are hashed and compared with test/golden/import-outputs.json, written by
// the code before that work (a refused file: its sentence and hint). The same check fed in odd
// chunks must give the same bytes, and a dry run (nothing written) the same counts and the
// upload's exact size.
//
// Regenerate only when an output change is intended, and say so in the commit:
//   MAILCTL_WRITE_GOLDEN=1 npx vitest run test/import-golden.test.ts
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { validateContacts, type ValidateOptions } from '../src/import/validate.js';
import { UsageError } from '../src/core/errors.js';
import { tempDir } from './helpers/cli.js';
import { build, hostileCorpus, rng, type Line } from './helpers/hostile-csv.js';

const GOLDEN = path.join(import.meta.dirname, 'golden', 'import-outputs.json');
const writing = !!process.env.MAILCTL_WRITE_GOLDEN;
const golden: Record<string, Outcome> = writing ? {} : JSON.parse(fs.readFileSync(GOLDEN, 'utf8'));

interface Case {
  name: string;
  bytes: Buffer;
  options?: Partial<ValidateOptions>;
}

type Outcome =
  | { refused: string; hint?: string }
  | { cleaned: string; rejects: string | null; lineMap: string; summary: Record<string, unknown> };

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Custom fields of every type, with values that fit and values that do not. */
function typedFile(): Buffer {
  const r = rng(24);
  const ages = ['30', ' 42 ', '-7', '+3', '.5', '1.', '1e5', '1,000', 'thirty', '', ' ', '0x10', '٣'];
  const dates = ['2024-01-31', '2024/12/01', '2024-2-3', '2024-02-30', '0001-01-01', '9999-12-31', '2024-13-01', '31/01/2024', '', '2024-01-31T10:00', ' 2024-01-01 '];
  const lines: Line[] = [{ fields: ['EMAIL', 'NAME', 'AGE', 'JOINED', 'CITY', ''], eol: '\n' }];
  for (let i = 0; i < 600; i++) {
    const email = r() < 0.05 ? `T${Math.floor(r() * (i + 1))}@Example.com` : `t${i}@example.com`;
    const name = r() < 0.03 ? 'n'.repeat(90 + Math.floor(r() * 20)) : `Name ${i}`;
    lines.push({ fields: [email, name, ages[Math.floor(r() * ages.length)], dates[Math.floor(r() * dates.length)], r() < 0.1 ? 'Taipei,\nTW' : 'Oslo', r() < 0.2 ? 'x\ny' : ''], eol: r() < 0.5 ? '\n' : '\r\n' });
  }
  return build('typed', lines).bytes;
}

/** The first rows of the benchmark's file (bench/import.mjs: 0.1 % invalid, 0.1 % duplicates by case). */
function benchSlice(rows: number): Buffer {
  let s = 'EMAIL,NAME,AGE,JOINED\n';
  for (let i = 1; i <= rows; i++) {
    const id = String(i).padStart(8, '0');
    let email = `user${id}@mail${i % 97}.example.com`;
    if (i % 1000 === 7) email = `broken${id}.example.com`;
    if (i % 1000 === 13) email = `USER${String(i - 1).padStart(8, '0')}@mail${(i - 1) % 97}.example.com`;
    s += `${email},User ${id},${20 + (i % 60)},2024-0${1 + (i % 9)}-1${i % 10}\n`;
  }
  return Buffer.from(s);
}

const cases: Case[] = [
  ...hostileCorpus().map((f) => ({ name: f.name, bytes: f.bytes })),
  { name: 'typed-fields', bytes: typedFile(), options: { fieldTypes: { AGE: 'number', JOINED: 'date', CITY: 'string' } } },
  { name: 'typed-fields-short-names', bytes: typedFile(), options: { fieldTypes: { AGE: 'number', JOINED: 'date' }, nameMaxLength: 95 } },
  { name: 'bench-slice', bytes: benchSlice(30_000), options: { fieldTypes: { AGE: 'number', JOINED: 'date' } } },
];

const chunked = (b: Buffer, size: number) => {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
};

/** One check of `c` fed in chunks of `chunk` bytes: what it wrote, or the sentence that refused the file. */
async function outcome(c: Case, chunk: number, dry = false): Promise<Outcome & { cleanedSize?: number }> {
  const dir = tempDir('mailctl-golden-');
  try {
    const cleanedPath = dry ? undefined : path.join(dir, 'clean.csv');
    const rejectsPath = path.join(dir, 'rejects.csv');
    const result = await validateContacts({
      input: Readable.from(chunked(c.bytes, chunk)), source: `${c.name}.csv`, nameMaxLength: 100, sizeHint: c.bytes.length,
      cleanedPath, rejects: dry ? undefined : { path: rejectsPath }, ...c.options,
    }).catch((e: unknown) => {
      if (e instanceof UsageError) return e;
      throw e;
    });
    if (result instanceof UsageError) return { refused: result.message, hint: result.hint };
    const { read, valid, rejected, blank, reasons, cleanedBytes, encoding, warnings, header } = result;
    const summary = { read, valid, rejected, blank, reasons, cleanedBytes, encoding, warnings, header: sha(Buffer.from(JSON.stringify(header))), lineMapSize: result.lineMap.size };
    if (dry) return { cleaned: '', rejects: null, lineMap: sha(result.lineMap.toBuffer()), summary };
    const cleaned = fs.readFileSync(cleanedPath!);
    return {
      cleaned: sha(cleaned),
      rejects: result.rejectsPath ? sha(fs.readFileSync(result.rejectsPath)) : null,
      lineMap: sha(result.lineMap.toBuffer()),
      summary,
      cleanedSize: cleaned.length,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

afterAll(() => {
  if (writing) {
    fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
    fs.writeFileSync(GOLDEN, `${JSON.stringify(golden, null, 1)}\n`);
  }
});

describe('the import writes the same bytes as before the speed work', () => {
  it('covers every corpus file and the extra cases', () => {
    if (writing) return;
    expect(Object.keys(golden).sort()).toEqual(cases.map((c) => c.name).sort());
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: cleaned upload, rejects file and line map as pinned', async (_name, c) => {
    // The CLI reads 256 KiB at a time; 64 KiB puts chunk ends inside the larger files too.
    const got = await outcome(c, 1 << 16);
    const { cleanedSize, ...pinned } = got;
    if (writing) golden[c.name] = pinned;
    else expect(pinned).toEqual(golden[c.name]);
    if ('summary' in got) expect(got.summary.cleanedBytes).toBe(cleanedSize);

    // Where the input is cut must not matter: a few bytes at a time for the small files, an odd
    // size for the large ones (csv-parse re-joins a pending value at every chunk).
    const odd = await outcome(c, c.bytes.length < 50_000 ? 7 : 4099);
    delete odd.cleanedSize;
    expect(odd).toEqual(pinned);

    // A dry run writes nothing but counts the same rows and the upload's exact size.
    const dry = await outcome(c, 1 << 16, true);
    if ('refused' in pinned) expect(dry).toEqual(pinned);
    else expect(dry).toMatchObject({ lineMap: pinned.lineMap, summary: pinned.summary });
  });
});
