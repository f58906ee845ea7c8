// `mailctl events tail`: follows the event lookup as new events arrive (the sandbox's events grow
// with time), shows each event once, stays inside the lookup's limits, and stops on --for or
// Ctrl-C with exit 0. The CLI runs on a clock whose pauses pass quickly, so polls come fast.
import { describe, expect, it } from 'vitest';
import { ANSI, runCli } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { eventually, notifyApi } from './helpers/notify-api.js';
import { systemClock, type Clock } from '../src/core/clock.js';
import { EventFollower, NARROW_OVERLAP_MS, OVERLAP_MS } from '../src/events/follow.js';

const sb = useSandbox({
  expect: [
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
    'GET /notify/v1/sms/events',
    'POST /notify/v1/sms/messages',
  ],
});
const api = notifyApi(sb.get);
const hs = useHostileServer();

/** Real time plus whatever the CLI chose to wait, each wait taking only 30 ms of real time. */
function fastClock(): Clock {
  let ahead = 0;
  return {
    now: () => Date.now() + ahead,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          ahead += Math.max(0, ms - 30);
          resolve();
        }, 30);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason);
        }, { once: true });
      }),
  };
}

const sendSms = (address: string, content: string, times = 1) => api('POST', '/v1/sms/messages', { content, recipients: Array.from({ length: times }, () => ({ address, country_code: '886' })) });
const smsLookups = () => sb.get().sandbox.requests('notify').filter((q) => q.path === '/v1/sms/events');
const ndjson = (out: string) => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const send = (to: string, subject: string) => api('POST', '/v1/messages', { subject, fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: [{ address: to }] });

