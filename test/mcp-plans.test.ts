// The plans of mailctl mcp's two-step writes (src/mcp/plan-tokens.ts): a token is honoured once,
// within 10 minutes of the injected clock, for the tool and arguments it was made for; and the
// guard under a confirmed run's API clients (src/mcp/plan-guard.ts) lets through only the
// planned endpoints.
import { describe, expect, it } from 'vitest';
import { canonicalJson, PLAN_TTL_MS, PlanBook } from '../src/mcp/plan-tokens.js';
import { NotPlannedError, planGuard } from '../src/mcp/plan-guard.js';
import type { Clock } from '../src/core/clock.js';
import type { RecordedRequest } from '../src/api/recorder.js';
import { certainlyNotDone } from '../src/core/errors.js';

function manualClock(start = Date.UTC(2026, 0, 1)): Clock & { advance(ms: number): void } {
  let t = start;
  return { now: () => t, sleep: async () => {}, advance: (ms) => (t += ms) };
}

const ARGS = { type: 'delivery', url: 'https://hooks.example.com/a' };
const REQUESTS = [{ method: 'POST', url: 'http://h/notify/v1/webhooks', headers: {}, body: { type: 3, url: 'https://hooks.example.com/a' } }];

describe('plan tokens', () => {
  it('a token is honoured once', () => {
    const book = new PlanBook(manualClock());
    const { token } = book.issue('webhook_set', ARGS, REQUESTS);
    expect(book.claim(token, 'webhook_set', ARGS)).toEqual({ ok: true });
    expect(book.claim(token, 'webhook_set', ARGS)).toEqual({ ok: false, reason: 'used' });
  });

  it('the same write planned again gets a new token; the used one stays refused (it once came back re-armed: a mail sent twice)', () => {
    const clock = manualClock();
    const book = new PlanBook(clock);
    const first = book.issue('webhook_set', ARGS, REQUESTS);
    expect(book.claim(first.token, 'webhook_set', ARGS)).toEqual({ ok: true });
    const again = book.issue('webhook_set', ARGS, REQUESTS);
    expect(again.token).not.toBe(first.token);
    expect(book.claim(first.token, 'webhook_set', ARGS)).toEqual({ ok: false, reason: 'used' });
    // An expired one is not revived by a new plan either.
    const late = book.issue('webhook_set', ARGS, REQUESTS);
    clock.advance(PLAN_TTL_MS + 1);
    book.issue('webhook_set', ARGS, REQUESTS);
    expect(book.claim(late.token, 'webhook_set', ARGS)).toEqual({ ok: false, reason: 'expired' });
    expect(book.claim(again.token, 'webhook_set', ARGS)).toEqual({ ok: false, reason: 'expired' });
  });

  it('expires 10 minutes after it was made (the injected clock), and says so rather than "unknown"', () => {
    const clock = manualClock();
    const book = new PlanBook(clock);
    const a = book.issue('webhook_set', ARGS, REQUESTS);
    const b = book.issue('webhook_set', { ...ARGS, url: 'https://hooks.example.com/b' }, REQUESTS);
    expect(new Date(a.expiresAt).getTime()).toBe(clock.now() + PLAN_TTL_MS);
    clock.advance(PLAN_TTL_MS);
    expect(book.claim(a.token, 'webhook_set', ARGS)).toEqual({ ok: true });
    clock.advance(1);
    expect(book.claim(b.token, 'webhook_set', { ...ARGS, url: 'https://hooks.example.com/b' })).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token for other arguments or another tool, and it stays good for its own', () => {
    const book = new PlanBook(manualClock());
    const { token } = book.issue('webhook_set', ARGS, REQUESTS);
    expect(book.claim(token, 'webhook_set', { ...ARGS, url: 'https://evil.example.com/' })).toEqual({ ok: false, reason: 'other-arguments' });
    expect(book.claim(token, 'webhook_set', { type: 'delivery' })).toEqual({ ok: false, reason: 'other-arguments' });
    expect(book.claim(token, 'webhook_delete', ARGS)).toEqual({ ok: false, reason: 'other-arguments' });
    expect(book.claim(token, 'webhook_set', { url: ARGS.url, type: ARGS.type })).toEqual({ ok: true }); // key order is not an argument
  });

  it('knows no token it did not issue: another server\'s, a forged or a tampered one', () => {
    const clock = manualClock();
    const mine = new PlanBook(clock);
    const theirs = new PlanBook(clock);
    const { token } = theirs.issue('webhook_set', ARGS, REQUESTS);
    mine.issue('webhook_set', ARGS, REQUESTS);
    expect(mine.claim(token, 'webhook_set', ARGS)).toEqual({ ok: false, reason: 'unknown' });
    const own = mine.issue('groups_create', { name: 'x' }, []).token;
    expect(mine.claim(`${own.slice(0, -1)}${own.endsWith('A') ? 'B' : 'A'}`, 'groups_create', { name: 'x' })).toEqual({ ok: false, reason: 'unknown' });
  });

  it('holds the plan to the requests: a recording made again must be the same', () => {
    const book = new PlanBook(manualClock());
    const { token } = book.issue('webhook_set', ARGS, REQUESTS);
    expect(book.holds(token, 'webhook_set', ARGS, structuredClone(REQUESTS))).toBe(true);
    expect(book.holds(token, 'webhook_set', ARGS, [{ ...REQUESTS[0], body: { type: 3, url: 'https://hooks.example.com/changed' } }])).toBe(false);
    expect(book.holds(token, 'webhook_set', ARGS, [...REQUESTS, ...REQUESTS])).toBe(false);
  });

  it('canonical JSON does not depend on key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }], u: undefined })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
});

describe('the guard of a confirmed run', () => {
  const planned: RecordedRequest[] = [
    { method: 'POST', url: 'http://h:1/campaign/v1/contacts/imports/Newsletter/text', headers: {} },
    { method: 'DELETE', url: 'http://h:1/notify/v1/webhooks?type=3', headers: {} },
    { method: 'PUT', url: '(the upload url in the answer)', headers: {} },
  ];
  function guarded() {
    const sent: string[] = [];
    const fetch = planGuard(async (input, init) => {
      const req = input instanceof Request ? input : new Request(input, init);
      sent.push(`${req.method} ${req.url}`);
      return new Response(null, { status: 204 });
    }, planned, ['Newsletter', 'ann@example.com']);
    return { fetch, sent };
  }

  it('lets reads and the planned endpoints through; a group named in the arguments may become its code', async () => {
    const { fetch, sent } = guarded();
    await fetch('http://h:1/campaign/v1/contacts/lists?page=0&size=100');
    await fetch(new Request('http://h:1/campaign/v1/contacts/imports/LS123/text', { method: 'POST', body: '{}' }));
    await fetch('http://h:1/notify/v1/webhooks?type=3', { method: 'DELETE' });
    expect(sent).toEqual([
      'GET http://h:1/campaign/v1/contacts/lists?page=0&size=100',
      'POST http://h:1/campaign/v1/contacts/imports/LS123/text',
      'DELETE http://h:1/notify/v1/webhooks?type=3',
    ]);
  });

  it.each([
    ['POST', 'http://h:1/campaign/v1/contacts/lists/insert'], // a group created only when missing
    ['POST', 'http://h:1/campaign/v1/contacts/imports/LS123/file'], // another endpoint
    ['DELETE', 'http://h:1/notify/v1/webhooks?type=4'], // another webhook
    ['POST', 'http://other:1/campaign/v1/contacts/imports/Newsletter/text'], // another host
    ['PUT', 'http://h:1/campaign/v1/contacts/imports/Newsletter/text'], // another method
    ['POST', 'http://h:1/campaign/v1/contacts/imports//text'], // an empty segment is no code
  ])('refuses %s %s before it is sent, as certainly not done', async (method, url) => {
    const { fetch, sent } = guarded();
    const e = await fetch(url, { method }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotPlannedError);
    expect((e as NotPlannedError).facts).toMatchObject({ code: 'NOT_PLANNED', reached: 'no' });
    expect(certainlyNotDone(e)).toBe(true);
    expect(sent).toEqual([]);
  });

  it('for a batch tool, holds bodies too: a planned batch goes (again, when retried), another batch to the same endpoint does not', async () => {
    const batch = { subject: 'Hi', recipients: [{ address: 'a@example.com' }, { address: 'b@example.com' }] };
    const sent: unknown[] = [];
    const fetch = planGuard(async (input) => {
      sent.push(await (input as Request).json());
      return new Response(null, { status: 204 });
    }, [{ method: 'POST', url: 'http://h:1/notify/v1/messages', headers: {}, body: batch }], [], { bodies: true });
    const post = (body: unknown) => fetch(new Request('http://h:1/notify/v1/messages', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));
    const sameKeysOtherOrder = { recipients: batch.recipients, subject: 'Hi' };
    await post(sameKeysOtherOrder);
    await post(batch);
    await expect(post({ ...batch, recipients: [...batch.recipients, { address: 'c@example.com' }] })).rejects.toBeInstanceOf(NotPlannedError);
    expect(sent).toEqual([sameKeysOtherOrder, batch]);
  });
});
