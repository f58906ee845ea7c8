// One duration syntax for every --timeout and --settle-after: 90s, 10m, 1h30m, 500ms, a bare
// number of seconds; a time-out of 0 and anything else are usage errors with nothing sent.
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../src/core/duration.js';
import { useSandbox, refusedBeforeSending } from './helpers/sandbox.js';

const sb = useSandbox();

describe('durations', () => {
  it('reads the forms every command documents', () => {
    expect(parseDuration('90s', '--timeout')).toBe(90_000);
    expect(parseDuration('10m', '--timeout')).toBe(600_000);
    expect(parseDuration('1h30m', '--timeout')).toBe(5_400_000);
    expect(parseDuration('500ms', '--timeout')).toBe(500);
    expect(parseDuration('45', '--timeout')).toBe(45_000);
    expect(parseDuration('0s', '--settle-after')).toBe(0);
    expect(parseDuration('1h 30m', '--timeout')).toBe(5_400_000);
  });

  it('takes a caller\'s units, bare-number rule and maximum, and refuses a number too large to be a time', () => {
    const units = { h: 3_600_000, hours: 3_600_000 };
    expect(parseDuration('4 hours', '--x', { units })).toBe(4 * 3_600_000);
    expect(() => parseDuration('90m', '--x', { units, examples: '4h' })).toThrow('--x takes a duration such as 4h; got "90m".');
    expect(() => parseDuration('45', '--x', { bareSeconds: false })).toThrow('takes a duration');
    expect(() => parseDuration('3d', '--x', { max: 2 * 86_400_000 })).toThrow('--x is at most 2 days; got "3d".');
    expect(() => parseDuration(`${'9'.repeat(400)}d`, '--timeout')).toThrow('is far too long');
  });

  it.each([
    [['campaign', 'status', 'CP1', '--wait', '--timeout', 'soon']],
    [['report', 'export', 'CP1', '--wait', '--timeout', '0']],
    [['import', 'status', 'IM1', '--wait', '--timeout', '5 minutes']],
    [['send', '--resume', '--settle-after', 'later']],
  ])('%j: exit 2 naming the flag, nothing sent', async (argv) => {
    const r = await refusedBeforeSending(sb, argv);
    expect(r.stderr).toMatch(/(--timeout|--settle-after) (takes a duration|must be longer than 0)/);
  });
});
