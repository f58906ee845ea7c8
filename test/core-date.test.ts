// One strict date parser (src/core/date.ts) for every date and time flag: no calendar roll-over
// (February 30 used to become March 2 without a word), no absurd spans or years, the start not
// after the end — each refused with exit 2 before any request — and the same forms and names
// (--since/--until, old --from/--to) on every time command.
import { describe, expect, it } from 'vitest';
import { calendarProblem, parseTime, parseTimeRange, readDate } from '../src/core/date.js';
import type { Clock } from '../src/core/clock.js';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox, refusedBeforeSending } from './helpers/sandbox.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/report/campaigns', 'GET /notify/v1/events'] });
const NEVER = path.join(tempDir(), 'never-made'); // report sync must not even create its directory
const NOW = Date.parse('2026-05-10T12:00:00Z');
const iso = (t: number) => new Date(t).toISOString();

describe('parseTime', () => {
  it('reads every documented form; no zone means UTC; a date alone ends at its last second for an end', () => {
    expect(iso(parseTime('2026-05-01', '--since', NOW))).toBe('2026-05-01T00:00:00.000Z');
    expect(iso(parseTime('2026-05-01', '--until', NOW, { endOfDay: true }))).toBe('2026-05-01T23:59:59.000Z');
    expect(iso(parseTime('2026-05-01T08:00', '--since', NOW))).toBe('2026-05-01T08:00:00.000Z');
    expect(iso(parseTime('2026-05-01 08:00:30Z', '--since', NOW))).toBe('2026-05-01T08:00:30.000Z');
    expect(iso(parseTime('2026-05-01T08:00:00.250+08:00', '--since', NOW))).toBe('2026-05-01T00:00:00.250Z');
    expect(iso(parseTime('2026-05-01T08:00-0530', '--since', NOW))).toBe('2026-05-01T13:30:00.000Z');
    expect(iso(parseTime('2028-02-29', '--since', NOW))).toBe('2028-02-29T00:00:00.000Z');
    expect(parseTime('7d', '--since', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseTime('12h', '--since', NOW)).toBe(NOW - 12 * 3_600_000);
    expect(parseTime('1h30m', '--since', NOW)).toBe(NOW - 90 * 60_000);
    expect(parseTime('7 d', '--since', NOW)).toBe(NOW - 7 * 86_400_000);
  });

  it.each([
    ['2026-02-30', 'February 2026 has 28 days'],
    ['2027-02-29', 'February 2027 has 28 days'],
    ['2026-13-01', 'there is no month 13'],
    ['2026-04-31T10:00Z', 'April 2026 has 30 days'],
    ['2026-05-01T25:00Z', 'there is no hour 25'],
    ['2026-05-01T10:60Z', 'there is no minute 60'],
    ['2026-05-01T10:00+25:00', 'no place on Earth uses'],
    ['1999-12-31', 'the year must be from 2000'],
    ['3000-01-01', 'to 2999'],
    ['99999999d', 'reaches back more than 3650 days'],
    ['3651d', 'reaches back more than 3650 days'],
    ['20260501', 'takes a duration such as 7d'],
    ['yesterday', 'is not a date or time mailctl reads'],
    ['May 1 2026', 'is not a date or time mailctl reads'],
  ])('%s is refused: %s', (value, why) => {
    expect(() => parseTime(value, '--since', NOW)).toThrow(why);
    try {
      parseTime(value, '--since', NOW);
    } catch (e) {
      expect((e as Error).message).toContain('--since');
      expect((e as Error).message).toContain(value);
    }
  });

  it('the calendar check the schedule shares', () => {
    expect(calendarProblem({ year: 2035, month: 2, day: 30, hour: 9 })).toBe('February 2035 has 28 days');
    expect(calendarProblem({ year: 2035, month: 3, day: 11, hour: 2, minute: 30 })).toBeUndefined();
    // Years are a parameter (a contacts file's date field takes any four-digit year); the leap
    // rule is the Gregorian one for every year, not Date's (which reads 0-99 as 1900-1999).
    expect(calendarProblem({ year: 1999, month: 1, day: 1 })).toBe('the year must be from 2000 to 2999');
    expect(calendarProblem({ year: 1999, month: 1, day: 1 }, { min: 0, max: 9999 })).toBeUndefined();
    expect(calendarProblem({ year: 4, month: 2, day: 29 }, { min: 0, max: 9999 })).toBeUndefined();
    expect(calendarProblem({ year: 1900, month: 2, day: 29 }, { min: 0, max: 9999 })).toBe('February 1900 has 28 days');
  });

  it('readDate: the flags\' form, or the loose one a spreadsheet writes (/ and one-digit parts)', () => {
    expect(readDate('2026-05-01T08:00+08:00')).toEqual({ parts: { year: 2026, month: 5, day: 1, hour: 8, minute: 0, second: undefined }, fraction: undefined, offsetMinutes: 480 });
    expect(readDate('2026/5/1')).toEqual({ problem: 'is not a date or time mailctl reads', form: true });
    expect(readDate('2026/5/1 8:00', { loose: true })).toMatchObject({ parts: { year: 2026, month: 5, day: 1, hour: 8 } });
    expect(readDate('2026/2/30', { loose: true })).toEqual({ problem: 'is not a real date and time (February 2026 has 28 days)', form: false });
  });

  it('a range: the start not after the end', () => {
    expect(parseTimeRange({ since: '2026-05-01', until: '2026-05-02' }, NOW)).toMatchObject({ since: Date.UTC(2026, 4, 1), until: Date.UTC(2026, 4, 2, 23, 59, 59) });
    expect(() => parseTimeRange({ since: '2026-05-02', until: '2026-05-01' }, NOW)).toThrow('--since (2026-05-02T00:00:00Z) is later than --until (2026-05-01T23:59:59Z); swap them.');
  });
});

describe('every date flag refuses before any request (exit 2)', () => {
  it.each([
    [['events', '--since', '2026-02-30'], '--since "2026-02-30" is not a real date and time (February 2026 has 28 days)'],
    [['events', '--since', '99999999d'], '--since "99999999d" reaches back more than 3650 days'],
    [['events', '--since', '2026-05-02', '--until', '2026-05-01'], 'is later than --until'],
    [['events', '--sms', '--id', 'x', '--until', '2026-05-01T24:00Z'], 'there is no hour 24'],
    [['events', 'tail', '--since', '2026-02-30T10:00Z'], '--since "2026-02-30T10:00Z" is not a real date'],
    [['events', '--sms', '--id', 'x', '--since', '45d', '--until', '40d'], 'is further back than the 30 days the service keeps SMS events'], // wholly before the lookup's 30 days: nothing could come back
    [['events', 'tail', '--until', '2020-01-01'], 'has already passed'],
    [['report', 'list', '--since', '2026-02-30', '--until', '2026-03-05'], '--since "2026-02-30" is not a real date'],
    [['report', 'list', '--until', '2026-03-05'], '--until needs --since too'],
    [['report', 'list', '--since', '2026-13-01'], 'there is no month 13'],
    [['report', 'sync', '--out-dir', NEVER, '--since', '99999999d'], '--since "99999999d" reaches back more than 3650 days'],
    [['report', 'sync', '--out-dir', NEVER, '--since', '2026-01-01', '--until', '2026-02-30'], '--until "2026-02-30"'],
    // Renamed outright (nothing had shipped): the old names of a range are unknown options.
    [['events', '--from', '2026-05-01'], "unknown option '--from'"],
    [['events', 'tail', '--to', '2026-05-01'], "unknown option '--to'"],
    [['report', 'list', '--from', '7d'], "unknown option '--from'"],
    [['report', 'sync', '--out-dir', NEVER, '--to', '2026-01-01'], "unknown option '--to'"],
    [['contacts', 'clean', '--group', 'G', '--since', '2026-04-31'], 'April 2026 has 30 days'],
    [['contacts', 'clean', '--group', 'G', '--since', '400d'], 'at most a year'],
    [['campaign', 'create', '--name', 'N', '--group', 'G', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>', '--at', '2027-02-30T10:00:00Z'], '--at "2027-02-30T10:00:00Z" is not a real date and time (February 2027 has 28 days)'],
    [['campaign', 'create', '--name', 'N', '--group', 'G', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>', '--at', '2035-02-30 09:00', '--timezone', 'TAIPEI'], 'February 2035 has 28 days'],
  ])('%j', async (argv, sentence) => {
    const r = await refusedBeforeSending(sb, argv);
    expect(r.stderr).toContain(sentence);
    expect(fs.existsSync(NEVER)).toBe(false);
  });
});

describe('one pair of names on every time command', () => {
  const lookups = () => sb.get().sandbox.requests('notify').filter((r) => r.path === '/v1/events');

  it('events: --since/--until become the lookup\'s from and to, in UTC', async () => {
    const a = await runCli(['events', '--since', '2026-05-01', '--until', '2026-05-02T10:00+02:00'], { sandbox: sb.get() });
    expect(a.exitCode, a.stderr).toBe(0);
    expect(lookups().at(-1)!.query).toEqual({ from: '2026-05-01T00:00:00Z', to: '2026-05-02T08:00:00Z' });
  });

  it('events tail takes --since as a date too, and --until to stop', async () => {
    let t = NOW;
    const clock: Clock = { now: () => t, sleep: async (ms) => void (t += ms) }; // no real waiting
    const before = lookups().length;
    const r = await runCli(['events', 'tail', '--since', '2026-05-10T11:00Z', '--until', '2026-05-10T12:00:05Z', '--interval', '2s'], { sandbox: sb.get(), clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const polls = lookups().slice(before).map((q) => q.query);
    expect(polls[0]).toMatchObject({ from: '2026-05-10T11:00:00Z', to: '2026-05-10T12:00:00Z' });
    expect(polls.at(-1)!.to).toBe('2026-05-10T12:00:04Z'); // the last poll before 12:00:05
  });

  it('report list: --since alone runs to now (the service would otherwise ignore a lone date)', async () => {
    const r = await runCli(['report', 'list', '--since', '30d'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const q = sb.get().sandbox.requests('campaign').filter((x) => x.path === '/v1/report/campaigns').at(-1)!.query;
    expect(Date.parse(q.endDate) - Date.parse(q.startDate)).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(Math.abs(Date.parse(q.endDate) - Date.now())).toBeLessThan(60_000);
  });

  it('--help names --since/--until and no other spelling of a range', async () => {
    for (const argv of [['events', '--help'], ['events', 'tail', '--help'], ['report', 'list', '--help'], ['report', 'sync', '--help']]) {
      const r = await runCli(argv);
      expect(r.stdout).toContain('--since <time>');
      expect(r.stdout).toContain('--until <time>');
      expect(r.stdout).not.toMatch(/^\s*--(from|to) </m);
      expect(r.stdout).not.toContain('old spelling');
    }
  });
});
