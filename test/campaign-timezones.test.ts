// decisions row 11: an IANA zone or a city name maps to one of the spec's 88 codes (section 2,
// `config.schedule.timezone`), and the wall-clock --at time becomes the UTC scheduleDate with
// that zone's daylight-saving rules. A time in the past, or one that a DST change skips, is
// refused before anything is sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { resolveTimeZone, TIME_ZONE_CODES } from '../src/spec/timezones.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit',
    'GET /campaign/v1/contacts/lists',
  ],
});
const fx = campaignFixtures(sb.get);
const flags = ['--name', 'TZ', '--group', 'Newsletter', '--subject', 'S', '--preheader', 'P', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];

beforeAll(async () => {
  await fx.group('Newsletter', 2);
});

/** Creates a scheduled campaign and returns config.schedule as the sandbox received it. */
async function scheduleFor(at: string, timezone: string) {
  const from = fx.mark();
  const r = await runCli(['campaign', 'create', ...flags, '--at', at, '--timezone', timezone], { sandbox: sb.get() });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return (fx.submits(from)[0].body as any).config.schedule;
}

describe('the 88 codes of spec section 2', () => {
  it('are all there, in order, each with a zone this runtime knows', () => {
    expect(TIME_ZONE_CODES).toHaveLength(88);
    expect(TIME_ZONE_CODES[0].city).toBe('KIRITIMATI');
    expect(TIME_ZONE_CODES[87].city).toBe('PAGO_PAGO');
    for (const t of TIME_ZONE_CODES) expect(() => new Intl.DateTimeFormat('en', { timeZone: t.iana })).not.toThrow();
  });

  it.each([
    ['Asia/Taipei', 21], ['TAIPEI', 21], ['taipei', 21], ['21', 21], ['UTC', 61], ['GMT', 61], ['Etc/UTC', 61],
    ['new york', 72], ['America/New_York', 72], ['Asia/Calcutta', 30], ['Asia/Saigon', 24], ['Asia/Yangon', 26],
    ['Europe/Madrid', 51 /* first city with the same clock all year: AMSTERDAM */], ['Ho Chi Minh', 24],
  ])('%s → code %i', (input, code) => {
    const z = resolveTimeZone(input);
    expect(z).not.toBeInstanceOf(Error);
    expect((z as { code: number }).code).toBe(code);
  });

  it('refuses a zone with no code keeping its clock, and a code outside 0..87', () => {
    expect(resolveTimeZone('Asia/Kathmandu')).not.toBeInstanceOf(Error);
    expect(resolveTimeZone('88')).toBeInstanceOf(Error);
    expect(resolveTimeZone('Atlantis')).toBeInstanceOf(Error);
  });
});

describe('wall-clock time → UTC scheduleDate', () => {
  it('Taipei has no DST: 09:00 is 01:00Z', async () => {
    expect(await scheduleFor('2035-12-01 09:00', 'Asia/Taipei')).toEqual({ type: 1, timezone: 21, scheduleDate: '2035-12-01T01:00:00Z' });
  });

  it('New York in summer (EDT, UTC-4) and in winter (EST, UTC-5)', async () => {
    expect(await scheduleFor('2035-07-01 09:00', 'America/New_York')).toEqual({ type: 1, timezone: 72, scheduleDate: '2035-07-01T13:00:00Z' });
    expect(await scheduleFor('2035-12-01 09:00', 'NEW_YORK')).toEqual({ type: 1, timezone: 72, scheduleDate: '2035-12-01T14:00:00Z' });
  });

  it('London on each side of the change to summer time', async () => {
    expect((await scheduleFor('2035-03-24 12:00', 'Europe/London')).scheduleDate).toBe('2035-03-24T12:00:00Z');
    expect((await scheduleFor('2035-04-01 12:00', 'LONDON')).scheduleDate).toBe('2035-04-01T11:00:00Z');
  });

  it('a time that happens twice (clocks go back) takes the first, with a warning', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...flags, '--at', '2035-11-04 01:30', '--timezone', 'America/New_York'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('happens twice');
    expect((fx.submits(from)[0].body as any).config.schedule.scheduleDate).toBe('2035-11-04T05:30:00Z');
  });

  it('an absolute time with an offset needs no zone and is filed under GMT', async () => {
    expect(await scheduleFor('2035-05-05T10:00:00+02:00', 'GMT')).toEqual({ type: 1, timezone: 61, scheduleDate: '2035-05-05T08:00:00Z' });
  });
});

describe('refused before anything is sent', () => {
  async function refused(at: string, tz: string, sentence: string) {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['campaign', 'create', ...flags, '--at', at, '--timezone', tz], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(sentence);
    expect(sb.get().sandbox.requests().length).toBe(before);
  }

  it('a time in the past', () => refused('2024-06-01 09:00', 'Asia/Taipei', 'is in the past; give a later --at time'));
  it('a time the spring-forward change skips', () => refused('2035-03-11 02:30', 'America/New_York', 'does not exist in America/New_York'));
  it('a date that does not exist', () => refused('2035-02-30 09:00', 'TAIPEI', 'is not a real date and time'));
  it('a time in another format', () => refused('1 Dec 2035 9am', 'TAIPEI', 'write it as "YYYY-MM-DD HH:MM"'));
});
