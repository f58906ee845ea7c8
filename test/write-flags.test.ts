// --dry-run and -y/--yes mean one thing everywhere: every write declares --dry-run, every
// destructive command -y/--yes, and both are accepted before the noun as well as after the verb.
// A command that does not declare one refuses it (exit 2) instead of ignoring a dry run it
// cannot do. Every runnable command must be classified here, so a new command gets a decision.
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox, refusedBeforeSending } from './helpers/sandbox.js';
import { finishedCampaigns, folderOf, FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS } from './helpers/report-sync.js';

const sb = useSandbox({
  expect: [
    ...FINISHED_CAMPAIGNS,
    ...REPORT_EXPORT,
    'GET /campaign/v1/report/campaigns',
    SYNC_METRICS, // a real report sync reads the metrics for its dashboard
    'DELETE /notify/v1/domains/:domain',
    'POST /notify/v1/domains/:domain',
    'DELETE /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
  ],
});

/** Changes something at a service (or the sandbox's back office). */
const SERVICE_WRITES = [
  'import', 'contacts remove', 'contacts clean', 'groups create', 'campaign create', 'campaign pause', 'campaign delete',
  'report export', 'report sync', 'automation trigger', 'automation terminate', 'send email', 'send sms',
  'webhook set', 'webhook delete', 'domain add', 'domain verify', 'domain remove', 'sandbox field add', 'sandbox balance',
  'campaign proof', 'webhook trigger', 'webhook replay', // these two post to your own consumer
];
/** Changes local configuration or state, or downloads files into a folder (report links --out-dir). */
const LOCAL_WRITES = ['config set', 'config unset', 'config set-key', 'config use', 'config delete-profile', 'sandbox reset', 'report links', 'events prune'];
/** Cannot be undone: asks first on a terminal, needs --yes elsewhere. */
const DESTRUCTIVE = ['contacts remove', 'contacts clean', 'campaign pause', 'campaign delete', 'webhook delete', 'domain remove', 'config delete-profile', 'sandbox reset', 'events prune'];
/** Change nothing (files they are asked to write are their output). */
const READS = [
  'import status', 'groups list', 'campaign timezones', 'campaign preflight', 'campaign preview', 'campaign status', 'campaign list', 'report list', 'report metrics',
  'template list', 'template show', 'balance', 'webhook list', 'webhook verify', 'webhook listen', 'events', 'events tail', 'events export',
  'sms numbers', 'config get', 'config list', 'config profiles', 'config path', 'sandbox serve', 'sandbox field list', 'doctor', 'completion',
];
/**
 * Serves other programs, which ask it for writes one by one: `mcp` plans each write as --dry-run
 * and carries it out only when confirmed with the plan's token (so it takes neither flag itself).
 */
const SERVES = ['mcp'];

