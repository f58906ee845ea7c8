// `send` on a full disk (a tiny tmpfs, test/helpers/small-disk.ts; needs root to mount, and
// skips saying so where it cannot): the journal's disk fills mid-run, or has no room for the
// plan. The run ends with the disk problem named (exit 1, code DISK) and the command that
// resumes or reruns it; every line the journal holds is whole; after space is freed the resume
// finishes with each recipient sent exactly once. Asserted on what the sandbox received.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { journalPlan } from './helpers/journal-plan.js';
import { useSandbox } from './helpers/sandbox.js';
import { smallDisk, type SmallDisk } from './helpers/small-disk.js';

const sb = useSandbox({
  expect: ['GET /campaign/v1/balance', 'GET /notify/v1/events', 'POST /notify/v1/messages'],
});

const mounted = smallDisk(1024 * 1024);
afterAll(() => ('unmount' in mounted ? mounted.unmount() : undefined));
/** Used only inside the describe that skips where nothing could be mounted. */
const disk = mounted as SmallDisk;
const dir = (name: string) => {
  const d = path.join(disk.dir, name);
  fs.mkdirSync(d);
  return d;
};

/**
 * 300 recipients, so 3 requests of 100. Their addresses are long enough that each intent or
 * result record (100 addresses) is larger than a tmpfs page: on a full disk it can never fit
 * in the room left in the journal's last page, so the write is short and then fails.
 */
function recipients(prefix: string): { csv: string; addresses: string[] } {
  const addresses = Array.from({ length: 300 }, (_, i) => `${prefix}-recipient-number-${String(i).padStart(3, '0')}.quiet@example.com`);
  const csv = path.join(tempDir(), 'r.csv');
  fs.writeFileSync(csv, ['address,code', ...addresses.map((a, i) => `${a},C${i}`)].join('\n'));
  return { csv, addresses };
}

const posts = (prefix: string) => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages' && JSON.stringify(r.body).includes(prefix));

function timesSent(prefix: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const msg of Object.values(sb.get().sandbox.state.notify.messages)) if (msg.address.startsWith(prefix)) m.set(msg.address, (m.get(msg.address) ?? 0) + 1);
  return m;
}

/** Every line of the journal is a whole JSON record and the file ends with its newline. */
function wholeLines(file: string): Array<{ type: string; batch?: string }> {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; batch?: string });
}

/** The fetch of the run, filling the disk as the service receives the run's `nth` send request. */
function fillingAt(nth: number): typeof fetch {
  let n = 0;
  return async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname.endsWith('/v1/messages') && ++n === nth) disk.fill(0);
    return fetch(input, init);
  };
}

describe.skipIf('skip' in mounted)('send whose journal disk is full', () => {
  it('fills mid-run: exit 1 DISK naming the journal and the --resume line; the journal stays whole; after freeing space --resume sends each recipient exactly once', async () => {
    const { csv, addresses } = recipients('dfull');
    const journal = path.join(dir('mid'), 'send.jsonl');
    const args = ['send', '--recipients-file', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '1'];
    try {
      const r = await runCli([...args, '--json'], { sandbox: sb.get(), fetch: fillingAt(2) });
      expect(r.exitCode).toBe(1);
      const err = JSON.parse(r.stdout).error as { code: string; message: string; hint: string };
      expect(err.code).toBe('DISK');
      expect(err.message).toContain(journal);
      expect(err.message).toContain('the disk is full (ENOSPC)');
      expect(err.hint).toContain(`mailctl send --resume ${journal}`);
      expect(r.stderr).not.toContain('bug in mailctl');

      // The second request went out (its answer could not be recorded); the third never did.
      expect(posts('dfull')).toHaveLength(2);
      expect(timesSent('dfull').size).toBe(200);
      // Whole lines only: batch 2's intent is there, its outcome is not (the torn write was cut back).
      expect(wholeLines(journal).map((x) => `${x.type}${x.batch ?? ''}`)).toEqual(['plan', 'intent1', 'result1', 'intent2']);
    } finally {
      disk.free();
    }

    const resumed = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
    expect(resumed.stderr).not.toContain('cut short');
    expect(resumed.exitCode).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 300, sent: 300 });
    // Batch 2 was proved sent by the event lookup, so only batch 3 went out again.
    expect(posts('dfull')).toHaveLength(3);
    const counts = timesSent('dfull');
    expect(counts.size).toBe(300);
    expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
    expect([...counts.keys()].sort()).toEqual([...addresses].sort());
    expect(wholeLines(journal).at(-1)?.type).toBe('done');
  });

  it('no room for the plan: nothing is sent, no journal is left, and the hint is the same command, which then runs', async () => {
    const { csv } = recipients('dplan');
    const journal = path.join(dir('plan'), 'send.jsonl');
    const args = ['send', '--recipients-file', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal];
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      // One page left: the journal's lock fits, the plan (300 recipients) does not.
      disk.fill(4096);
      r = await runCli(args, { sandbox: sb.get() });
    } finally {
      disk.free();
    }
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`Could not write ${journal}: the disk is full (ENOSPC).`);
    expect(r.stderr).toContain('Nothing was sent. Free some space on that disk, then run the command again: mailctl send --recipients-file');
    expect(r.stderr).toContain(`--journal ${journal}`);
    expect(r.stderr).not.toContain('bug in mailctl');
    expect(posts('dplan')).toHaveLength(0);
    expect(fs.readdirSync(path.dirname(journal))).toEqual([]);

    const again = await runCli(args, { sandbox: sb.get() });
    expect(again.exitCode).toBe(0);
    expect(timesSent('dplan').size).toBe(300);
  });
});

describe.skipIf('skip' in mounted)('the journal itself on a full disk', () => {
  it('a record the disk refuses rejects with DISK and leaves nothing of itself; once there is room the next record lands on a whole line', async () => {
    const { Journal } = await import('../src/send/journal.js');
    const file = path.join(dir('unit'), 'j.jsonl');
    const plan = journalPlan({ kind: 'email', message: { subject: 's' }, recipients: [{ address: 'a@example.com' }] });
    const journal = Journal.create(file, plan, { userPath: true, resumeCommand: 'mailctl send --resume j.jsonl' });
    try {
      const keys = Array.from({ length: 200 }, (_, i) => `somebody-with-a-long-address-${i}@example.com`);
      disk.fill(0);
      let err: unknown;
      try {
        await journal.append({ type: 'intent', batch: '1', keys, at: new Date().toISOString() });
      } catch (e) {
        err = e;
      } finally {
        disk.free();
      }
      expect(err).toMatchObject({ facts: { code: 'DISK' }, message: `Could not write ${file}: the disk is full (ENOSPC).` });
      await journal.append({ type: 'intent', batch: '1', keys: ['a@example.com'], at: new Date().toISOString() });
    } finally {
      await journal.close(); // the file closed, or the small disk could not be unmounted
    }
    expect(wholeLines(file).map((x) => `${x.type}${x.batch ?? ''}`)).toEqual(['plan', 'intent1']);
  });
});
