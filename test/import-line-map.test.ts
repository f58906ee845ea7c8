// src/import/line-map.ts: which line of the user's file each line of the cleaned upload came
// from, kept as the breakpoints where the two part (not a number per line), and built by the
// local check (src/import/validate.ts) as it writes the upload.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineMap } from '../src/import/line-map.js';
import { validateContacts } from '../src/import/validate.js';
import { tempDir } from './helpers/cli.js';

describe('LineMap', () => {
  it('maps each upload line through the last breakpoint before it, keeping only the gaps', () => {
    const m = new LineMap();
    m.add(1, 1); // header
    m.add(2, 2);
    m.add(3, 3); // same offset: not kept
    m.add(4, 6); // two lines of the input dropped before this record
    m.add(5, 7);
    m.add(6, 9);
    expect(m.size).toBe(3);
    expect([1, 2, 3, 4, 5, 6, 7].map((l) => m.sourceLineOf(l))).toEqual([1, 2, 3, 6, 7, 9, 10]);
    expect([0, -1, 2.5, NaN].map((l) => m.sourceLineOf(l))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('round-trips through its bytes, and refuses bytes that are not a map', () => {
    const m = new LineMap();
    for (const [u, s] of [[1, 3], [2, 4], [10, 20]]) m.add(u, s);
    const back = LineMap.fromBuffer(m.toBuffer())!;
    expect([1, 2, 9, 10, 11].map((l) => back.sourceLineOf(l))).toEqual([3, 4, 11, 20, 21]);
    expect(LineMap.fromBuffer(Buffer.alloc(7))).toBeUndefined();
    const backwards = Buffer.alloc(16);
    backwards.writeUInt32LE(5, 0); backwards.writeUInt32LE(5, 4); backwards.writeUInt32LE(3, 8); backwards.writeUInt32LE(9, 12);
    expect(LineMap.fromBuffer(backwards)).toBeUndefined();
  });

  it('a million rows with a thousand gaps keep the first line and a breakpoint per gap (8 KB), not a million numbers', () => {
    const m = new LineMap();
    let source = 1;
    for (let upload = 1; upload <= 1_000_000; upload++) {
      if (upload % 1000 === 0) source++; // a rejected row every thousand
      m.add(upload, source++);
    }
    expect(m.size).toBe(1001);
    expect(m.toBuffer().length).toBe(8008);
    expect(m.sourceLineOf(999_999)).toBe(999_999 + 999);
  });
});

describe('the local check records where each uploaded row came from', () => {
  it('across blank lines, rejected rows, a value over several lines and a dropped unnamed column', async () => {
    const dir = tempDir('mailctl-linemap-');
    const cleanedPath = path.join(dir, 'cleaned.csv');
    const input = [
      '', // a blank line before the header: skipped
      'EMAIL,NAME,NOTE,',
      'a@example.com,A,one,x', // source 3
      'bad-address,B,two,x', // 4: rejected
      '', // 5: blank
      'c@example.com,C,"three\nlines\nhere",x', // 6-8
      'd@example.com,D,four,"dropped\ncolumn"', // 9-10: the unnamed column (and its break) is not uploaded
      'e@example.com,E,five,x', // 11
      'A@example.com,dup,six,x', // 12: duplicate, rejected
      'f@example.com,F,seven,x', // 13
    ].join('\r\n');
    const r = await validateContacts({ input: Readable.from([Buffer.from(input)]), source: 'in.csv', nameMaxLength: 100, cleanedPath });
    expect(r.valid).toBe(5);
    // The upload, line by line as the service counts them (one per LF).
    const upload = fs.readFileSync(cleanedPath, 'utf8').split('\n');
    const startOf = (email: string) => upload.findIndex((l) => l.startsWith(email)) + 1;
    const expected: Array<[string, number]> = [['EMAIL', 2], ['a@example.com', 3], ['c@example.com', 6], ['d@example.com', 9], ['e@example.com', 11], ['f@example.com', 13]];
    for (const [email, line] of expected) expect(r.lineMap.sourceLineOf(startOf(email)), email).toBe(line);
    // A line inside the multi-line value maps inside the record.
    expect(r.lineMap.sourceLineOf(startOf('c@example.com') + 2)).toBe(8);
  });
});