describe('mailctl events tail', () => {
  it('piped: NDJSON of events old enough for --since and those that arrive while following, each once', async () => {
    const first = (await send('tail-open@example.com', 'Before')).body.success[0].id;
    const lookups = () => sb.get().sandbox.requests('notify').filter((q) => q.path === '/v1/events');
    const from = lookups().length;
    const run = runCli(['events', 'tail', '--since', '1m', '--for', '60s', '--recipient', 'tail-open@example.com'], { sandbox: sb.get(), clock: fastClock() });
    // Once the tail is polling, a second message goes out.
    while (lookups().length === from) await new Promise((r) => setTimeout(r, 10));
    const second = (await send('tail-open@example.com', 'During')).body.success[0].id;
    const r = await run;
    expect(r.exitCode).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const keys = events.map((e) => `${e.messageId} ${e.status}`);
    expect(new Set(keys).size).toBe(keys.length); // nothing twice
    expect(keys).toEqual(expect.arrayContaining([`${first} accept`, `${first} delivery`, `${second} accept`, `${second} delivery`]));
    const polls = lookups().slice(from);
    expect(polls.length).toBeGreaterThan(3);
    for (const q of polls) expect(q.query).toMatchObject({ recipient: 'tail-open@example.com', from: expect.any(String), to: expect.any(String) });
  });

  it('Ctrl-C ends it cleanly (exit 0, no error)', async () => {
    const ac = new AbortController();
    const run = runCli(['events', 'tail', '--interval', '2s'], { sandbox: sb.get(), signal: ac.signal, tty: true });
    const lookups = () => sb.get().sandbox.requests('notify').filter((q) => q.path === '/v1/events').length;
    const before = lookups();
    while (lookups() === before) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const r = await run;
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Stopped following; 0 events shown.');
    expect(r.stderr).not.toContain('error');
  });

  it('SMS needs a recipient with its code or an id, and an interval under 2 s is refused: exit 2, nothing asked', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    expect((await runCli(['events', 'tail', '--sms'], { sandbox: sb.get() })).exitCode).toBe(2);
    const fast = await runCli(['events', 'tail', '--interval', '500ms'], { sandbox: sb.get() });
    expect(fast.exitCode).toBe(2);
    expect(fast.stderr).toContain('--interval must be at least 2s');
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });

  it('--since further back than the 30 days the SMS lookup covers: warned as `events` warns, and the tail starts at the 30-day limit', async () => {
    const from = smsLookups().length;
    const r = await runCli(['events', 'tail', '--sms', '--recipient', '0944000003', '--country-code', '886', '--since', '40d', '--for', '1s'], { sandbox: sb.get(), clock: fastClock() });
    expect(r.exitCode).toBe(0);
    const q = smsLookups()[from].query;
    expect(Date.parse(q.to) - Date.parse(q.from)).toBeGreaterThan(29 * 86_400_000);
    expect(Date.parse(q.to) - Date.parse(q.from)).toBeLessThanOrEqual(30 * 86_400_000);
    // The same sentence as `mailctl events` (test/events-lookup.test.ts).
    expect(r.stderr).toMatch(/--since "40d" reaches back further than the 30 days the service keeps SMS events; looking from \S+Z, the 30-day limit\./);
  });

  it('a --recipient that is not an email address (with --sms: not a national number) is refused before any request: exit 2', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    const email = await runCli(['events', 'tail', '--recipient', 'bad', '--for', '1s'], { sandbox: sb.get() });
    expect([email.exitCode, email.stderr]).toEqual([2, expect.stringContaining('--recipient "bad" is not an email address; give one such as someone@example.com')]);
    const sms = await runCli(['events', 'tail', '--sms', '--recipient', 'abc', '--country-code', '886', '--for', '1s'], { sandbox: sb.get() });
    expect([sms.exitCode, sms.stderr]).toEqual([2, expect.stringContaining('--recipient: "abc" is not a phone number')]);
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });

  it('--sms follows one number by recipient and country code: events before (--since) and during, each once', async () => {
    const first = (await sendSms('0944000001', '[Acme] before')).body.success[0].id;
    const from = smsLookups().length;
    const run = runCli(['events', 'tail', '--sms', '--recipient', '0944000001', '--country-code', '+886', '--since', '1m', '--for', '60s'], { sandbox: sb.get(), clock: fastClock() });
    while (smsLookups().length === from) await new Promise((r) => setTimeout(r, 10));
    const second = (await sendSms('0944000001', '[Acme] during')).body.success[0].id;
    const r = await run;
    expect(r.exitCode).toBe(0);
    const keys = ndjson(r.stdout).map((e) => `${e.messageId} ${e.status}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining([`${first} accept`, `${first} delivery`, `${second} accept`]));
    for (const q of smsLookups().slice(from)) expect(q.query).toMatchObject({ recipient: '0944000001', country_code: '886', from: expect.any(String), to: expect.any(String) });
  });

  it('50 or more rows in the look-back window: warns once and pages forward instead of stalling on the same first 50', async () => {
    // 30 messages in three seconds (the lookup's `from` is whole seconds, so rows of one second
    // beyond the cap cannot be paged to): 60 rows once delivered, more than one lookup returns.
    // The seconds pass on a sandbox of its own whose clock starts 2.5 s behind and steps forward
    // between bursts, rather than being waited out.
    let behind = 2500;
    const own = await startTestSandbox({ clock: { now: () => Date.now() - behind, sleep: systemClock.sleep }, expect: ['GET /notify/v1/sms/events', 'POST /notify/v1/sms/messages'] });
    try {
      const ownApi = notifyApi(() => own);
      const sendHere = (content: string, times = 1) => ownApi('POST', '/v1/sms/messages', { content, recipients: Array.from({ length: times }, () => ({ address: '0944000002', country_code: '886' })) });
      const lookupsHere = () => own.sandbox.requests('notify').filter((q) => q.path === '/v1/sms/events');
      const burst: string[] = [];
      for (let i = 0; i < 3; i++) {
        if (i) behind -= 1100;
        burst.push(...(await sendHere('[Acme] burst', 10)).body.success.map((s: { id: string }) => s.id));
      }
      behind = 0;
      // --since 30d, the most the SMS lookup covers: the first lookups reach back that far.
      const run = runCli(['events', 'tail', '--sms', '--recipient', '0944000002', '--country-code', '886', '--since', '30d', '--for', '120s'], { sandbox: own, clock: fastClock() });
      while (!lookupsHere().length) await new Promise((r) => setTimeout(r, 10));
      const late = (await sendHere('[Acme] late')).body.success[0].id;
      const r = await run;
      expect(r.exitCode).toBe(0);
      const keys = ndjson(r.stdout).map((e) => `${e.messageId} ${e.status}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toEqual(expect.arrayContaining([...burst.flatMap((id: string) => [`${id} accept`, `${id} delivery`]), `${late} accept`]));
      expect(r.stderr.match(/A lookup returned the service's cap of 50 rows/g)).toHaveLength(1);
      // Every lookup stayed within the SMS lookup's limits: a range that runs forwards, at most 30 days.
      for (const q of lookupsHere()) {
        const span = Date.parse(q.query.to) - Date.parse(q.query.from);
        expect(span).toBeGreaterThanOrEqual(0);
        expect(span).toBeLessThanOrEqual(30 * 86_400_000);
      }
      expect(lookupsHere().some((q) => Date.parse(q.query.to) - Date.parse(q.query.from) > 29 * 86_400_000)).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('on a terminal each event that arrives is one line: local time, status (coloured), message id, recipient, subject', async () => {
    const id = (await send('tail-tty@example.com', 'Table subject')).body.success[0].id;
    await eventually(async () => ((await api('GET', '/v1/events?recipient=tail-tty@example.com&status=delivery')).body.logs ?? []).length > 0, 'the delivery');
    const r = await runCli(['events', 'tail', '--recipient', 'tail-tty@example.com', '--since', '1m', '--for', '20s'], { sandbox: sb.get(), clock: fastClock(), tty: true, env: { TZ: 'Asia/Taipei' } });
    expect(r.exitCode).toBe(0);
    const plain = r.stdout.replace(new RegExp(ANSI.source, 'g'), '');
    // The time is the reader's (TZ), as a clock for today's events: no UTC ISO stamp on a terminal.
    expect(plain).toMatch(new RegExp(`^(\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d:\\d\\d  accept     ${id}  tail-tty@example\\.com  Table subject$`, 'm'));
    expect(plain).not.toMatch(/\d{4}-\d\d-\d\dT\d\d/);
    // Coloured by status: accept dim, delivery green.
    expect(r.stdout).toContain('\u001b[2maccept\u001b[22m');
    expect(r.stdout).toContain('\u001b[32mdelivery\u001b[39m');
    expect(r.stdout).not.toContain('{');
    expect(r.stderr).toContain('Following email events since');
    expect(r.stderr).toMatch(/Stopped following; [1-9]\d* events? shown\./);
  });

  it('NO_COLOR: the same lines on a terminal without colour', async () => {
    await send('tail-plain@example.com', 'Plain');
    const r = await runCli(['events', 'tail', '--recipient', 'tail-plain@example.com', '--since', '1m', '--for', '10s'], { sandbox: sb.get(), clock: fastClock(), tty: true, env: { NO_COLOR: '1' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/ {2}accept {5}/);
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('--json: stdout is ONE document, the events it found, when --for ends; piped without it, the same events are NDJSON', async () => {
    const id = (await send('tail-json@example.com', 'One document')).body.success[0].id;
    await eventually(async () => ((await api('GET', '/v1/events?recipient=tail-json@example.com&status=delivery')).body.logs ?? []).length > 0, 'the delivery');
    const args = ['events', 'tail', '--since', '1h', '--for', '4s', '--recipient', 'tail-json@example.com'];
    const r = await runCli([...args, '--json'], { sandbox: sb.get(), clock: fastClock() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout); // one parse of the whole output
    expect(doc).toMatchObject({ channel: 'email', since: expect.any(String), until: expect.any(String), stopped: 'time' });
    expect(doc.count).toBe(doc.events.length);
    expect(doc.events.map((e: { messageId: string; status: string }) => `${e.messageId} ${e.status}`)).toEqual(expect.arrayContaining([`${id} accept`, `${id} delivery`]));
    expect(Date.parse(doc.until) - Date.parse(doc.since)).toBeGreaterThanOrEqual(3600_000);

    const piped = await runCli(args, { sandbox: sb.get(), clock: fastClock() });
    expect(piped.exitCode).toBe(0);
    expect(() => JSON.parse(piped.stdout)).toThrow(); // several documents, one a line
    expect(ndjson(piped.stdout).map((e) => `${e.messageId} ${e.status}`)).toEqual(expect.arrayContaining([`${id} accept`, `${id} delivery`]));
  });

  it('--json with no end: Ctrl-C ends it and the document comes out, marked interrupted (exit 0)', async () => {
    const id = (await send('tail-json-int@example.com', 'Interrupted')).body.success[0].id;
    const ac = new AbortController();
    const run = runCli(['events', 'tail', '--since', '1h', '--interval', '2s', '--recipient', 'tail-json-int@example.com', '--json'], { sandbox: sb.get(), signal: ac.signal, clock: fastClock() });
    const lookups = () => sb.get().sandbox.requests('notify').filter((q) => q.path === '/v1/events' && q.query.recipient === 'tail-json-int@example.com').length;
    // A second lookup starts only after the first answer was read: Ctrl-C then finds the event
    // collected (the sandbox receiving the first lookup said nothing of its answer being read).
    while (lookups() < 2) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const r = await run;
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.stopped).toBe('interrupted');
    expect(doc.events.map((e: { messageId: string }) => e.messageId)).toContain(id);
    expect(r.stderr).toContain('the JSON document prints when it stops (Ctrl-C)');
  });
});

describe('mailctl events tail --json when a later lookup fails', () => {
  it('the events already found stay in the one document, with stopped "error" and the error; exit and stderr are the error\'s', async () => {
    const event = { messageId: 'kept-1', status: 'delivery', eventTime: new Date(Date.now() - 60_000).toISOString(), mail: { to: 'kept@example.com', subject: 'Kept' } };
    let calls = 0;
    hs.get().on('GET', '/notify/v1/events', (res, seen, req) =>
      (++calls === 1 ? reply.json({ logs: [event] }) : reply.json({ code: '40001', message: 'bad range' }, 400))(res, seen, req));
    const r = await runCli(['events', 'tail', '--since', '1h', '--for', '60s', '--json'], { env: hs.get().env, clock: fastClock() });
    expect(calls).toBe(2);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout); // still exactly one document
    expect(doc).toMatchObject({ channel: 'email', stopped: 'error', count: 1, error: { code: 'REFUSED', status: 400, exitCode: 1 } });
    expect(doc.events.map((e: { messageId: string }) => e.messageId)).toEqual(['kept-1']);
    expect(r.stderr).toContain('error:');
  });
});

describe('EventFollower against a modelled lookup (first 50 rows of a range, oldest first)', () => {
  /** Polls every `everyMs` from `t0` to `t1`, paging at once on a full answer, as `events tail` does. */
  function follow(times: number[], t0: number, t1: number, everyMs = 5000) {
    const events = times.map((t, i) => ({ messageId: `m${i}`, status: 'delivery', eventTime: new Date(t).toISOString() }));
    const f = new EventFollower<(typeof events)[number]>(t0);
    const out: string[] = [];
    let maxRemembered = 0;
    let crowded = 0;
    for (let now = t0; now <= t1; now += everyMs) {
      for (;;) {
        const from = f.windowStart();
        const rows = events.filter((e) => Date.parse(e.eventTime) >= from && Date.parse(e.eventTime) <= now).slice(0, 50);
        const got = f.take(rows, from);
        out.push(...got.fresh.map((e) => e.messageId));
        if (got.crowdedSecond !== undefined) crowded++;
        maxRemembered = Math.max(maxRemembered, f.remembered);
        if (!got.full || from >= now) break;
      }
    }
    return { out, maxRemembered, crowded, f };
  }
  const T0 = Date.parse('2025-01-01T00:00:00Z');

  it('memory stays bounded by the look-back window: 3 hours of one event per 10 s never remembers more than the last ~5 minutes', () => {
    const times = Array.from({ length: 1080 }, (_, i) => T0 + 1000 + i * 10_000);
    const { out, maxRemembered } = follow(times, T0, T0 + 3 * 3600_000);
    expect(out).toHaveLength(1080);
    expect(maxRemembered).toBeLessThanOrEqual((OVERLAP_MS + 5000) / 10_000 + 1);
  });

  it('a burst denser than 50 per look-back window: every event once, the window narrowed, memory still bounded', () => {
    // 600 events in 5 minutes (2 per second), then quiet, then one more.
    const times = [...Array.from({ length: 600 }, (_, i) => T0 + 1000 + i * 500), T0 + 900_000];
    const { out, maxRemembered, crowded, f } = follow(times, T0, T0 + 1200_000);
    expect(out).toEqual(times.map((_, i) => `m${i}`));
    expect(f.narrowed).toBe(true);
    expect(crowded).toBe(0);
    expect(maxRemembered).toBeLessThanOrEqual(50 + (NARROW_OVERLAP_MS / 500) + 2);
  });

  it('more than 50 events in one second cannot all be reached: the second is skipped and reported, and following goes on', () => {
    const times = [...Array.from({ length: 60 }, () => T0 + 2000), T0 + 60_000];
    const { out, crowded } = follow(times, T0, T0 + 120_000);
    expect(crowded).toBe(1);
    expect(out).toHaveLength(51);
    expect(out.at(-1)).toBe('m60');
  });
});
