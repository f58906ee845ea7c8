// The in-process sandbox (--sandbox) of one config directory, used by several runs at once: a
// running `events tail --sandbox` sees what a `send --sandbox` from another terminal sent, and
// neither run's saving of the state loses the other's change (src/sandbox/inprocess.ts). On a full
// disk the state is kept whole: the run that could not save fails naming state.json, and the
// state it found stays as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { until } from './helpers/wait.js';
import { smallDisk } from './helpers/small-disk.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { systemClock, type Clock } from '../src/core/clock.js';


/** Real time plus whatever the CLI chose to wait, each wait taking 30 ms of real time; counts the waits. */
function countingClock(): Clock & { waits: number } {
  let ahead = 0;
  const c = {
    waits: 0,
    now: () => Date.now() + ahead,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const stop = () => {
          clearTimeout(t);
          reject(signal!.reason);
        };
        const t = setTimeout(() => {
          signal?.removeEventListener('abort', stop);
          ahead += Math.max(0, ms - 30);
          c.waits++;
          resolve();
        }, 30);
        signal?.addEventListener('abort', stop, { once: true });
      }),
  };
  return c;
}

const stateFile = (dir: string) => path.join(dir, 'sandbox', 'state.json');
const storedIds = (dir: string): string[] => Object.values((JSON.parse(fs.readFileSync(stateFile(dir), 'utf8')) as { notify: { messages: Record<string, { id: string }> } }).notify.messages).map((m) => m.id);
const sendArgs = (to: string) => ['--sandbox', '--json', 'send', '--to', to, '--subject', 'From another terminal', '--html', '<p>x</p>'];
const messageId = (stdout: string): string => (JSON.parse(stdout) as { recipients: Array<{ messageId: string }> }).recipients[0].messageId;

describe('--sandbox shared by several runs on one config directory', () => {
  it('a tail running in one run shows the message another run sends, and state.json keeps it afterwards', async () => {
    const dir = tempDir();
    const clock = countingClock();
    const ac = new AbortController();
    const tail = runCli(['--sandbox', 'events', 'tail', '--recipient', 'shared@example.com', '--since', '1m'], { configDir: dir, clock, signal: ac.signal });
    await until('the tail to poll', () => clock.waits > 0);

    const sent = await runCli(sendArgs('shared@example.com'), { configDir: dir });
    expect(sent.exitCode, sent.stderr).toBe(0);
    const id = messageId(sent.stdout);
    // A few more lookups by the tail (each wait is followed by one), each saving what it changed.
    const after = clock.waits;
    await until('three more polls', () => clock.waits >= after + 3);
    ac.abort();
    const r = await tail;

    expect(r.exitCode, r.stderr).toBe(0);
    const shown = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { messageId: string; status: string });
    expect(shown.map((e) => `${e.messageId} ${e.status}`)).toContain(`${id} accept`);
    expect(storedIds(dir)).toContain(id);
  });

  it('two real processes: `events tail --sandbox` prints what `send --sandbox` sent, and the message stays stored', async () => {
    const dir = tempDir();
    const tail = spawnCli(['--sandbox', 'events', 'tail', '--recipient', 'spawned@example.com', '--since', '1m', '--interval', '2s'], { home: dir, configDir: dir });
    try {
      await until('the tail\'s first lookup', () => fs.existsSync(stateFile(dir)), 15_000);
      const send = await spawnCli(sendArgs('spawned@example.com'), { home: dir, configDir: dir }).exited;
      expect(send.code).toBe(0);
      const id = messageId(send.stdout);
      await until('the tail to print the message', () => tail.stdout().includes(`"messageId":"${id}"`), 15_000);
      tail.child.kill('SIGINT');
      const end = await tail.exited;
      expect(end.code, end.stderr).toBe(0);
      expect(storedIds(dir)).toContain(id);
    } finally {
      tail.child.kill('SIGKILL');
    }
  }, 40_000);
});

describe('--sandbox on a full disk (a small tmpfs; needs root to mount)', () => {
  const disk = smallDisk(1024 * 1024);
  afterAll(() => ('unmount' in disk ? disk.unmount() : undefined));

  it.skipIf('skip' in disk)('a state.json the disk takes only part of is never put in place: exit 1 naming it, the state as it was, no temporary file; the same command then works', async () => {
    if ('skip' in disk) return;
    const dir = path.join(disk.dir, 'config');
    // A state of several pages: 60 messages sent.
    const recipients = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(recipients, ['email', ...Array.from({ length: 60 }, (_, i) => `r${i}@example.com`)].join('\n'));
    const sent = await runCli(['--sandbox', 'send', '--recipients-file', recipients, '--subject', 'Hi', '--html', '<p>x</p>'], { configDir: dir });
    expect(sent.exitCode, sent.stderr).toBe(0);
    const before = fs.readFileSync(stateFile(dir), 'utf8');
    expect(before.length).toBeGreaterThan(3 * 4096);

    // One page left: the new state's first page is written (a short write), the rest is refused.
    disk.fill(4096);
    let r;
    try {
      r = await runCli(['--sandbox', 'groups', 'create', 'After'], { configDir: dir });
    } finally {
      disk.free();
    }
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Could not write ${stateFile(dir)}: the disk is full (ENOSPC).`);
    expect(r.stderr).not.toMatch(/bug in mailctl|\n\s+at /);
    expect(fs.readFileSync(stateFile(dir), 'utf8')).toBe(before);
    expect(fs.readdirSync(path.join(dir, 'sandbox')).filter((n) => !['files', 'state.json', 'state.lock'].includes(n)), 'a temporary file left').toEqual([]);

    // Later, as a person would run it again: past the service's one-second limit on creating groups.
    const later: Clock = { now: () => Date.now() + 11_000, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
    const again = await runCli(['--sandbox', 'groups', 'create', 'After'], { configDir: dir, clock: later });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(storedIds(dir)).toHaveLength(60);
  });
});
