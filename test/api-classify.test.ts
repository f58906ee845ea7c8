// src/api/classify.ts: the one place that decides what a failed request means. A table of every
// kind of failure with the facts it must give, then proof that the words of a message never
// change what is retried or resent: the classifier over generated messages, and the real HTTP
// client counting the requests it makes for the same failure worded differently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify, transportCause, type Attempt, type Outcome } from '../src/api/classify.js';
import { unusedPort } from './helpers/wait.js';
import { HttpClient } from '../src/api/http.js';
import { CONTACTS_REMOVED } from '../src/api/answers/campaign.js';
import { unlimited } from '../src/api/ratelimit.js';
import { certainlyNotDone, CliError, factsOf, type ErrorFacts } from '../src/core/errors.js';

const answer = (status: number, body?: unknown): Outcome => ({ kind: 'answer', status, body });
const GET = { method: 'GET' };
const SEND = { method: 'POST' }; // creates or sends: not repeatable
const UPSERT = { method: 'POST', idempotent: true };
const DELETE_SAFE = { method: 'DELETE', idempotent: true };

type Row = [string, Omit<Attempt, 'outcome'>, Outcome, Partial<ErrorFacts>];
const TABLE: Row[] = [
  // Limits are known by their body whatever the status (decisions row 5).
  ['daily limit body on 429', SEND, answer(429, { message: 'Limit Exceeded' }), { code: 'DAILY_LIMIT', reached: 'yes', refused: true, retryable: false }],
  ['daily limit body on 400, any case', GET, answer(400, { message: ' limit exceeded ' }), { code: 'DAILY_LIMIT', retryable: false }],
  ['per-second body on 429: a send may go again', SEND, answer(429, { message: 'too many requests' }), { code: 'RATE_LIMITED', reached: 'yes', refused: true, retryable: true }],
  ['per-second body on 503', SEND, answer(503, { message: 'too many requests' }), { code: 'RATE_LIMITED', refused: true, retryable: true }],
  ['bare 429', SEND, answer(429), { code: 'RATE_LIMITED', retryable: true }],
  ['Forbidden body (spec §5)', GET, answer(403, { message: 'Forbidden' }), { code: 'AUTH', reached: 'yes', refused: true, retryable: false }],
  ['401', GET, answer(401), { code: 'AUTH', refused: true }],
  ['403 from an upload address (no key went with it): a refusal of the address', { method: 'PUT', idempotent: true, keyless: true }, answer(403, 'expired'), { code: 'REFUSED', refused: true, retryable: false }],
  ['403 with a service code is a refusal, not the key (spec 000 §7: 40303)', GET, answer(403, { code: '40303', message: 'bad operation with invalid user state' }), { code: 'REFUSED', serviceCode: '40303', refused: true, retryable: false }],
  ['a redirect of the API', GET, answer(302), { code: 'BAD_RESPONSE', refused: true, retryable: false }],
  ['408: the service gave up waiting before acting', SEND, answer(408), { code: 'TIMEOUT', reached: 'yes', refused: true, retryable: true }],
  ['400 {code, invalidFields}', SEND, answer(400, { code: '40001', invalidFields: 'form.subject' }), { code: 'REFUSED', serviceCode: '40001', status: 400, retryable: false }],
  ['400 {code: number}', DELETE_SAFE, answer(400, { code: 40050308, message: 'x' }), { code: 'REFUSED', serviceCode: '40050308' }],
  ['400 {errorCode}', SEND, answer(400, { errorCode: '40011' }), { serviceCode: '40011' }],
  ['5xx on a read: retried', GET, answer(503, { message: 'Service Unavailable' }), { code: 'SERVICE_FAILED', reached: 'yes', refused: false, retryable: true }],
  ['5xx with a known service code on a read (the import status): still retried', GET, answer(500, { code: '40007' }), { code: 'SERVICE_FAILED', serviceCode: '40007', retryable: true }],
  ['5xx on a send: not retried, may have been done', SEND, answer(500, { message: 'Internal Server Error' }), { code: 'SERVICE_FAILED', reached: 'yes', refused: false, retryable: false }],
  ['5xx on an upsert', UPSERT, answer(502, 'Bad Gateway'), { code: 'SERVICE_FAILED', retryable: true }],
  ['import start failure: 500, no content (spec 000 §7)', SEND, answer(500), { code: 'SERVICE_FAILED', retryable: false }],
  ['webhook deletion failure 500 {success:false} (spec 001 §7): a definite answer', DELETE_SAFE, answer(500, { success: false }), { code: 'SERVICE_FAILED', refused: false, retryable: false }],
  ['a 2xx that cannot be read', GET, { kind: 'unreadable', status: 200 }, { code: 'BAD_RESPONSE', reached: 'yes', refused: false, retryable: false }],
  ['time-out on a read', GET, { kind: 'timeout' }, { code: 'TIMEOUT', reached: 'maybe', retryable: true }],
  ['time-out on a send', SEND, { kind: 'timeout' }, { code: 'TIMEOUT', reached: 'maybe', retryable: false }],
  ['connection refused on a send: never arrived', SEND, { kind: 'network', cause: 'ECONNREFUSED' }, { code: 'NETWORK', reached: 'no', retryable: true }],
  ['unknown host on a send', SEND, { kind: 'network', cause: 'ENOTFOUND' }, { reached: 'no', retryable: true }],
  ['connection reset on a send: may have arrived', SEND, { kind: 'network', cause: 'ECONNRESET' }, { code: 'NETWORK', reached: 'maybe', retryable: false }],
  ['socket closed on a read', GET, { kind: 'network', cause: 'UND_ERR_SOCKET' }, { reached: 'maybe', retryable: true }],
  ['upload PUT broken while the body was sent', { method: 'PUT', idempotent: true }, { kind: 'network', cause: 'EPIPE' }, { reached: 'maybe', retryable: true }],
  ['Ctrl-C mid-request', SEND, { kind: 'interrupted' }, { code: 'INTERRUPTED', reached: 'maybe', retryable: false }],
];

