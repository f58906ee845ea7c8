// `mailctl campaign list`: the service has no endpoint listing campaigns, so `campaign create`
// records each one it makes in a ledger (per profile and service URL, in the config folder) and
// `campaign list` shows them newest first, each with its status looked up now (endpoint 13);
// --all adds the service's finished campaigns (endpoint 14). Filters, every output, completion.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, tsv as tsvOf } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { GROUP_SETUP, pollUntil } from './helpers/campaign-api.js';
import { systemClock, type Clock } from '../src/core/clock.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/campaign/normal/:sn',
    'PATCH /campaign/v1/campaign/normal/:sn',
    'DELETE /campaign/v1/campaign/normal',
    'GET /campaign/v1/report/campaigns',
  ],
});
const fx = campaignFixtures(sb.get);
const FLAGS = ['--group', 'Newsletter', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>', '--preheader', 'P'];
let group: string;

beforeAll(async () => {
  group = await fx.group('Newsletter', 3);
});

/** A run on this test's config folder (its ledger) against the loopback sandbox. */
const cli = (configDir: string, argv: string[], o: { clock?: Clock; env?: Record<string, string> } = {}) => runCli(argv, { sandbox: sb.get(), configDir, ...o });

async function create(configDir: string, name: string, extra: string[] = [], clock?: Clock): Promise<string> {
  const r = await cli(configDir, ['campaign', 'create', '--name', name, ...FLAGS, ...extra], { clock });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout.trim();
}
const statusLookups = (from: number) => sb.get().sandbox.requests('campaign').slice(from).filter((r) => r.method === 'GET' && r.path.startsWith('/v1/campaign/normal/'));
const json = async (configDir: string, argv: string[]) => {
  const r = await cli(configDir, [...argv, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<Record<string, any>>;
};
/** A clock `days` behind the real one (what it records as "created at"). */
const daysAgo = (days: number): Clock => ({ now: () => Date.now() - days * 86_400_000, sleep: systemClock.sleep });

describe('campaign create records each campaign in the ledger', () => {
  it('one line per campaign, private to the user, with code, name, kind, groups, schedule and time created', async () => {
    const dir = tempDir();
    const now = await create(dir, 'Dec news');
    const later = await create(dir, 'Spring', ['--at', '2035-03-01 09:00', '--timezone', 'Asia/Taipei', '--ab', 'subject', '--subject-a', 'A', '--subject-b', 'B', '--test-percent', '20', '--test-duration', '4h']);
    const dirOf = path.join(dir, 'campaigns');
    const [file] = fs.readdirSync(dirOf);
    expect(fs.statSync(path.join(dirOf, file)).mode & 0o777).toBe(0o600);
    const lines = fs.readFileSync(path.join(dirOf, file), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { v: 1, code: now, name: 'Dec news', kind: 'REGULAR', abTest: null, once: false, groups: [{ code: group, name: 'Newsletter' }], exclude: [], schedule: null, createdAt: expect.any(String) },
      { v: 1, code: later, name: 'Spring', kind: 'A_B_TEST', abTest: 'subject', once: false, groups: [{ code: group, name: 'Newsletter' }], exclude: [], schedule: { date: '2035-03-01T01:00:00Z', timezone: 21, city: 'TAIPEI' }, createdAt: expect.any(String) },
    ]);
  });

  it('a dry run records nothing', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['campaign', 'create', '--name', 'Dry', ...FLAGS, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'campaigns'))).toBe(false);
  });

  it('a ledger it cannot write: the campaign is still reported created (exit 0), with a warning and "listed": false', async () => {
    const dir = tempDir();
    await create(dir, 'Listed');
    const [file] = fs.readdirSync(path.join(dir, 'campaigns')).map((f) => path.join(dir, 'campaigns', f));
    fs.rmSync(file);
    fs.mkdirSync(file); // a folder where the ledger goes: the append fails
    const r = await cli(dir, ['campaign', 'create', '--name', 'Unlisted', ...FLAGS, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.listed).toBe(false);
    expect(r.stderr).toContain(`Campaign ${out.sn} was created but could not be added to \`mailctl campaign list\``);
  });
});

