// `mailctl events tail`: follows the event lookup as new events arrive (the sandbox's events grow
// with time), shows each event once, stays inside the lookup's limits, and stops on --for or
// Ctrl-C with exit 0. The CLI runs on a clock whose pauses pass quickly, so polls come fast.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { notifyApi } from './helpers/notify-api.js';
import type { Clock } from '../src/cli/clock.js';

const sb = useSandbox();
const api = notifyApi(sb.get);

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
});
