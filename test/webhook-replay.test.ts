// mailctl webhook replay: re-sends what `webhook listen --out` stored to a local consumer, in file
// order, paced by --rate, each with the signature it arrived with (or signed again with the current
// notification key: --resign, and lines of older files that keep no signature), reporting each
// answer; a damaged line stops it before anything is sent.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startConsumer, type Consumer } from './helpers/webhook-consumer.js';
import { unusedPort, until } from './helpers/wait.js';
import type { Clock } from '../src/core/clock.js';
import type { StoredEvent } from '../src/webhook/listener.js';
import { verifyPayload } from '../src/webhook/signature.js';

const KEY = 'notify-key-for-replay-tests-91c2';
const env = { MAILCTL_NOTIFY_API_KEY: KEY };

function hmac(key: string, message: string): string {
  return crypto.createHmac('sha256', key).update(message).digest('hex');
}

/** A stored line; without `signature`, as listeners wrote them before they kept its value. */
type Line = Omit<StoredEvent, 'signature'> & { signature?: string };

function emailEvent(id: string, event = 'delivery', header = 'x-service-signature'): Line {
  return {
    receivedAt: '2024-05-01T12:00:00.000Z', event, id, channel: 'email', signatureHeader: header,
    payload: { event, mail: { id, subject: 'Hi', content: '<p>x</p>', from: 'a@example.com', to: 'b@example.com', variables: {} }, [event]: { timestamp: 1714564800000 } },
  };
}

function eventsFile(lines: Array<Line | string>): string {
  const file = path.join(tempDir(), 'events.jsonl');
  fs.writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

/** A clock that never waits: each sleep is recorded and moves time on by that much. */
function recordingClock(): Clock & { sleeps: number[] } {
  let t = 1_700_000_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      t += ms;
    },
  };
}

const ids = (c: Consumer) => c.got.map((g) => JSON.parse(g.raw).mail?.id ?? JSON.parse(g.raw).sms_data?.id);

let consumers: Consumer[] = [];
async function consumer(answer?: Consumer['answer']): Promise<Consumer> {
  const c = await startConsumer(answer);
  consumers.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(consumers.map((c) => c.close()));
  consumers = [];
});