describe('campaign list', () => {
  it('newest first, each with its status now (one lookup each), in every output format', async () => {
    const dir = tempDir();
    const first = await create(dir, 'First');
    const second = await create(dir, 'Second', ['--at', '2035-12-01 09:00', '--timezone', 'TAIPEI']);
    const from = fx.mark();

    const tsv = await cli(dir, ['campaign', 'list']);
    expect(tsv.exitCode, tsv.stderr).toBe(0);
    const { header, rows } = tsvOf(tsv.stdout);
    expect(header).toEqual(['code', 'name', 'status', 'kind', 'to', 'scheduled', 'sent', 'created']);
    expect(rows.map((r) => [r[0], r[1], r[3], r[4]])).toEqual([[second, 'Second', 'regular', 'Newsletter'], [first, 'First', 'regular', 'Newsletter']]);
    expect(rows[0][2]).toBe('PREPARE');
    expect(rows[0][5]).toBe('2035-12-01T01:00:00Z'); // ISO 8601 UTC, as every list prints a date piped
    expect(['PREPARE_TO_SENT', 'SENDING', 'COMPLETE']).toContain(rows[1][2]);
    expect(statusLookups(from).map((r) => r.path)).toEqual([`/v1/campaign/normal/${second}`, `/v1/campaign/normal/${first}`]);

    const doc = await json(dir, ['campaign', 'list']);
    expect(doc[0]).toMatchObject({ code: second, name: 'Second', status: 'PREPARE', kind: 'REGULAR', once: false, groups: [{ code: group, name: 'Newsletter' }], scheduledDate: expect.stringMatching(/^2035-12-01T01:00:00/), source: 'ledger' });

    const csv = await cli(dir, ['campaign', 'list', '--csv']);
    expect(csv.stdout.split('\n')[0]).toBe('code,name,status,kind,to,scheduled,sent,created');
    expect(csv.stdout).toContain(`${second},Second,PREPARE,regular,Newsletter,2035-12-01T01:00:00Z`);

    const table = await cli(dir, ['campaign', 'list'], {});
    expect(table.exitCode).toBe(0);
    const tty = await runCli(['campaign', 'list'], { sandbox: sb.get(), configDir: dir, tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stdout).toMatch(/^CODE +NAME +STATUS/); // the output convention's table: no rules
    expect(tty.stdout).toMatch(new RegExp(`^${second} +Second +PREPARE `, 'm'));
  });

  it('--status filters by the status now: a paused one is STOP, a deleted one NOT_FOUND', async () => {
    const dir = tempDir();
    const paused = await create(dir, 'Paused', ['--at', '2035-12-01 09:00', '--timezone', 'TAIPEI']);
    const deleted = await create(dir, 'Deleted', ['--at', '2035-12-02 09:00', '--timezone', 'TAIPEI']);
    const waiting = await create(dir, 'Waiting', ['--at', '2035-12-03 09:00', '--timezone', 'TAIPEI']);
    expect((await cli(dir, ['campaign', 'pause', paused, '--yes'])).exitCode).toBe(0);
    expect((await cli(dir, ['campaign', 'delete', deleted, '--yes'])).exitCode).toBe(0);

    const codes = async (...argv: string[]) => (await json(dir, ['campaign', 'list', ...argv])).map((r) => `${r.code} ${r.status}`);
    expect(await codes('--status', 'prepare')).toEqual([`${waiting} PREPARE`]);
    expect(await codes('--status', 'STOP,NOT_FOUND')).toEqual([`${deleted} NOT_FOUND`, `${paused} STOP`]);
  });

  it('--limit stops the lookups once enough rows are found', async () => {
    const dir = tempDir();
    for (const n of ['A', 'B', 'C']) await create(dir, n);
    const from = fx.mark();
    const rows = await json(dir, ['campaign', 'list', '--limit', '1']);
    expect(rows.map((r) => r.name)).toEqual(['C']);
    expect(statusLookups(from)).toHaveLength(1);
    // Cut short: said on stderr in every output, piped and --json too (stdout keeps the data alone).
    for (const extra of [[], ['--json'], ['--csv']]) {
      const r = await cli(dir, ['campaign', 'list', '--limit', '2', ...extra]);
      expect(r.stderr).toContain('Showing the 2 newest; there may be more (--limit N shows more).');
    }
  });

  it('--since/--until filter by the time each was created', async () => {
    const dir = tempDir();
    await create(dir, 'Old', [], daysAgo(10));
    await create(dir, 'New');
    const names = async (...argv: string[]) => (await json(dir, ['campaign', 'list', ...argv])).map((r) => r.name);
    expect(await names()).toEqual(['New', 'Old']);
    expect(await names('--since', '7d')).toEqual(['New']);
    expect(await names('--until', '7d')).toEqual(['Old']);
    expect(await names('--since', '30d', '--until', '1d')).toEqual(['Old']);
  });

  it('--all adds the finished campaigns the service lists that were made elsewhere (status COMPLETE, no lookup)', async () => {
    const dir = tempDir();
    const mine = await create(dir, 'Mine');
    const elsewhere = await create(tempDir(), 'Elsewhere'); // another machine's ledger
    await pollUntil(() => fx.api.get(`/v1/campaign/normal/${elsewhere}`), (x) => x.json?.[0]?.status === 'COMPLETE');
    expect((await json(dir, ['campaign', 'list'])).map((r) => r.code)).toEqual([mine]);
    const from = fx.mark();
    const all = await json(dir, ['campaign', 'list', '--all']);
    const other = all.find((r) => r.code === elsewhere);
    expect(other).toMatchObject({ name: 'Elsewhere', status: 'COMPLETE', source: 'report', kind: null, groups: null, createdAt: null });
    expect(all.filter((r) => r.code === mine)).toHaveLength(1);
    expect(statusLookups(from).map((r) => r.path)).not.toContain(`/v1/campaign/normal/${elsewhere}`);
  });

  it('--status takes the vendor\'s SENT and QUEUED too; SENT and COMPLETE are one state, either finds it', async () => {
    const dir = tempDir();
    const done = await create(dir, 'Done');
    await pollUntil(() => fx.api.get(`/v1/campaign/normal/${done}`), (x) => x.json?.[0]?.status === 'COMPLETE');
    expect((await json(dir, ['campaign', 'list', '--status', 'SENT'])).map((r) => r.code)).toEqual([done]);
    expect((await json(dir, ['campaign', 'list', '--status', 'complete'])).map((r) => r.code)).toEqual([done]);
    expect(await json(dir, ['campaign', 'list', '--status', 'QUEUED'])).toEqual([]);
  });

  it('each profile and service URL has its own list; an empty one says how campaigns get there', async () => {
    const dir = tempDir();
    await create(dir, 'Default profile');
    const other = await cli(dir, ['campaign', 'list'], { env: { MAILCTL_PROFILE: 'other' } });
    expect(other.exitCode).toBe(0);
    expect(other.stdout).toBe('code\tname\tstatus\tkind\tto\tscheduled\tsent\tcreated\n'); // piped, an empty list is its header
    const tty = await runCli(['campaign', 'list'], { sandbox: sb.get(), configDir: dir, tty: true, env: { MAILCTL_PROFILE: 'other' } });
    expect(tty.stderr).toContain('No campaign has been created with this profile yet: `mailctl --profile other campaign create` adds each campaign it makes here.');
  });

  it('a damaged line is named in a warning and left out; the other campaigns are listed', async () => {
    const dir = tempDir();
    const code = await create(dir, 'Intact');
    const [file] = fs.readdirSync(path.join(dir, 'campaigns')).map((f) => path.join(dir, 'campaigns', f));
    fs.appendFileSync(file, '{"v":1,"code":"CPcut","na');
    const r = await cli(dir, ['campaign', 'list']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(tsvOf(r.stdout).rows.map((x) => x[0])).toEqual([code]);
    expect(r.stderr).toContain('line 2: not JSON (cut short?)');
    // The next campaign created cuts the torn line (never acknowledged) and starts on a line of its own.
    const next = await create(dir, 'After');
    const again = await json(dir, ['campaign', 'list']);
    expect(again.map((x) => x.code)).toEqual([next, code]);
    expect((await cli(dir, ['campaign', 'list'])).stderr).not.toContain('not JSON');
  });

  it('a bad --status, --limit or date is refused (exit 2) before any request', async () => {
    const dir = tempDir();
    const from = sb.get().sandbox.requests().length;
    for (const [argv, said] of [
      [['--status', 'SENT_OUT'], '--status: "SENT_OUT" is not a campaign status'],
      [['--limit', '0'], '--limit takes a whole number 1 or more'],
      [['--since', '2026-02-30'], 'not a real date'],
      [['--all', '--until', '2026-01-01'], '--until needs --since too'],
    ] as const) {
      const r = await cli(dir, ['campaign', 'list', ...argv]);
      expect(r.exitCode, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(said);
    }
    expect(sb.get().sandbox.requests().length).toBe(from);
  });

  it('completion offers the codes created and listed, for status, pause, delete and report', async () => {
    const dir = tempDir();
    const code = await create(dir, 'Completed');
    const complete = async (...words: string[]) => (await runCli(['__complete', '--', ...words], { configDir: dir, env: campaignEnv() })).stdout.trim().split('\n');
    expect(await complete('campaign', 'status', '')).toEqual([code]);
    expect(await complete('campaign', 'pause', code.slice(0, 4))).toEqual([code]);
    expect(await complete('report', 'metrics', '')).toEqual([code]);
    // A code already typed is not offered again.
    expect(await complete('campaign', 'delete', code, '')).toEqual(['']);
  });

  it('hints that sent people in circles point to campaign list', async () => {
    const dir = tempDir();
    const r = await cli(dir, ['campaign', 'pause', 'CPnone', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('`mailctl campaign list --status PREPARE`');
    const s = await cli(dir, ['campaign', 'status', 'CPnone']);
    expect(s.stderr).toContain('`mailctl campaign list --all`');
  });
});

/** The URLs and keys runCli's sandbox option sets, for a completion run (which reads no sandbox). */
function campaignEnv(): Record<string, string> {
  return { MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_NOTIFY_URL: sb.get().notifyUrl };
}