function runnable(): Map<string, Command> {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out = new Map<string, Command>();
  const walk = (c: Command, names: string[]) => {
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler) out.set(names.join(' '), c);
    for (const s of c.commands) walk(s, [...names, s.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

const longs = (c: Command) => c.options.flatMap((o) => [o.long, o.short]);

describe('the command tree', () => {
  const tree = runnable();

  it('every runnable command is classified as a write or a read, exactly once', () => {
    const classified = [...SERVICE_WRITES, ...LOCAL_WRITES, ...READS, ...SERVES];
    expect(new Set(classified).size).toBe(classified.length);
    expect([...tree.keys()].sort()).toEqual([...classified].sort());
  });

  it.each([...SERVICE_WRITES, ...LOCAL_WRITES])('%s (a write) takes --dry-run', (name) => {
    expect(longs(tree.get(name)!)).toContain('--dry-run');
  });

  it.each(DESTRUCTIVE)('%s (destructive) takes -y and --yes', (name) => {
    expect(longs(tree.get(name)!)).toEqual(expect.arrayContaining(['-y', '--yes']));
  });

  it.each([...READS, ...SERVES])('%s (a read, or a server) takes neither', (name) => {
    expect(longs(tree.get(name)!)).not.toContain('--dry-run');
    expect(longs(tree.get(name)!)).not.toContain('--yes');
  });
});

describe('before the noun or after the verb', () => {
  it('mailctl --dry-run groups create X: the request is shown and nothing is sent', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['--dry-run', 'groups', 'create', 'X', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dryRun: true, requests: [{ method: 'POST', body: { name: 'X' } }] });
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('mailctl -y webhook delete …: no question asked; without it (and no terminal) exit 2, nothing deleted', async () => {
    expect((await runCli(['webhook', 'set', 'bounce', 'https://hooks.example.com/b'], { sandbox: sb.get() })).exitCode).toBe(0);
    const no = await runCli(['webhook', 'delete', 'bounce'], { sandbox: sb.get() });
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('--yes');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['-y', 'webhook', 'delete', 'bounce'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sb.get().sandbox.requests().slice(before).map((x) => x.method)).toEqual(['DELETE']);
  });

  it('-y after the verb of the commands that had only --yes', async () => {
    expect((await runCli(['domain', 'add', 'mail.example.org'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect((await runCli(['domain', 'remove', 'mail.example.org', '-y'], { sandbox: sb.get() })).exitCode).toBe(0);
    const dir = tempDir('mailctl-yes-');
    expect((await runCli(['--profile', 'old', 'config', 'set', 'timezone', 'Asia/Taipei'], { configDir: dir })).exitCode).toBe(0);
    expect((await runCli(['config', 'delete-profile', 'old', '-y'], { configDir: dir })).exitCode).toBe(0);
    expect((await runCli(['config', 'profiles', '--json'], { configDir: dir })).stdout).not.toContain('old');
  });

  it('a command that declares neither refuses them (exit 2), before the noun or after the verb', async () => {
    for (const argv of [['--dry-run', 'balance'], ['balance', '--dry-run'], ['--yes', 'groups', 'create', 'X'], ['groups', 'list', '-y']]) {
      const r = await refusedBeforeSending(sb, argv);
      expect(r.stderr).toMatch(/takes no --(dry-run|yes)/);
    }
  });

  it('the refusal is one JSON document with --json', async () => {
    const r = await runCli(['--json', '--dry-run', 'balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('USAGE');
  });
});

describe('--dry-run of local writes writes nothing', () => {
  it('config set / unset / use / set-key / delete-profile say what would change; the file is untouched', async () => {
    const dir = tempDir('mailctl-dry-');
    const set = await runCli(['config', 'set', 'from-address', 'news@example.com', '--dry-run', '--json'], { configDir: dir });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ dryRun: true, profile: 'default', setting: 'from-address', value: 'news@example.com' });
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
    expect((await runCli(['config', 'set', 'from-address', 'not-an-address', '--dry-run'], { configDir: dir })).exitCode).toBe(2);

    expect((await runCli(['--profile', 'ops', 'config', 'set', 'from-address', 'news@example.com'], { configDir: dir })).exitCode).toBe(0);
    const file = path.join(dir, 'config.json');
    const before = fs.readFileSync(file, 'utf8');
    for (const argv of [
      ['--profile', 'ops', 'config', 'unset', 'from-address', '--dry-run'],
      ['--dry-run', 'config', 'use', 'ops'],
      ['--profile', 'ops', 'config', 'set-key', '--with-key-stdin', '--dry-run'],
      ['config', 'delete-profile', 'ops', '--dry-run'],
    ]) {
      const r = await runCli(argv, { configDir: dir, stdin: 'a-key-for-the-dry-run\n' });
      expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toContain('Dry run:');
      expect(r.stdout + r.stderr).not.toContain('a-key-for-the-dry-run');
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('sandbox reset --dry-run keeps the sandbox', async () => {
    const dir = tempDir('mailctl-dry-');
    expect((await runCli(['--sandbox', 'groups', 'create', 'Kept'], { configDir: dir })).exitCode).toBe(0);
    const r = await runCli(['--dry-run', 'sandbox', 'reset'], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Dry run');
    expect((await runCli(['--sandbox', 'groups', 'list'], { configDir: dir, tuning: { rateLimit: true } })).stdout).toContain('Kept');
    expect((await runCli(['sandbox', 'reset', '-y'], { configDir: dir })).exitCode).toBe(0);
    expect(fs.existsSync(path.join(dir, 'sandbox'))).toBe(false);
  });
});

describe('report sync --dry-run', () => {
  it('makes no request: shows the listing it would read, plans from what DIR holds, exports and creates nothing', async () => {
    const [sn] = await finishedCampaigns(sb.get, 1);
    const dir = path.join(tempDir('mailctl-dry-sync-'), 'reports');
    const mark = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'sync', '--out-dir', dir, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ dryRun: true, listed: null, known: 0, work: [], requests: [] });
    expect(plan.lookups).toEqual([expect.objectContaining({ method: 'GET', url: expect.stringContaining(`${sb.get().campaignUrl}/v1/report/campaigns?startDate=`) })]);
    expect(sb.get().sandbox.requests()).toHaveLength(mark);
    expect(fs.existsSync(dir)).toBe(false);

    expect((await runCli(['report', 'sync', '--out-dir', dir], { sandbox: sb.get() })).exitCode).toBe(0);
    const again = JSON.parse((await runCli(['report', 'sync', '--out-dir', dir, '--dry-run', '--json'], { sandbox: sb.get() })).stdout);
    expect(again.work.map((w: { sn: string }) => w.sn)).not.toContain(sn);
    expect(again.alreadyComplete).toBeGreaterThanOrEqual(1);

    // A file gone from DIR: the campaign its state knows is planned again; exported within the hour, so no export.
    fs.rmSync(path.join(folderOf(sb.get, dir, sn), 'open.csv'));
    const quiet = sb.get().sandbox.requests().length;
    const gone = JSON.parse((await runCli(['report', 'sync', '--out-dir', dir, '--dry-run', '--json'], { sandbox: sb.get() })).stdout);
    expect(gone.work).toEqual([expect.objectContaining({ sn, export: false, files: ['open'] })]);
    expect(gone.requests).toEqual([]);
    // Exported over an hour ago (as the state says): the export is recorded, built by the client, and not sent.
    const stateFile = path.join(dir, '.mailctl-sync.json');
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    state.campaigns[sn].exportedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    fs.writeFileSync(stateFile, JSON.stringify(state));
    const old = JSON.parse((await runCli(['report', 'sync', '--out-dir', dir, '--dry-run', '--json'], { sandbox: sb.get() })).stdout);
    expect(old.work).toEqual([expect.objectContaining({ sn, export: true, files: ['open'] })]);
    expect(old.requests).toEqual([{ method: 'POST', url: `${sb.get().campaignUrl}/v1/report/${sn}/export`, headers: expect.objectContaining({ accept: 'application/json', 'content-type': 'application/json' }), body: {} }]);
    expect(sb.get().sandbox.requests()).toHaveLength(quiet);
  }, 30_000);
});
