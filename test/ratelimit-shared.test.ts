// The rate budget shared by every mailctl process on one key (issue 11 §2; spec 000 §8: 2
// requests/s per key). Two limiters over one folder stand for two processes; a fake clock makes
// the waits visible without waiting. The lock: a holder that is gone, or a lock older than its
// short bound, never blocks; a live holder's fresh lock does. An unwritable config folder falls
// back to the process's own pacing, with one warning under -v.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { SharedWindowLimiter, budgetName, IN_FLIGHT_MAX_MS, LOCK_STALE_MS } from '../src/api/ratelimit-shared.js';
import type { Ticket } from '../src/api/ratelimit.js';
import type { Clock } from '../src/core/clock.js';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { finishedCampaigns, FINISHED_CAMPAIGNS, REPORT_EXPORT } from './helpers/report-sync.js';

/**
 * Time that moves only when someone sleeps (or the test moves it); `slept` lists each sleep, and
 * `onSleep` runs after each, at the new time (what another process does meanwhile).
 */
function fakeClock(start = 1_000_000): Clock & { slept: number[]; pass(ms: number): void; onSleep?: () => Promise<void> } {
  let t = start;
  const slept: number[] = [];
  const clock = {
    slept,
    now: () => t,
    pass: (ms: number) => void (t += ms),
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
      await clock.onSleep?.();
    },
    onSleep: undefined as undefined | (() => Promise<void>),
  };
  return clock;
}

const KEY = 'k-0123456789abcdef';
const URL_ = 'https://api.example.com';

function limiter(dir: string, clock: Clock, warn?: (m: string) => void) {
  return new SharedWindowLimiter({ dir, name: budgetName(URL_, KEY, 'requests'), max: 2, windowMs: 1000, clock, warn });
}

