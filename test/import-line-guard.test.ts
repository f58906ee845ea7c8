// The guard behind the line-ending fix (issue 9 item 2): should the parser ever miss a line end
// again (here: a csv-parse that only knows CRLF, as the import had before), a value holding a
// line break that was not inside quotes is rejected, never uploaded into a neighbour's NAME.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from './helpers/cli.js';

vi.mock('csv-parse', async (importOriginal) => {
  const real = await importOriginal<typeof import('csv-parse')>();
  class CrlfOnlyParser extends real.Parser {
    constructor(options: Record<string, unknown>) {
      super({ ...options, record_delimiter: ['\r\n'] });
      const api = (this as unknown as { api: Record<string, unknown> }).api;
      const crlfOnly = (chr: number, buf: Buffer, pos: number) => (chr === 13 && buf[pos + 1] === 10 ? 2 : 0);
      // Whatever validate.ts installs, this parser keeps missing lone LFs and CRs.
      Object.defineProperty(api, '__isRecordDelimiter', { get: () => crlfOnly, set: () => {} });
    }
  }
  return { ...real, Parser: CrlfOnlyParser };
});

const { validateContacts } = await import('../src/import/validate.js');

describe('a line break outside quotes in a value', () => {
  it('rejects the row with its reason instead of uploading it; a quoted line break stays data', async () => {
    const dir = tempDir();
    const cleanedPath = path.join(dir, 'clean.csv');
    const input = 'EMAIL,NAME,PLAN\r\nu0@example.com,Ann\nu1@example.com,Bob\r\nu2@example.com,Cy,"pro\nplus"\r\n';
    const r = await validateContacts({ input: Readable.from([Buffer.from(input)]), source: 'mixed.csv', nameMaxLength: 100, cleanedPath, rejects: { path: path.join(dir, 'rejects.csv') } });
    expect(r).toMatchObject({ read: 2, valid: 1, rejected: 1, reasons: { 'control-character': 1 } });
    expect(fs.readFileSync(cleanedPath, 'utf8')).toBe('EMAIL,NAME,PLAN\nu2@example.com,Cy,"pro\nplus"\n');
    expect(fs.readFileSync(r.rejectsPath!, 'utf8')).toContain('NAME holds a line break that is not inside double quotes');
  });
});