describe('mailctl webhook replay', () => {
  it('re-sends what a real `webhook listen --out` stored: same bodies, in order, each under the header it came with, signed with the current key', async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const ac = new AbortController();
    const listening = runCli(['webhook', 'listen', '--port', String(port), '--out', out], { env, signal: ac.signal });
    const listener = `http://127.0.0.1:${port}/`;
    await until('the listener', () => fetch(listener).then((r) => r.ok).catch(() => false));
    const triggers = [['delivery'], ['sms-bounce'], ['click', '--signature-header', 'x-surenotify-signature'], ['bounce', '--set', 'bounce.type=0']];
    for (const t of triggers) expect((await runCli(['webhook', 'trigger', ...t, '--url', listener], { env })).exitCode).toBe(0);
    ac.abort();
    expect((await listening).exitCode).toBe(0);
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(stored).toHaveLength(4);

    const c = await consumer();
    const r = await runCli(['webhook', 'replay', out, '--url', c.url, '--rate', '1000/s'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(c.got).toHaveLength(4);
    c.got.forEach((g, i) => {
      const s = stored[i];
      expect(g.raw).toBe(JSON.stringify(s.payload));
      expect(g.headers[s.signatureHeader]).toBe(hmac(KEY, s.id + s.event));
      expect(g.raw + JSON.stringify(g.headers)).not.toContain(KEY);
    });
    expect(c.got[2].headers['x-surenotify-signature']).toBeDefined();
    expect(c.got[2].headers['x-service-signature']).toBeUndefined();
    // Piped: one NDJSON line per answer.
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.event, l.status, l.ok])).toEqual([[1, 'delivery', 200, true], [2, 'bounce', 200, true], [3, 'click', 200, true], [4, 'bounce', 200, true]]);
    expect(r.stderr).toContain('Sent 4 of 4 events: 4 answered 2xx.');
  });

  it('sends the signature each event arrived with: a listener\'s file verifies under the old key, not the new one; --resign signs with the new one', async () => {
    const port = await unusedPort();
    const out = path.join(tempDir(), 'events.jsonl');
    const ac = new AbortController();
    const listening = runCli(['webhook', 'listen', '--port', String(port), '--out', out], { env, signal: ac.signal });
    const listener = `http://127.0.0.1:${port}/`;
    await until('the listener', () => fetch(listener).then((r) => r.ok).catch(() => false));
    for (const t of [['open'], ['sms-delivery']]) expect((await runCli(['webhook', 'trigger', ...t, '--url', listener], { env })).exitCode).toBe(0);
    ac.abort();
    expect((await listening).exitCode).toBe(0);
    const stored = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as StoredEvent);
    expect(stored.map((e) => e.signature)).toEqual(stored.map((e) => hmac(KEY, e.id + e.event)));

    const NEW = 'the-key-after-rotation';
    const verifies = (c: Consumer, key: string) => c.got.map((g) => verifyPayload(key, JSON.parse(g.raw), g.headers['x-service-signature'] as string | undefined).valid);
    const unchanged = await consumer();
    const r = await runCli(['webhook', 'replay', out, '--url', unchanged.url], { env: { MAILCTL_NOTIFY_API_KEY: NEW } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(verifies(unchanged, KEY)).toEqual([true, true]);
    expect(verifies(unchanged, NEW)).toEqual([false, false]);
    expect(r.stderr).toContain('each with the signature it arrived with');
    // Nothing to sign: no key needed at all.
    const keyless = await consumer();
    expect((await runCli(['webhook', 'replay', out, '--url', keyless.url])).exitCode).toBe(0);
    expect(verifies(keyless, KEY)).toEqual([true, true]);

    const resigned = await consumer();
    const again = await runCli(['webhook', 'replay', out, '--url', resigned.url, '--resign', '--json'], { env: { MAILCTL_NOTIFY_API_KEY: NEW } });
    expect(again.exitCode).toBe(0);
    expect(verifies(resigned, NEW)).toEqual([true, true]);
    expect(verifies(resigned, KEY)).toEqual([false, false]);
    expect(JSON.parse(again.stdout).results.map((x: { resigned: boolean }) => x.resigned)).toEqual([true, true]);
  });

  it('lines that keep no signature (an older listener\'s file) are signed again with the current key, and the run says so', async () => {
    const file = eventsFile([emailEvent('m-1'), { ...emailEvent('m-2', 'open'), signature: hmac(KEY, 'm-2open') }]);
    const c = await consumer();
    const r = await runCli(['webhook', 'replay', file, '--url', c.url], { env: { MAILCTL_NOTIFY_API_KEY: 'the-new-key' } });
    expect(r.exitCode).toBe(0);
    expect(c.got.map((g) => g.headers['x-service-signature'])).toEqual([hmac('the-new-key', 'm-1delivery'), hmac(KEY, 'm-2open')]);
    expect(r.stderr).toContain("except 1 the file keeps no signature for (an older listener kept no signature value, nor does a bare payload): those signed again with this profile's notification key");
    // Such a line needs the key: without one, exit 3 and nothing sent.
    const none = await consumer();
    const keyless = await runCli(['webhook', 'replay', file, '--url', none.url]);
    expect(keyless.exitCode).toBe(3);
    expect(none.got).toHaveLength(0);
  });

  it('keeps file order, paces by --rate (one pause of 1/rate between sends), and --from-line starts part-way', async () => {
    const file = eventsFile(['', ...['a', 'b', 'c', 'd', 'e'].map((id) => emailEvent(id))]);
    const c = await consumer();
    const clock = recordingClock();
    const r = await runCli(['webhook', 'replay', file, '--url', c.url, '--rate', '4/s'], { env, clock });
    expect(r.exitCode).toBe(0);
    expect(ids(c)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(clock.sleeps).toEqual([250, 250, 250, 250]);
    const perMinute = recordingClock();
    c.got.length = 0;
    // Lines count from the top of the file, the blank first line included.
    const part = await runCli(['webhook', 'replay', file, '--url', c.url, '--rate', '30/m', '--from-line', '4'], { env, clock: perMinute });
    expect(part.exitCode).toBe(0);
    expect(ids(c)).toEqual(['c', 'd', 'e']);
    expect(perMinute.sleeps).toEqual([2000, 2000]);
    expect(part.stdout.trim().split('\n').map((l) => JSON.parse(l).line)).toEqual([4, 5, 6]);
  });

  it('goes on past consumer failures and exits 5 when some were not 2xx; --json sums them up', async () => {
    const file = eventsFile(['a', 'b', 'c'].map((id) => emailEvent(id)));
    const c = await consumer((g) => (JSON.parse(g.raw).mail.id === 'b' ? { status: 500, body: 'down' } : { status: 204 }));
    const r = await runCli(['webhook', 'replay', file, '--url', c.url, '--json'], { env });
    expect(r.exitCode).toBe(5);
    expect(ids(c)).toEqual(['a', 'b', 'c']);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ sent: 3, ok: 2, failed: 1, fromLine: 1 });
    expect(doc.results.map((x: any) => [x.line, x.id, x.status, x.ok])).toEqual([[1, 'a', 204, true], [2, 'b', 500, false], [3, 'c', 204, true]]);
    expect(doc.results[1].answer).toBe('down');
    expect(r.stderr).toContain('1 of 3 events were not answered 2xx');
  });

  it('exits 1 when no event was answered 2xx', async () => {
    const c = await consumer(() => ({ status: 401, body: '{"error":"bad signature"}' }));
    const r = await runCli(['webhook', 'replay', eventsFile([emailEvent('a'), emailEvent('b')]), '--url', c.url], { env });
    expect(r.exitCode).toBe(1);
    expect(c.got).toHaveLength(2);
    expect(r.stderr).toContain('No event was answered 2xx');
  });

  it.each([
    ['a torn line', '{"receivedAt":"2024-05-01T12:00:00.000Z","event":"deliv', 'Line 3 of', 'is not JSON'],
    ['a line without a message id', JSON.stringify({ ...emailEvent('x'), payload: { event: 'delivery', mail: {} } }), 'Line 3 of', 'no message id (mail.id, sms_data.id or id)'],
    ['a JSON value that is not an event', '[1,2]', 'Line 3 of', 'is not a stored webhook event'],
    ['an unknown signature header name', JSON.stringify({ ...emailEvent('x'), signatureHeader: 'x-evil' }), 'Line 3 of', 'names the signature header "x-evil"'],
    ['a stored signature that is not one', JSON.stringify({ ...emailEvent('x'), signature: 'ab\r\nx-evil: 1' }), 'Line 3 of', 'has a signature that is not 64 hex digits'],
  ])('%s: exit 2, the line named, nothing sent; --from-line past it replays the rest', async (_what, bad, where, why) => {
    const file = eventsFile([emailEvent('a'), emailEvent('b'), bad, emailEvent('c')]);
    const c = await consumer();
    const r = await runCli(['webhook', 'replay', file, '--url', c.url], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(where);
    expect(r.stderr).toContain(why);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(r.stderr).toContain('--from-line 4');
    expect(c.got).toHaveLength(0);
    const rest = await runCli(['webhook', 'replay', file, '--url', c.url, '--from-line', '4'], { env });
    expect(rest.exitCode).toBe(0);
    expect(ids(c)).toEqual(['c']);
  });

  it('a line that is not JSON is named in one sentence, closed before "Nothing was sent."', async () => {
    const c = await consumer();
    const r = await runCli(['webhook', 'replay', eventsFile(['not json']), '--url', c.url], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not JSON: not json. Nothing was sent.');
    expect(c.got).toHaveLength(0);
  });

  it('an unreachable consumer stops the replay (exit 4) with the command that continues it', async () => {
    const port = await unusedPort();
    const file = eventsFile([emailEvent('a'), emailEvent('b')]);
    const url = `http://127.0.0.1:${port}/hooks`;
    const r = await runCli(['webhook', 'replay', file, '--url', url, '--rate', '20/s'], { env });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('Cannot reach the consumer');
    expect(r.stderr).toContain('Stopped after 0 of 2 events');
    expect(r.stderr).toContain(`Continue with: mailctl webhook replay ${file} --url ${url} --from-line 1 --rate 20/s`);
    expect(r.stderr).not.toContain('twice');
  });

  it('Ctrl-C stops cleanly (exit 130): how many were sent and the command to continue from the line in flight', async () => {
    const file = eventsFile(['a', 'b', 'c'].map((id) => emailEvent(id)));
    const ac = new AbortController();
    const c = await consumer((_g, i) => {
      if (i === 1) {
        ac.abort();
        return 'hang';
      }
      return { status: 200 };
    });
    const r = await runCli(['webhook', 'replay', file, '--url', c.url, '--rate', '100/s'], { env, signal: ac.signal });
    expect(r.exitCode).toBe(130);
    expect(ids(c)).toEqual(['a', 'b']);
    expect(r.stderr).toContain('Sent 1 of 3 events: 1 answered 2xx.');
    expect(r.stderr).toContain('Interrupted after 1 of 3 events.');
    expect(r.stderr).toContain(`Continue with: mailctl webhook replay ${file} --url ${c.url} --from-line 2 --rate 100/s  (line 2 may reach the consumer twice)`);
  });

  it('on a terminal: a row per answer, the consumer\'s words sanitised', async () => {
    const c = await consumer(() => ({ status: 200, body: '\u001b[2J\u001b]0;owned\u0007 thanks' }));
    const r = await runCli(['webhook', 'replay', eventsFile([emailEvent('msg-42\u001b[31m', 'click'), emailEvent('a-very-long-message-id-from-some-other-service', 'open')]), '--url', c.url], { env, tty: true });
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.split('\n').filter(Boolean);
    expect(rows[0]).toMatch(/^\s+LINE\s+EVENT\s+ID\s+STATUS\s+TIME\s+ANSWER$/);
    expect(rows[1]).toMatch(/^\s+1\s+click\s+msg-42\\e\[31m\s+200\s+\d+ ms\s+\\e\[2J\\e\]0;owned\\x07 thanks$/);
    expect(rows[2]).toMatch(/^\s+2\s+open\s+a-very-long-message-id-from…\s+200\s/);
    expect(rows[2].indexOf('200')).toBe(rows[0].indexOf('STATUS'));
    expect(r.stdout).not.toContain('\u001b');
  });

  it('a line whose event the service never sends (a re-split of a stored signature) stops the replay before anything is sent, --resign too', async () => {
    const c = await consumer();
    // The stored signature of "a" + "delivery" would verify "ad" + "elivery" at a consumer that trusts it.
    const forged = { ...emailEvent('ad', 'elivery'), signature: hmac(KEY, 'adelivery') };
    const file = eventsFile([{ ...emailEvent('a'), signature: hmac(KEY, 'adelivery') }, forged]);
    for (const extra of [[], ['--resign']]) {
      const r = await runCli(['webhook', 'replay', file, '--url', c.url, ...extra], { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('is not a webhook event: the event "elivery" is not one the service sends for email');
      expect(r.stderr).toContain('Nothing was sent.');
    }
    expect(c.got).toHaveLength(0);
  });

  it('--dry-run checks the file and lists what would be sent, sending nothing', async () => {
    const c = await consumer();
    const r = await runCli(['webhook', 'replay', eventsFile([emailEvent('a'), emailEvent('b', 'open', 'x-surenotify-signature')]), '--url', c.url, '--dry-run'], { env });
    expect(r.exitCode).toBe(0);
    expect(c.got).toHaveLength(0);
    expect(r.stdout).toBe('1\tdelivery\ta\tx-service-signature\tsigned again\n2\topen\tb\tx-surenotify-signature\tsigned again\n');
  });

  it('--dry-run: a message id full of escapes from the file is shown escaped (terminal) or as one TSV cell (piped)', async () => {
    const c = await consumer();
    const name = 'deli\u001b]0;owned\u0007\tvery\u001b[2J';
    const file = eventsFile([emailEvent(name)]);
    const piped = await runCli(['webhook', 'replay', file, '--url', c.url, '--dry-run'], { env });
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe('1\tdelivery\tdeli\\e]0;owned\\x07\\tvery\\e[2J\tx-service-signature\tsigned again\n');
    const shown = await runCli(['webhook', 'replay', file, '--url', c.url, '--dry-run'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).not.toContain('\u001b');
    expect(shown.stdout).toContain('deli\\e]0;owned\\x07');
    expect(c.got).toHaveLength(0);
  });

  it.each([
    [['missing.jsonl', '--url', 'http://127.0.0.1:1/'], 'does not exist'],
    [['FILE', '--url', 'http://127.0.0.1:1/', '--rate', 'fast'], '--rate takes events per second or per minute'],
    [['FILE', '--url', 'http://127.0.0.1:1/', '--rate', '0/s'], '--rate takes events'],
    [['FILE', '--url', 'http://127.0.0.1:1/', '--from-line', '9'], '--from-line 9 is past the end'],
    [['FILE'], 'No consumer URL'],
  ])('%j: usage error (exit 2)', async (args, message) => {
    const file = eventsFile([emailEvent('a')]);
    const r = await runCli(['webhook', 'replay', ...args.map((a) => (a === 'FILE' ? file : a === 'missing.jsonl' ? path.join(tempDir(), a) : a))], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