describe('one budget for two processes', () => {
  it('a third request from another process waits until the first two have left the window', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const b = limiter(dir, clock);
    const t0 = clock.now();
    for (const t of [await a.take(), await a.take()]) await a.answered(t as Ticket);
    expect(clock.slept).toEqual([]); // two fit
    await b.take();
    expect(clock.slept).toEqual([1000]); // until the other process's two answers are a second old
    expect(clock.now() - t0).toBe(1000);
  });

  it('without sharing (two separate folders) the same third request would not wait: the folder is what they share', async () => {
    const clock = fakeClock();
    const a = limiter(tempDir('mailctl-budget-'), clock);
    const b = limiter(tempDir('mailctl-budget-'), clock);
    for (const t of [await a.take(), await a.take()]) await a.answered(t as Ticket);
    await b.take();
    expect(clock.slept).toEqual([]);
  });

  it('a request holds its slot until a second after its answer, however late that comes (a process descheduled before sending)', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const b = limiter(dir, clock);
    await a.answered((await a.take()) as Ticket, 200); // a's connection is warm
    clock.pass(1000);
    const t0 = clock.now();
    const first = (await a.take()) as Ticket;
    clock.pass(10);
    const second = (await a.take()) as Ticket;
    clock.pass(290); // the process was descheduled: both went out only now
    await a.answered(first, 200);
    await a.answered(second, 200);
    await b.take();
    expect(clock.now() - t0).toBe(300 + 1000); // the service may have counted both just before 300
  });

  it('a request still unanswered holds its slot: another process waits for its answer, then a second', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const b = limiter(dir, clock);
    const t0 = clock.now();
    const slow = (await a.take()) as Ticket;
    await a.take(); // never answered while b waits
    let answeredAt = 0;
    clock.onSleep = async () => {
      if (clock.now() - t0 < 2500) return;
      clock.onSleep = undefined;
      answeredAt = clock.now() - t0;
      await a.answered(slow, 200);
    };
    await b.take();
    expect(answeredAt).toBeGreaterThanOrEqual(2500);
    expect(clock.now() - t0).toBe(answeredAt + 1000);
  });

  it('a request that failed without an answer (a time-out) frees its slot a second after the failure', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const b = limiter(dir, clock);
    const t0 = clock.now();
    const one = (await a.take()) as Ticket;
    const two = (await a.take()) as Ticket;
    clock.pass(3000);
    await a.answered(one); // no status: it failed
    await a.answered(two);
    await b.take();
    expect(clock.now() - t0).toBe(4000);
  });

  it('a 429 seen by one process pauses every process for a second, though the budget looks free', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const b = limiter(dir, clock);
    const t0 = clock.now();
    await a.answered((await a.take()) as Ticket, 429); // the service counted something nobody here knows of
    await b.take();
    expect(clock.now() - t0).toBe(1000);
  });

  it("a request of a process that is gone (kill -9 mid-request) holds its slot a second from when that is seen, not until its answer", async () => {
    const dir = tempDir('mailctl-budget-');
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const clock = fakeClock();
    const t0 = clock.now();
    const entries = [0, 1].map((i) => ({ id: `gone-${i}`, s: t0 - 10, pid: dead, host: os.hostname() }));
    fs.writeFileSync(path.join(dir, `${budgetName(URL_, KEY, 'requests')}.json`), JSON.stringify({ entries }));
    await limiter(dir, clock).take();
    expect(clock.now() - t0).toBe(1000);
  });

  it(`an unanswered request of a live process counts as answered after ${IN_FLIGHT_MAX_MS / 1000} s (its record was lost)`, async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    const a = limiter(dir, clock);
    const t0 = clock.now();
    await a.take();
    await a.take();
    await limiter(dir, clock).take();
    expect(clock.now() - t0).toBe(IN_FLIGHT_MAX_MS + 1000);
  });

  it('names its files by a hash of base URL and key: no file name or content holds the key', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    await limiter(dir, clock).take();
    const names = fs.readdirSync(dir);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) {
      expect(n).not.toContain(KEY);
      expect(fs.readFileSync(path.join(dir, n), 'utf8')).not.toContain(KEY);
      expect(fs.statSync(path.join(dir, n)).mode & 0o077).toBe(0);
    }
    expect(budgetName(URL_, KEY, 'requests')).not.toBe(budgetName(URL_, 'another-key', 'requests'));
    expect(budgetName(URL_, KEY, 'requests')).not.toBe(budgetName('https://other.example.com', KEY, 'requests'));
  });

  it('a damaged budget file counts as empty', async () => {
    const dir = tempDir('mailctl-budget-');
    const clock = fakeClock();
    fs.writeFileSync(path.join(dir, `${budgetName(URL_, KEY, 'requests')}.json`), '{"entries": [1, 2');
    const l = limiter(dir, clock);
    await l.take();
    expect(l.local).toBe(false);
  });
});

describe('the lock', () => {
  const lockOf = (dir: string) => path.join(dir, `${budgetName(URL_, KEY, 'requests')}.lock`);
  const holder = (pid: number) => JSON.stringify({ pid, host: os.hostname(), token: 'other' });

  it('a lock left by a process that is gone is taken over at once', async () => {
    const dir = tempDir('mailctl-budget-');
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    fs.writeFileSync(lockOf(dir), holder(dead));
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lockOf(dir), later, later); // never old enough: only the gone pid frees it
    const warned: string[] = [];
    const l = limiter(dir, fakeClock(), (m) => warned.push(m));
    await l.take();
    expect(l.local).toBe(false);
    expect(warned).toEqual([]);
    expect(fs.existsSync(lockOf(dir))).toBe(false);
  });

  it(`a live holder's lock blocks while fresh, and is taken over once older than ${LOCK_STALE_MS} ms`, async () => {
    const dir = tempDir('mailctl-budget-');
    fs.writeFileSync(lockOf(dir), holder(process.ppid)); // a process that runs (vitest's parent)
    const l = limiter(dir, fakeClock());
    let done = false;
    const taking = l.take().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    const old = new Date(Date.now() - LOCK_STALE_MS - 1000);
    fs.utimesSync(lockOf(dir), old, old); // its holder hung, or the pid was reused
    await taking;
    expect(l.local).toBe(false);
  });

  it('an empty lock (its writer died between creating and writing it) is judged by its age', async () => {
    const dir = tempDir('mailctl-budget-');
    fs.writeFileSync(lockOf(dir), '');
    const old = new Date(Date.now() - LOCK_STALE_MS - 1000);
    fs.utimesSync(lockOf(dir), old, old);
    const l = limiter(dir, fakeClock());
    await l.take();
    expect(l.local).toBe(false);
  });
});

