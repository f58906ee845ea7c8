// One rate budget per key across real processes (issue 11 §2): several built `mailctl` processes
// on one key and one config folder, at once or one after another, against a sandbox that
// enforces the spec's 2 requests/s (spec 000 §8). The sandbox must never have answered 429:
// each process alone paces itself, but only a shared budget keeps them from crowding each other.
// Nothing here is timed, so a loaded machine (processes descheduled between admission and
// sending, as when other test files run beside this one) only makes it slower; the generous
// time-outs are for that. Checked with three busy-looping processes running meanwhile.
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({
  limits: { perSecond: 2 },
  expect: [
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
  ],
});

beforeAll(async () => {
  // Four groups, made with the limit lifted (set-up, not what is tested).
  const s = sb.get();
  s.sandbox.options.limits.perSecond = false;
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${s.campaignUrl}/v1/contacts/lists/insert`, { method: 'POST', headers: { 'x-api-key': SANDBOX_KEYS.campaign, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Shared ${i}` }) });
    expect(res.status).toBe(200);
  }
  s.sandbox.options.limits.perSecond = 2;
});

/** The built CLI as its own process on `configDir` (also its home), against the sandbox. */
const mailctl = (configDir: string, args: string[]) => spawnCli(args, { sandbox: sb.get(), home: configDir, configDir }).exited;

/** What the sandbox's campaign service answered from `from` on. */
const statuses = (from: number) => sb.get().sandbox.requests('campaign').slice(from).map((r) => r.status);

/**
 * The sandbox forgets the per-second window of earlier requests (set-up, an earlier test), whose
 * processes shared another config folder's budget: each test starts on an empty window, as a
 * wait of a second would leave it, without waiting. What is timed is the processes' own pacing.
 */
const quiet = () => {
  sb.get().sandbox.state.rateLog.length = 0;
};

describe('one rate budget per key across processes', () => {
  it('five `balance` processes at once: every one succeeds and the service never answers 429', async () => {
    quiet();
    const cfg = tempDir('mailctl-shared-');
    const from = sb.get().sandbox.requests('campaign').length;
    const runs = await Promise.all(Array.from({ length: 5 }, () => mailctl(cfg, ['balance', '--json'])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(statuses(from)).toEqual(Array(5).fill(200));
  }, 90_000);

  it('three `groups list --all --size 2` at once (3 pages each), then three `balance` one after another: no 429', async () => {
    quiet();
    const cfg = tempDir('mailctl-shared-');
    const from = sb.get().sandbox.requests('campaign').length;
    const lists = await Promise.all([0, 1, 2].map(() => mailctl(cfg, ['groups', 'list', '--all', '--size', '2'])));
    for (const r of lists) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toHaveLength(5); // the header line and 4 groups
    }
    for (let i = 0; i < 3; i++) expect((await mailctl(cfg, ['balance'])).code).toBe(0);
    expect(statuses(from)).toEqual(Array(12).fill(200));
  }, 90_000);
});
