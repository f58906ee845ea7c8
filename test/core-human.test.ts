// src/core/human.ts: sizes and counts as a person reads them on stderr (raw numbers stay in
// TSV and --json, which these functions never feed).
import { describe, expect, it } from 'vitest';
import { bytes, bytesOf, count, plural } from '../src/core/human.js';

describe('bytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1023, '1,023 B'],
    [4096, '4.0 KB'], // the import of a small file once read "Uploaded 0.0 MB"
    [4300, '4.2 KB'],
    [12_345, '12 KB'],
    [1_048_575, '1.0 MB'],
    [1_572_864, '1.5 MB'],
    [500 * 1048576, '500 MB'],
    [3 * 1024 ** 3, '3.0 GB'],
  ])('%d → %s', (n, text) => expect(bytes(n)).toBe(text));

  it('progress is shown in the unit of the total', () => {
    expect(bytesOf(1024, 4096)).toBe('1.0 of 4.0 KB');
    expect(bytesOf(512 * 1024, 20 * 1048576)).toBe('0.5 of 20 MB');
    expect(bytesOf(100, 900)).toBe('100 of 900 B');
  });
});

describe('count and plural', () => {
  it('group thousands and pick the noun', () => {
    expect(count(1234567)).toBe('1,234,567');
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(12000, 'row')).toBe('12,000 rows');
    expect(plural(2, 'recipient is', 'recipients are')).toBe('2 recipients are');
  });

  it('group every count as en-US does, whole or not', () => {
    const en = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
    const values = [0, -0, 1, 12, 123, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 1234567, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1e300, -1, -1234.5, 0.5, 1.5, 2.5, 999.5, 1234.49, NaN, Infinity, -Infinity];
    for (let i = 0, x = 7; i < 2000; i++) values.push((x = (x * 48271) % 2147483647) % 10 ** (1 + (i % 16)), x * (i + 1) * 4099);
    for (const v of values) expect([v, count(v)]).toEqual([v, Number.isFinite(v) ? en(v) : String(v)]);
  });
});
