// `--json` errors carry a stable machine-readable `code` beside the message (issue 11 §3), so a
// script can branch without reading words: AUTH for a refused key, RATE_LIMITED for a per-second
// limit that outlasted the retries, DAILY_LIMIT for the daily cap (decisions row 5: known by the
// body, never retried), and the service's own code as `serviceCode`. Each against the sandbox.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/balance', 'GET /campaign/v1/templates/:id'] });
const balanceCalls = (from: number) => sb.get().sandbox.requests('campaign').slice(from).filter((r) => r.path === '/v1/balance');

async function jsonError(argv: string[], env: Record<string, string> = {}) {
  const r = await runCli([...argv, '--json'], { sandbox: sb.get(), env });
  const doc = JSON.parse(r.stdout); // exactly one JSON document, even on failure
  return { exitCode: r.exitCode, error: doc.error };
}

describe('--json error codes', () => {
  it('a key the service refuses: AUTH, exit 3', async () => {
    const { exitCode, error } = await jsonError(['balance'], { MAILCTL_CAMPAIGN_API_KEY: 'not-the-key' });
    expect(exitCode).toBe(3);
    expect(error).toMatchObject({ code: 'AUTH', status: 403, exitCode: 3 });
    expect(error.message).toMatch(/refused the API key/);
  });

  it('"too many requests" through every retry: RATE_LIMITED, exit 4', async () => {
    const from = sb.get().sandbox.requests().length;
    sb.get().sandbox.injectFault({ kind: 'status', status: 429, body: { message: 'too many requests' }, times: 10, match: { path: '/v1/balance' } });
    const { exitCode, error } = await jsonError(['balance']);
    sb.get().sandbox.faults.splice(0);
    expect(exitCode).toBe(4);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, exitCode: 4 });
    expect(balanceCalls(from).length).toBeGreaterThan(1); // it was retried first
  });

  it('the daily cap ("Limit Exceeded"): DAILY_LIMIT, exit 4, not retried', async () => {
    const from = sb.get().sandbox.requests().length;
    sb.get().sandbox.injectFault({ kind: 'status', status: 429, body: { message: 'Limit Exceeded' }, times: 10, match: { path: '/v1/balance' } });
    const { exitCode, error } = await jsonError(['balance']);
    sb.get().sandbox.faults.splice(0);
    expect(exitCode).toBe(4);
    expect(error).toMatchObject({ code: 'DAILY_LIMIT', exitCode: 4 });
    expect(balanceCalls(from)).toHaveLength(1);
  });

  it("a refusal with the service's own code: REFUSED, serviceCode 40007, exit 1", async () => {
    const { exitCode, error } = await jsonError(['template', 'show', 'no-such-template']);
    expect(exitCode).toBe(1);
    expect(error).toMatchObject({ code: 'REFUSED', serviceCode: '40007', status: 400, exitCode: 1 });
  });
});
