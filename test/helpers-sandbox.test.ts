// test/helpers/sandbox.ts: a test fails on any request to the sandbox it did not expect, and on
// a required request it never made. The check itself is run directly (its message is the
// point), and once through afterEach (the test is marked as expected to fail).
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { parseExpectation, requestProblems, useSandbox } from './helpers/sandbox.js';
import type { Recorded } from '../src/sandbox/types.js';

const req = (method: string, service: Recorded['service'], path: string, status = 200) => ({ method, service, path, status });

describe('requestProblems', () => {
  const expected = ['GET /campaign/v1/balance', 'GET /campaign/v1/campaign/normal/:sn', 'PUT /files/u/*', '* /links/**'].map((p) => parseExpectation(p));

  it('a request matching an expectation (a :param or * for one segment, ** for the rest, any query) passes', () => {
    expect(requestProblems([
      req('GET', 'campaign', '/v1/balance'),
      req('GET', 'campaign', '/v1/campaign/normal/CP1'),
      req('PUT', 'files', '/u/abc'),
      req('HEAD', 'links', '/redirect'),
    ], expected)).toEqual([]);
  });

  it('anything else is listed with its method, path and service: another method, another service, one segment more or less', () => {
    expect(requestProblems([
      req('POST', 'campaign', '/v1/balance'),
      req('GET', 'notify', '/v1/balance'),
      req('GET', 'campaign', '/v1/campaign/normal'),
      req('GET', 'campaign', '/v1/campaign/normal/CP1/extra'),
      req('GET', 'files', '/d/abc', 404),
    ], expected)).toEqual([
      'unexpected request: POST /campaign/v1/balance (service campaign, answered 200)',
      'unexpected request: GET /notify/v1/balance (service notify, answered 200)',
      'unexpected request: GET /campaign/v1/campaign/normal (service campaign, answered 200)',
      'unexpected request: GET /campaign/v1/campaign/normal/CP1/extra (service campaign, answered 200)',
      'unexpected request: GET /files/d/abc (service files, answered 404)',
    ]);
  });

  it('a required expectation never met is listed', () => {
    const required = parseExpectation('POST /notify/v1/messages', true);
    expect(requestProblems([], [required])).toEqual(['expected request never made: POST /notify/v1/messages']);
    expect(requestProblems([req('POST', 'notify', '/v1/messages')], [required])).toEqual([]);
  });

  it('an expectation that is not METHOD /path is refused when written', () => {
    expect(() => parseExpectation('/v1/balance')).toThrow(/METHOD \/service\/path/);
    expect(() => parseExpectation('get /campaign/v1/balance')).toThrow(/METHOD \/service\/path/);
  });
});

describe('useSandbox', () => {
  const sb = useSandbox({ expect: ['GET /campaign/v1/balance'] });

  it('an expected request passes; an unexpected one is named by the check afterEach runs', async () => {
    expect((await runCli(['balance'], { sandbox: sb.get() })).exitCode).toBe(0);
    sb.verify(); // only what the file expects so far: no complaint
    expect((await runCli(['groups', 'list'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect(() => sb.verify()).toThrow(/^unexpected request: GET \/campaign\/v1\/contacts\/lists \(service campaign, answered 200\)\n/);
    // Checked requests are not checked again: afterEach finds nothing left.
  });

  it.fails('an unexpected request fails the test through afterEach', async () => {
    await runCli(['groups', 'list'], { sandbox: sb.get() });
  });

  it('sb.expect allows a request in the test that says so…', async () => {
    sb.expect('GET /campaign/v1/contacts/lists');
    expect((await runCli(['groups', 'list'], { sandbox: sb.get() })).exitCode).toBe(0);
  });

  it.fails('…and not in the next one', async () => {
    await runCli(['groups', 'list'], { sandbox: sb.get() });
  });

  it('a required request never made is named', async () => {
    sb.expect('POST /notify/v1/messages', { required: true });
    expect((await runCli(['balance'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect(() => sb.verify()).toThrow(/^expected request never made: POST \/notify\/v1\/messages\n/);
  });

  it.fails('a required request never made fails the test through afterEach', () => {
    sb.expect('POST /notify/v1/messages', { required: true });
  });
});