describe('classify: one verdict per kind of failure', () => {
  it.each(TABLE)('%s', (_name, attempt, outcome, expected) => {
    expect(classify({ ...attempt, outcome })).toMatchObject(expected);
  });

  it('a GET is repeatable whatever the caller declared', () => {
    expect(classify({ method: 'get', idempotent: false, outcome: answer(503) }).retryable).toBe(true);
  });

  it('a request that is not repeatable is retryable only when it certainly had no effect', () => {
    const outcomes = fc.oneof(
      fc.record({ kind: fc.constant('answer' as const), status: fc.integer({ min: 300, max: 599 }), body: fc.anything() }),
      fc.constantFrom<Outcome>({ kind: 'timeout' }, { kind: 'interrupted' }, { kind: 'unreadable', status: 200 }),
      fc.record({ kind: fc.constant('network' as const), cause: fc.constantFrom('ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'network error') }),
    );
    fc.assert(
      fc.property(outcomes, (outcome) => {
        const f = classify({ method: 'POST', outcome });
        if (f.retryable) expect(f.reached === 'no' || (f.reached === 'yes' && f.refused)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

// What a service may say in its own words: anything but the documented whole-message values.
const KNOWN = new Set(['too many requests', 'limit exceeded', 'forbidden']);
const words = fc
  .oneof(fc.string(), fc.constantFrom('ECONNREFUSED', 'too many requests, try later', 'Limit Exceeded for attachments', 'not Forbidden', 'retry', 'success: false', 'connection refused'))
  .filter((m) => !KNOWN.has(m.trim().toLowerCase()));

describe('message text never decides', () => {
  it('the same failure with any wording of message/errors/error gets the same facts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), fc.boolean(), fc.option(fc.constantFrom('40001', 40050308, '40303')), words, (status, method, idempotent, code, m) => {
        const shape = (text: string) => ({ ...(code === null ? {} : { code }), message: text, errors: text, error: text });
        expect(classify({ method, idempotent, outcome: answer(status, shape(m)) })).toEqual(classify({ method, idempotent, outcome: answer(status, shape('neutral words')) }));
        // A plain-text body is words too.
        expect(classify({ method, idempotent, outcome: answer(status, m || undefined) })).toEqual(classify({ method, idempotent, outcome: answer(status, undefined) }));
      }),
      { numRuns: 400 },
    );
  });
});

/** The real client against a scripted transport: how many requests a failure costs, and what it throws. */
async function callThrough(method: string, idempotent: boolean, status: number, body: unknown): Promise<{ requests: number; error: CliError }> {
  let requests = 0;
  const fetchFn: typeof fetch = async () => {
    requests++;
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const http = new HttpClient({ service: 'campaign', baseUrl: 'http://service.test', apiKey: 'k', fetch: fetchFn, limiter: unlimited, retryBaseMs: 0, retryLimit: 3 });
  const error = await http.call(method, '/v1/x', { idempotent, answer: CONTACTS_REMOVED }).then(
    () => { throw new Error('expected a failure'); },
    (e: unknown) => e as CliError,
  );
  expect(error).toBeInstanceOf(CliError);
  return { requests, error };
}

describe('rewording cannot change what is retried or resent (HttpClient)', () => {
  it.each([
    // [method, idempotent, status, a wording that once changed the decision]
    ['POST', false, 500, { message: 'Upstream said: too many requests' }],
    ['POST', false, 503, 'Service busy (too many requests in queue)'],
    ['GET', true, 503, { message: 'Limit Exceeded on a replica, try again' }],
    ['GET', true, 500, { code: '40007', message: 'daily limit exceeded soon' }],
    ['DELETE', true, 500, { success: false, message: 'ok' }],
    ['POST', false, 400, { errors: 'ECONNREFUSED' }],
  ] as const)('%s %s → %s %j: same requests and facts as plain words', async (method, idempotent, status, reworded) => {
    const plain = typeof reworded === 'string' ? 'plain words' : { ...reworded, message: 'plain words' };
    const a = await callThrough(method, idempotent, status, reworded);
    const b = await callThrough(method, idempotent, status, plain);
    expect(a.requests).toBe(b.requests);
    expect(factsOf(a.error)).toEqual(factsOf(b.error));
    expect(certainlyNotDone(a.error)).toBe(certainlyNotDone(b.error));
  });

  it('the retry decision and the thrown facts agree: retried exactly when retryable', async () => {
    for (const [method, idempotent, status, body] of [
      ['DELETE', true, 500, { success: false }], // the documented definite failure: once, not retryable
      ['GET', true, 500, { code: '40007' }], // a read failing with a service code: retried, retryable
      ['POST', false, 500, {}], // a send: once, not retryable
      ['POST', false, 429, { message: 'too many requests' }], // the gate: retried, retryable
      ['POST', false, 429, { message: 'Limit Exceeded' }], // the daily cap: once, not retryable
    ] as const) {
      const { requests, error } = await callThrough(method, idempotent, status, body);
      expect({ method, status, body, requests }).toEqual({ method, status, body, requests: error.facts.retryable ? 4 : 1 });
      expect(error.facts).toEqual(classify({ method, idempotent, outcome: answer(status, body) }));
    }
  });
});

describe('transportCause: the code a transport failure shows (not "network error")', () => {
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
  const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

  it('Node\'s fetch to a closed loopback port: ECONNREFUSED, which proves nothing was sent', async () => {
    const e = await fetch(`http://127.0.0.1:${await unusedPort()}/`).then(() => undefined, (err: unknown) => err);
    expect(transportCause(e)).toBe('ECONNREFUSED');
    expect(classify({ method: 'POST', outcome: { kind: 'network', cause: transportCause(e)! } })).toMatchObject({ reached: 'no', retryable: true });
  });

  it('a host with several addresses, each refused: the code is read from the attempts of the AggregateError', () => {
    const each = new AggregateError([coded('connect ECONNREFUSED ::1:8080', 'ECONNREFUSED'), coded('connect ECONNREFUSED 127.0.0.1:8080', 'ECONNREFUSED')], '');
    expect(transportCause(fetchFailed(each))).toBe('ECONNREFUSED');
  });

  it('a code nested four causes deep is still found; a failure without any says "network error"', () => {
    expect(transportCause(fetchFailed(new Error('a', { cause: new Error('b', { cause: new Error('c', { cause: coded('d', 'UND_ERR_SOCKET') }) }) })))).toBe('UND_ERR_SOCKET');
    expect(transportCause(fetchFailed(new Error('bad port')))).toBe('network error');
    expect(transportCause(new Error('not a transport failure'))).toBeUndefined();
  });
});

describe('callTracked: whether an answer comes from a retry after an attempt that may have been carried out', () => {
  const failure = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
  async function tracked(first: () => Response | never): Promise<{ afterDoubt: boolean; requests: number }> {
    let requests = 0;
    const fetchFn: typeof fetch = async () => (++requests === 1 ? first() : new Response('{"updated_count":0}', { status: 200, headers: { 'content-type': 'application/json' } }));
    const http = new HttpClient({ service: 'campaign', baseUrl: 'http://service.test', apiKey: 'k', fetch: fetchFn, limiter: unlimited, retryBaseMs: 0, retryLimit: 3 });
    const r = await http.callTracked('DELETE', '/v1/x', { idempotent: true, answer: CONTACTS_REMOVED });
    return { afterDoubt: r.afterDoubt, requests };
  }

  it.each([
    ['a connection reset (the answer lost)', () => { throw failure('ECONNRESET'); }, true],
    ['a 500 (part of the work may be done)', () => new Response('{}', { status: 500 }), true],
    ['a refused connection (never reached)', () => { throw failure('ECONNREFUSED'); }, false],
    ['a 429 (refused before any work)', () => new Response('{}', { status: 429 }), false],
  ] as const)('%s → afterDoubt %s', async (_, first, expected) => {
    expect(await tracked(first)).toEqual({ afterDoubt: expected, requests: 2 });
  });
});