describe('an unwritable config folder', () => {
  it('falls back to pacing this process alone, and says so once', async () => {
    const file = path.join(tempDir('mailctl-budget-'), 'not-a-folder');
    fs.writeFileSync(file, '');
    const clock = fakeClock();
    const warned: string[] = [];
    const l = limiter(path.join(file, 'ratelimit'), clock, (m) => warned.push(m));
    const t0 = clock.now();
    await l.take();
    await l.take();
    await l.take();
    expect(l.local).toBe(true);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/not shared with other mailctl processes .*paces itself alone/);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(1000); // still 2 per second
  });

  describe('through the CLI', () => {
    const sb = useSandbox({ limits: { perSecond: 2 }, expect: ['GET /campaign/v1/balance'] });
    const blocked = () => {
      const cfg = tempDir('mailctl-budget-cfg-');
      fs.writeFileSync(path.join(cfg, 'ratelimit'), 'a file where the folder would go');
      return cfg;
    };

    it('the command still works; the warning appears under -v only', async () => {
      const env = { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
      const quiet = await runCli(['balance'], { configDir: blocked(), env, tuning: { rateLimit: true } });
      expect(quiet.exitCode, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toContain('rate budget');
      const loud = await runCli(['balance', '-v'], { configDir: blocked(), env, tuning: { rateLimit: true } });
      expect(loud.exitCode, loud.stderr).toBe(0);
      expect(loud.stderr).toMatch(/warning: The rate budget is not shared with other mailctl processes \(cannot create .*ratelimit/);
    });
  });
});

describe('through the CLI: every request settles in the budget file', () => {
  const sb = useSandbox({ expect: ['GET /campaign/v1/balance'] });

  it('a request whose connection broke is recorded as settled, so it does not hold its slot for others', async () => {
    const cfg = tempDir('mailctl-budget-cfg-');
    sb.get().sandbox.injectFault({ kind: 'drop', times: 1, match: { path: '/v1/balance' } });
    const r = await runCli(['balance'], { sandbox: sb.get(), configDir: cfg, tuning: { rateLimit: true } });
    expect(r.exitCode, r.stderr).toBe(0); // the read was retried
    expect(sb.get().sandbox.requests('campaign').map((x) => x.status)).toEqual([-1, 200]);
    const budget = JSON.parse(fs.readFileSync(path.join(cfg, 'ratelimit', `${budgetName(sb.get().campaignUrl, SANDBOX_KEYS.campaign, 'requests')}.json`), 'utf8'));
    expect(budget.entries).toHaveLength(2);
    for (const e of budget.entries) expect(e.a, JSON.stringify(e)).toEqual(expect.any(Number));
  });
});

describe('the export budget (1 per 10 s) is shared too', () => {
  const sb = useSandbox({
    expect: [
      ...FINISHED_CAMPAIGNS,
      ...REPORT_EXPORT,
    ],
  });
  it('a second `report export` on the same key waits out the 10 s another process\'s export started', async () => {
    const [one, two] = await finishedCampaigns(sb.get, 2, 3);
    const cfg = tempDir('mailctl-budget-cfg-');
    const run = (sn: string, clock?: Clock) => runCli(['report', 'export', sn, '--out-dir', tempDir('mailctl-budget-out-')], { sandbox: sb.get(), configDir: cfg, clock, tuning: { rateLimit: true } });
    expect((await run(one)).exitCode).toBe(0);
    // The second run (another CLI run: it shares only the config folder) on real time plus
    // whatever it asked to sleep, so its wait shows without being waited.
    let skipped = 0;
    const slept: number[] = [];
    const clock: Clock = { now: () => Date.now() + skipped, sleep: async (ms) => void (slept.push(ms), (skipped += ms)) };
    expect((await run(two, clock)).exitCode).toBe(0);
    expect(Math.max(...slept)).toBeGreaterThan(8000);
  });
});
