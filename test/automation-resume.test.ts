// `automation trigger|terminate` keeps the same journal as `send` and resumes the same way:
// a run stopped at the daily cap says exactly who went in and resumes with only the rest; a
// recipient whose request got no answer is reported in doubt (automation has no event log)
// and never sent again by itself. What went in is read from what the sandbox received.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { journalPlan } from './helpers/journal-plan.js';
import { useSandbox } from './helpers/sandbox.js';
import { snapshot } from './helpers/fs-snapshot.js';
import { shellWords } from './helpers/help-examples.js';

const DAILY = 100_000;
const sb = useSandbox({ limits: { daily: DAILY }, expect: ['POST /campaign/v1/automation/event'] });
const onEvent = { service: 'campaign' as const, method: 'POST', path: '/v1/automation/event' };

function csv(prefix: string, n: number): string {
  const f = path.join(tempDir('mailctl-auto-'), 'r.csv');
  fs.writeFileSync(f, ['email,name,plan', ...Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org,P${i},pro`)].join('\n') + '\n');
  return f;
}

/** How many times the sandbox accepted each address of this prefix (answered 200, recipient not in `failure`). */
function received(prefix: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of sb.get().sandbox.requests('campaign')) {
    if (r.path !== onEvent.path || r.status !== 200) continue;
    for (const x of (r.body as { recipients: Array<{ address: string }> }).recipients) if (x.address.startsWith(prefix)) m.set(x.address, (m.get(x.address) ?? 0) + 1);
  }
  return m;
}

function leaveRequestsToday(n: number): void {
  sb.get().sandbox.state.daily = { day: new Date().toISOString().slice(0, 10), count: DAILY - n };
}

describe('automation: journal and --resume', () => {
  it('1,000 recipients stopped by the daily cap after 500: exit 4, the 500 named, and --resume sends only the other 500', async () => {
    const file = csv('cap', 1000);
    const journal = path.join(tempDir(), 'auto.jsonl');
    leaveRequestsToday(5);
    const r = await runCli(['--profile', 'ops', 'automation', 'trigger', '--workflow', 'onboard', '--recipients-file', file, '--journal', journal, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(4);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ workflow: 'onboard', event: 'TRIGGER', requested: 1000, journal, refused: [], inDoubt: [] });
    expect(doc.accepted).toHaveLength(500);
    expect(doc.notSent).toHaveLength(500);
    expect(new Set(doc.accepted)).toEqual(new Set(received('cap').keys()));
    expect(r.stderr).toContain(`mailctl --profile ops automation trigger --resume ${journal}`);

    // The same day, the cap still holds: nothing more goes in, and the resume says so again.
    const again = await runCli(['automation', 'trigger', '--resume', journal], { sandbox: sb.get() });
    expect(again.exitCode).toBe(4);
    expect(received('cap').size).toBe(500);

    leaveRequestsToday(DAILY); // the next day
    const resumed = await runCli(['automation', 'trigger', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(resumed.exitCode).toBe(0);
    expect(JSON.parse(resumed.stdout).accepted).toHaveLength(1000);
    const counts = received('cap');
    expect(counts.size).toBe(1000);
    expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
  });

  it('a request that got no answer leaves its recipients in doubt (exit 5), with what to check; --resume never sends them again', async () => {
    const file = csv('doubt', 150);
    const journal = path.join(tempDir(), 'auto.jsonl');
    sb.get().sandbox.injectFault({ kind: 'lose-answer', match: { ...onEvent, after: 1 } });
    const r = await runCli(['automation', 'terminate', '--workflow', 'wf-9', '--recipients-file', file, '--journal', journal, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.accepted).toHaveLength(100);
    expect(doc.inDoubt).toHaveLength(50);
    expect(r.stderr).toContain('automation has no event log');
    expect(r.stderr).toContain('workflow wf-9 in the back office');
    expect(r.stderr).toMatch(/mailctl automation terminate --workflow wf-9 --to doubt1\d\d@example\.org/);
    expect(r.stderr).not.toContain('--resume'); // nothing a resume could send
    const before = sb.get().sandbox.requests('campaign').length;
    const resumed = await runCli(['automation', 'terminate', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(resumed.exitCode).toBe(5);
    expect(JSON.parse(resumed.stdout).inDoubt).toHaveLength(50);
    expect(sb.get().sandbox.requests('campaign').length).toBe(before);
    expect([...received('doubt').values()].every((c) => c === 1)).toBe(true);
  });

  it('the "trigger one anyway" line, pasted, sends the same recipient body as the run: name and variables included, quoted', async () => {
    const f = path.join(tempDir('mailctl-auto-'), 'r.csv');
    fs.writeFileSync(f, 'email,name,plan,note\npaste1@example.org,"Ann O\'Lee",pro,"a b; $HOME"\n');
    sb.get().sandbox.injectFault({ kind: 'status', status: 503, body: { message: 'busy' }, match: onEvent });
    const r = await runCli(['automation', 'trigger', '--workflow', 'wf2', '--recipients-file', f, '--journal', path.join(tempDir(), 'j.jsonl')], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    const line = /to trigger one anyway: (mailctl .*)$/m.exec(r.stderr)?.[1];
    expect(line).toBeDefined();
    // The 503 came before the sandbox read the body; the run's body is the one a plain run sends.
    const sentBy = (addr: string) => sb.get().sandbox.requests('campaign').filter((q) => q.path === onEvent.path && q.status === 200 && (q.body as { recipients: Array<{ address: string }> }).recipients.some((x) => x.address === addr));
    expect(sentBy('paste1@example.org')).toHaveLength(0);
    const pasted = await runCli(shellWords(line!).slice(1), { sandbox: sb.get() });
    expect(pasted.exitCode).toBe(0);
    const got = sentBy('paste1@example.org');
    expect(got).toHaveLength(1);
    expect(got[0].body).toEqual({ workflow: 'wf2', event: 'TRIGGER', recipients: [{ address: 'paste1@example.org', name: "Ann O'Lee", variables: { plan: 'pro', note: 'a b; $HOME' } }] });
  });

  it('whether a failed request is resent is read from the error\'s facts: a 500 worded like the daily cap is in doubt, not resent', async () => {
    const journal = path.join(tempDir(), 'auto.jsonl');
    sb.get().sandbox.injectFault({ kind: 'status', status: 500, body: { message: 'Limit Exceeded (ECONNREFUSED)' }, match: onEvent });
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--to', 'worded@example.org', '--journal', journal, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout).inDoubt.map((x: { address: string }) => x.address)).toEqual(['worded@example.org']);
    const resumed = await runCli(['automation', 'trigger', '--resume', journal], { sandbox: sb.get() });
    expect(resumed.exitCode).toBe(5);
    expect(received('worded').size).toBe(0);
  });

  it('a new trigger run of the same plan as an unfinished one warns with the resume command (it is only a warning)', async () => {
    const configDir = tempDir();
    const file = csv('same', 150);
    leaveRequestsToday(1);
    expect((await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', file], { sandbox: sb.get(), configDir })).exitCode).toBe(4);
    const [name] = fs.readdirSync(path.join(configDir, 'journals'));
    leaveRequestsToday(DAILY);
    const again = await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', file], { sandbox: sb.get(), configDir });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain(`To finish that one instead: mailctl automation trigger --resume ${path.join(configDir, 'journals', name)}`);
    // terminate is another plan: no warning.
    expect((await runCli(['automation', 'terminate', '--workflow', 'w', '--recipients-file', file], { sandbox: sb.get(), configDir })).stderr).not.toContain('unfinished');
  });

  it('a journal is resumed only by its own command', async () => {
    const journal = path.join(tempDir(), 'auto.jsonl');
    expect((await runCli(['automation', 'terminate', '--workflow', 'w', '--to', 'own@example.org', '--journal', journal], { sandbox: sb.get() })).exitCode).toBe(0);
    const wrongVerb = await runCli(['automation', 'trigger', '--resume', journal], { sandbox: sb.get() });
    expect(wrongVerb.exitCode).toBe(2);
    expect(wrongVerb.stderr).toContain(`mailctl automation terminate --resume ${journal}`);
    const wrongCommand = await runCli(['send', '--resume', journal], { sandbox: sb.get() });
    expect(wrongCommand.exitCode).toBe(2);
    expect(wrongCommand.stderr).toContain('is an automation terminate journal');
  });

  it('a bare --resume takes the latest unfinished journal of its own command', async () => {
    const configDir = tempDir();
    const dir = path.join(configDir, 'journals');
    fs.mkdirSync(dir, { recursive: true });
    const plan = (event: string, address: string) => JSON.stringify(journalPlan({ kind: 'automation', message: { workflow: 'w', event }, recipients: [{ address }] }, sb.get())) + '\n';
    fs.writeFileSync(path.join(dir, 'automation-terminate-a.jsonl'), plan('TERMINATE', 'bare-stop@example.org'));
    fs.utimesSync(path.join(dir, 'automation-terminate-a.jsonl'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    fs.writeFileSync(path.join(dir, 'automation-trigger-b.jsonl'), plan('TRIGGER', 'bare-start@example.org'));
    const from = sb.get().sandbox.requests('campaign').length;
    const r = await runCli(['automation', 'terminate', '--resume'], { sandbox: sb.get(), configDir });
    expect(r.exitCode).toBe(0);
    expect(sb.get().sandbox.requests('campaign').slice(from).map((q) => q.body)).toEqual([{ workflow: 'w', event: 'TERMINATE', recipients: [{ address: 'bare-stop@example.org' }] }]);
  });

  it('a journal whose last line was cut short by a kill resumes again and again until done: the fragment is cut off, not left mid-file', async () => {
    const journal = path.join(tempDir(), 'auto.jsonl');
    leaveRequestsToday(1);
    expect((await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', csv('torn', 250), '--journal', journal], { sandbox: sb.get() })).exitCode).toBe(4);
    fs.appendFileSync(journal, '{"type":"intent","batch":"9","keys":["torn1'); // the kill landed mid-write
    leaveRequestsToday(1);
    const first = await runCli(['automation', 'trigger', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(first.exitCode).toBe(4); // one more batch, then the cap again
    expect(first.stderr).toContain('was cut short');
    expect(JSON.parse(first.stdout).accepted).toHaveLength(200);
    leaveRequestsToday(DAILY);
    const second = await runCli(['automation', 'trigger', '--resume', journal, '--json'], { sandbox: sb.get() });
    expect(second.stderr).not.toContain('damaged');
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout).accepted).toHaveLength(250);
    const counts = received('torn');
    expect(counts.size).toBe(250);
    expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
    expect(fs.readFileSync(journal, 'utf8').split('\n').filter(Boolean).every((l) => { try { JSON.parse(l); return true; } catch { return false; } })).toBe(true);
  });

  it('--resume --dry-run shows the requests still to send and changes no file', async () => {
    const journal = path.join(tempDir(), 'auto.jsonl');
    leaveRequestsToday(1);
    expect((await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', csv('dry', 250), '--journal', journal], { sandbox: sb.get() })).exitCode).toBe(4);
    leaveRequestsToday(DAILY);
    const before = snapshot(path.dirname(journal));
    const r = await runCli(['automation', 'trigger', '--resume', journal, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).requests.map((q: { body: { recipients: unknown[] } }) => q.body.recipients.length)).toEqual([100, 50]);
    expect(snapshot(path.dirname(journal))).toEqual(before);
    expect(received('dry').size).toBe(100);
  });
});
