// The in-process sandbox (--sandbox) keeps time, not processes: an import, a campaign and a report
// export move on by the clock whichever run asks next. Each runCli here is a run of its own (its
// own in-process sandbox over the state kept in the shared config dir), as two shell commands
// would be; the clock is the runs' injected clock, moved by the test, so nothing sleeps.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import type { Clock } from '../src/core/clock.js';

/** A clock the test moves; a run's own waits (its rate budget) move it too. */
function steppedClock(): Clock & { pass(ms: number): void } {
  let t = Date.parse('2030-03-01T08:00:00Z');
  return {
    now: () => t,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      t += ms;
    },
    pass: (ms) => {
      t += ms;
    },
  };
}

/** One run on the shared folder; the pacing of the real campaign limits is on (the sandbox keeps 2/s). */
async function run(dir: string, clock: Clock, argv: string[]): Promise<any> {
  const r = await runCli(['--sandbox', '--json', ...argv], { configDir: dir, clock, tuning: { rateLimit: true } });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('--sandbox runs on one config dir see work move on by the clock', () => {
  it('an import started with --no-wait in one run is COMPLETE in a later run\'s `import status`', async () => {
    const dir = tempDir();
    const clock = steppedClock();
    const file = path.join(dir, 'contacts.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nann@example.com,Ann\nbo@example.com,Bo\n');
    const started = await run(dir, clock, ['import', file, '--group', 'Newsletter', '--create-group', '--no-wait']);
    expect(started.status).toBe('PROCESSING');

    // Before the sandbox's 3 s of processing have passed, another run still sees it running…
    clock.pass(1000);
    expect((await run(dir, clock, ['import', 'status', started.importSn])).status).toBe('PROCESSING');
    // …after, a third run sees it done (it never finished before: each run restarted the parse
    // and exited before it ended).
    clock.pass(5000);
    const done = await run(dir, clock, ['import', 'status', started.importSn]);
    expect(done).toMatchObject({ status: 'COMPLETE', result: { fileCnt: 2, insertCnt: 2 } });
    const [group] = await run(dir, clock, ['groups', 'list']);
    expect(group).toMatchObject({ name: 'Newsletter', subscribedCnt: 2 });
  });

  it('a one-time campaign sent in one run is COMPLETE later, and an export started in another run has its files in a third', async () => {
    const dir = tempDir();
    const clock = steppedClock();
    const list = path.join(dir, 'guests.csv');
    fs.writeFileSync(list, 'EMAIL,NAME\nann@example.com,Ann\nbo@example.com,Bo\ncy@example.com,Cy\n');
    const html = path.join(dir, 'mail.html');
    fs.writeFileSync(html, '<p>Hello</p>');
    const created = await run(dir, clock, ['campaign', 'create', '--name', 'Guests', '--once', '--recipients-file', list, '--subject', 'Hi', '--html-file', html]);

    // The uploaded list is counted when preparing ends: the run that finds it due waits for the count.
    clock.pass(60_000);
    const status = await run(dir, clock, ['campaign', 'status', created.sn]);
    expect(status).toMatchObject({ sn: created.sn, status: 'COMPLETE' });
    const [metrics] = await run(dir, clock, ['report', 'metrics', created.sn]);
    expect(metrics.recipientCnt).toBe(3);

    await run(dir, clock, ['report', 'export', created.sn]);
    clock.pass(60_000);
    const links: Array<{ reportType: string }> = await run(dir, clock, ['report', 'links', created.sn]);
    expect(links.map((l) => l.reportType)).toEqual(['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain']);
  });
});
