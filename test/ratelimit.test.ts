// The client-side rate limiter (src/api/ratelimit.ts; spec 000 §8 "request rate: 2 requests per
// second"; decisions row 20 "Requests from one process never trip the per-second limit"), checked
// the way the service sees it: arrival times at a sandbox that enforces 2/s. This is the one
// slow test of the client (~4.5 s): ten calls at two a second.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import type { RunningSandbox } from '../src/sandbox/server.js';

const sb = useSandbox({ limits: { perSecond: 2 }, expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert'] });
let own: RunningSandbox;

beforeAll(async () => {
  own = sb.get();
  // Seed nine groups quickly with the server's limit lifted (set-up, not what is tested).
  own.sandbox.options.limits.perSecond = false;
  for (let i = 1; i <= 9; i++) expect((await runCli(['groups', 'create', `Group ${i}`], { sandbox: own })).exitCode).toBe(0);
  own.sandbox.options.limits.perSecond = 2;
});

describe('client-side rate limit', () => {
  it('`groups list --all --size 1` makes 10 calls at ≤ 2 per second as the sandbox sees them, and none is refused', async () => {
    const from = own.sandbox.requests().length;
    const r = await runCli(['groups', 'list', '--all', '--size', '1'], { sandbox: own, tuning: { rateLimit: true } });
    expect(r.exitCode).toBe(0);
    expect(tsvRows(r.stdout)).toHaveLength(9); // under the header line

    const calls = own.sandbox.requests('campaign').slice(from);
    expect(calls).toHaveLength(10); // pages 0–8 full, page 9 empty
    expect(calls.map((c) => c.status)).toEqual(Array(10).fill(200)); // no 429 "too many requests"
    // Any 1-second window holds at most 2 arrivals ⇔ every third arrival is ≥ 1 s after the first.
    const at = calls.map((c) => c.at);
    for (let i = 0; i + 2 < at.length; i++) expect(at[i + 2] - at[i], `arrivals ${i} and ${i + 2}`).toBeGreaterThanOrEqual(1000);
  });
});
