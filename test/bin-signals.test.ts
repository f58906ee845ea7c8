// SIGTERM (systemd, Docker, CI, kill) and SIGHUP (the terminal went away) on the built CLI
// (bin/mailctl.js) end a run exactly as Ctrl-C does: a send stops cleanly with exit 130, the
// journal holding whole lines only and the --resume line printed, and the resume sends each
// recipient exactly once (asserted on what the sandbox received); a second signal of any kind
// leaves at once; `webhook listen` gets the same stop as for Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { spawnCli, type Spawned } from './helpers/spawn-cli.js';
import { until } from './helpers/wait.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/balance', 'GET /notify/v1/events', 'POST /notify/v1/messages'] });

/** The built CLI on its own home and config folder, against the sandbox. */
const start = (args: string[], env: Record<string, string> = {}) => spawnCli(args, { sandbox: sb.get(), env, prefix: 'mailctl-signal-' });

const SEND_PATH = { service: 'notify' as const, method: 'POST', path: '/v1/messages' };
/** The send requests the sandbox received since `mark` (a held request's body is not read yet). */
const postsSince = (mark: number) => sb.get().sandbox.requests('notify').slice(mark).filter((r) => r.method === 'POST' && r.path === '/v1/messages');

/**
 * A 200-recipient send (2 requests, one at a time) whose second request hangs at the service:
 * the signals land with it in flight.
 */
async function sendInFlight(prefix: string): Promise<{ journal: string; run: Spawned }> {
  const dir = tempDir();
  const csv = path.join(dir, 'r.csv');
  fs.writeFileSync(csv, ['address,code', ...Array.from({ length: 200 }, (_, i) => `${prefix}${i}.quiet@example.com,C${i}`)].join('\n'));
  const journal = path.join(dir, 'send.jsonl');
  sb.get().sandbox.injectFault({ kind: 'hang', times: 100, match: { after: 1, ...SEND_PATH } });
  const mark = sb.get().sandbox.requests('notify').length;
  const run = start(['send', '--recipients-file', csv, '--subject', 'Code {{code}}', '--html', '<p>{{code}}</p>', '--from', 'noreply@example.com', '--journal', journal, '--concurrency', '1']);
  await until('one request answered and one held at the service', () => postsSince(mark).length >= 2, 15_000);
  return { journal, run };
}

/** After the stop: the resume finishes, each of the 200 sent exactly once. */
async function expectResumeSendsEachOnce(prefix: string, journal: string): Promise<void> {
  sb.get().sandbox.faults.splice(0);
  const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { sandbox: sb.get() });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ total: 200, sent: 200 });
  const counts = new Map<string, number>();
  for (const m of Object.values(sb.get().sandbox.state.notify.messages)) if (m.address.startsWith(prefix)) counts.set(m.address, (counts.get(m.address) ?? 0) + 1);
  expect(counts.size).toBe(200);
  expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
}

describe('SIGTERM and SIGHUP on bin/mailctl.js', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s mid-send: exit 130, the --resume line, whole journal lines; the resume sends each recipient once', async (signal) => {
    const prefix = `sig-${signal.toLowerCase()}-`;
    const { journal, run } = await sendInFlight(prefix);
    run.child.kill(signal);
    expect((await run.exited).code).toBe(130);
    expect(run.stderr()).toContain('Interrupted; batches already answered are recorded.');
    expect(run.stderr()).toContain(`Run mailctl send --resume ${journal}`);
    // Stopped cleanly: every line whole, the request in flight recorded as in doubt.
    const text = fs.readFileSync(journal, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const types = text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.filter((t) => t === 'doubt')).toHaveLength(1);
    await expectResumeSendsEachOnce(prefix, journal);
  }, 30_000);

  it('a second signal, of another kind, leaves at once (exit 130 without waiting for the clean stop); the resume still sends each recipient once', async () => {
    const prefix = 'sig-twice-';
    const { journal, run } = await sendInFlight(prefix);
    run.child.kill('SIGTERM');
    run.child.kill('SIGHUP');
    expect((await run.exited).code).toBe(130);
    expect(run.stderr()).not.toContain('Interrupted;');
    await expectResumeSendsEachOnce(prefix, journal);
  }, 30_000);

  it('webhook listen: SIGTERM stops the listener as Ctrl-C does (its summary, exit 0)', async () => {
    const dir = tempDir();
    const run = start(['webhook', 'listen', '--port', '0', '--out', path.join(dir, 'e.jsonl')]);
    await until('the listener', () => /Listening on http:\/\/127\.0\.0\.1:\d+\//.test(run.stderr()), 10_000);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    expect(run.stderr()).toContain('Stopped. 0 events stored');
  }, 30_000);
});
