// decisions row 5: "Retry-After not known to be sent" — but when a 429 carries one, the client
// waits at least that long before asking again, instead of its own shorter backoff.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('429 with Retry-After', () => {
  it('waits the time the service asks for, then succeeds', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 429, body: { message: 'too many requests' }, headers: { 'retry-after': '1' }, times: 1, match: { path: '/v1/balance' } });
    const r = await runCli(['balance'], { sandbox: sb.get() }); // retryBaseMs 10: without the header it would retry at once
    expect(r.exitCode).toBe(0);
    const tries = sb.get().sandbox.requests('campaign').filter((q) => q.path === '/v1/balance');
    expect(tries.map((q) => q.status)).toEqual([429, 200]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(950);
  });

  it('still never retries the daily "Limit Exceeded", whatever the status says', async () => {
    const before = sb.get().sandbox.requests('campaign').length;
    sb.get().sandbox.injectFault({ kind: 'status', status: 429, body: { message: 'Limit Exceeded' }, headers: { 'retry-after': '1' }, times: 1, match: { path: '/v1/balance' } });
    const r = await runCli(['balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(4);
    expect(sb.get().sandbox.requests('campaign').length - before).toBe(1);
  });
});
