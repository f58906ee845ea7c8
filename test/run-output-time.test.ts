// src/run/output/time.ts and src/run/output/width.ts: the services' times read by declaration (ISO 8601,
// UTC when no offset is given; endpoint 15's "yyyy/MM/dd HH:mm:ss" in UTC), shown as UTC ISO for
// scripts and in the reader's zone for a person; a table's cells measured in terminal columns.
import { describe, expect, it } from 'vitest';
import { isoUtc, localStamp, localTime, readServiceTime, relativeTime, zoneOf } from '../src/run/output/time.js';
import { displayWidth, padTo } from '../src/run/output/width.js';

const T = Date.UTC(2026, 10, 28, 21, 3, 31);

describe('readServiceTime', () => {
  it.each([
    ['2026-11-28T21:03:31Z', T],
    ['2026-11-28T21:03:31.250Z', T + 250],
    ['2026-11-28T21:03:31', T], // spec 000: UTC unless stated
    ['2026-11-29T05:03:31+08:00', T],
    ['2026-11-28T16:03:31-0500', T],
    ['2026/11/28 21:03:31', T], // endpoint 15's form, UTC — never the machine's zone
    ['2026-11-28', Date.UTC(2026, 10, 28)],
  ])('%s', (text, t) => expect(readServiceTime(text)).toBe(t));

  it.each([['2026-02-30T00:00:00Z'], ['2026-13-01'], ['28/11/2026'], ['yesterday'], [''], [1764363811000], [null]])('%j is no documented time: shown as it came', (v) => {
    expect(readServiceTime(v)).toBeUndefined();
  });
});

describe('showing a time', () => {
  it('isoUtc: whole seconds without milliseconds', () => {
    expect(isoUtc(T)).toBe('2026-11-28T21:03:31Z');
    expect(isoUtc(T + 5)).toBe('2026-11-28T21:03:31.005Z');
  });

  it('relativeTime: seconds to days, past and future; past a month the local date', () => {
    expect(relativeTime(T, T + 2000)).toBe('just now');
    expect(relativeTime(T, T + 45_000)).toBe('45 seconds ago');
    expect(relativeTime(T, T + 3 * 3_600_000)).toBe('3 hours ago');
    expect(relativeTime(T + 86_400_000, T)).toBe('in 1 day');
    expect(relativeTime(T, T + 40 * 86_400_000, 'Asia/Taipei')).toBe('2026-11-29');
  });

  it('localTime: the reader\'s zone with its offset, and how far; localStamp: a clock for today', () => {
    expect(localTime(T, T + 3 * 3_600_000, 'Asia/Taipei')).toBe('2026-11-29 05:03 +08:00 (3 hours ago)');
    expect(localTime(T, T, 'UTC')).toBe('2026-11-28 21:03 +00:00 (just now)');
    expect(localTime(T, T - 2 * 86_400_000, 'America/New_York')).toBe('2026-11-28 16:03 -05:00 (in 2 days)');
    expect(localStamp(T, T + 60_000, 'UTC')).toBe('21:03:31');
    expect(localStamp(T, T + 86_400_000, 'UTC')).toBe('2026-11-28 21:03:31');
  });

  it('zoneOf: TZ when Intl knows it (":" prefix allowed), else the machine\'s', () => {
    expect(zoneOf('Asia/Taipei')).toBe('Asia/Taipei');
    expect(zoneOf(':Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOf('Not/AZone')).toBeUndefined();
    expect(zoneOf(undefined)).toBeUndefined();
  });
});

describe('terminal columns', () => {
  it('wide characters take two, combining marks none', () => {
    expect(displayWidth('Ann')).toBe(3);
    expect(displayWidth('王小明')).toBe(6);
    expect(displayWidth('【Acme】')).toBe(8);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(padTo('王', 4)).toBe('王  ');
  });
});
