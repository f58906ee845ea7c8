// The duplicate table decides a batch of addresses at once (stage, prefetch, firstLineStaged:
// issue 24.7); each must get the answer firstLine would have given it in file order — the first
// line of the same address, case-insensitively, or 0 the first time — also while a shard grows
// in the middle of a batch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeenEmails } from '../src/import/seen-emails.js';

function oneByOne(emails: string[]): number[] {
  const s = new SeenEmails(16);
  return emails.map((e, i) => s.firstLine(e, i + 2));
}

function batched(emails: string[], size: number): number[] {
  const s = new SeenEmails(16);
  const out: number[] = [];
  for (let from = 0; from < emails.length; from += size) {
    const batch = emails.slice(from, from + size);
    batch.forEach((e, k) => s.stage(k, e));
    s.prefetch(batch.length);
    batch.forEach((_, k) => out.push(s.firstLineStaged(k, from + k + 2)));
  }
  return out;
}

describe('the duplicate table in batches', () => {
  it('answers as one address at a time, through growth, for any addresses and batch sizes', () => {
    const email = fc.oneof(
      fc.nat({ max: 3000 }).map((n) => `user${n}@example.com`),
      fc.nat({ max: 3000 }).map((n) => `USER${n}@Example.COM`),
      fc.constantFrom('Zoë@exämple.com', 'ZOË@EXÄMPLE.COM', 'İ@x.co', 'i̇@x.co', 'ß@x.co', 'SS@x.co'),
    );
    fc.assert(
      fc.property(fc.array(email, { maxLength: 3000 }), fc.integer({ min: 1, max: SeenEmails.BATCH }), (emails, size) => {
        expect(batched(emails, size)).toEqual(oneByOne(emails));
      }),
      { numRuns: 30 },
    );
  });

  it('finds the first line of an address written in other capitals, across batches', () => {
    const emails = Array.from({ length: 5000 }, (_, i) => `user${i}@example.com`);
    emails.push('USER42@EXAMPLE.COM', 'User4999@Example.com', 'new@example.com');
    const got = batched(emails, SeenEmails.BATCH);
    expect(got.slice(0, 5000).every((x) => x === 0)).toBe(true);
    expect(got.slice(5000)).toEqual([44, 5001, 0]);
  });
});
