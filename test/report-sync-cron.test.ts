// `report sync` under cron: a real `kill -9` of the built CLI mid-download, and another while it
// waits for report links, then a re-run that finishes without exporting again or downloading what
// was complete; two overlapping runs on one directory, in-process and as two real processes (the
// second refused with LOCKED, exit 6, or waiting with --wait-lock); a lock whose run is gone never blocks.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { until } from './helpers/wait.js';
import { FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS, TYPES, finishedCampaigns, folderOf, sandboxLinks, sha256, syncTraffic } from './helpers/report-sync.js';
import { spawnCli } from './helpers/spawn-cli.js';

/** What making finished campaigns, then syncing their reports, asks for. */
const SYNC = [...FINISHED_CAMPAIGNS, ...REPORT_EXPORT, 'GET /campaign/v1/report/campaigns', SYNC_METRICS];
const sb = useSandbox({ expect: SYNC });
let sn: string;

beforeAll(async () => {
  [sn] = await finishedCampaigns(sb.get, 1, 60);
}, 30_000);

/** The built CLI as its own process, on its own config folder (as cron runs it). */
const spawned = (args: string[], sandbox = sb.get()) => spawnCli(args, { sandbox, prefix: 'mailctl-cron-' });

const sync = (args: string[], o: Parameters<typeof runCli>[1] = {}) => runCli(['report', 'sync', ...args], { sandbox: sb.get(), ...o });
const state = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8'));
const token = (link: string) => new URL(link).pathname.replace(/^\/files/, '');

describe('report sync killed with SIGKILL', () => {
  it('a re-run finishes the job, downloading only the files that were not complete', async () => {
    const dir = tempDir('mailctl-sync-kill-');
    const sandbox = sb.get().sandbox;
    const mark = sandbox.requests().length;
    // After three downloads the file host stops answering, so the kill lands with downloads in flight.
    sandbox.injectFault({ kind: 'hang', times: 100, match: { service: 'files', method: 'GET', path: /^\/d\//, after: 3 } });
    const run = spawnCli(['report', 'sync', '--out-dir', dir], { sandbox: sb.get(), prefix: 'mailctl-kill-' });
    await until('three files recorded and a download hanging', () => {
      const hung = syncTraffic(sb.get, mark).downloads.some((r) => r.status === -1);
      return hung && fs.existsSync(path.join(dir, '.mailctl-sync.json')) && Object.keys(state(dir).campaigns[sn]?.files ?? {}).length === 3;
    }, 20_000);
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);
    expect(run.stderr()).not.toContain('error');

    const kept = state(dir).campaigns[sn].files as Record<string, { sha256: string }>;
    const keptSums = Object.fromEntries(Object.entries(kept).map(([t, f]) => [t, f.sha256]));
    expect(fs.existsSync(path.join(dir, '.mailctl-sync.lock'))).toBe(true); // left by the killed run; its pid is gone

    const m = sandbox.requests().length;
    const r = await sync(['--out-dir', dir, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const t = syncTraffic(sb.get, m);
    expect(t.exports).toEqual([]); // exported minutes ago: a repeat would be ignored anyway
    const links = sandboxLinks(sb.get, sn);
    const missing = TYPES.filter((x) => !(x in kept));
    expect(t.downloads.map((d) => d.path).sort()).toEqual(missing.map((x) => token(links[x])).sort());

    const folder = folderOf(sb.get, dir, sn);
    expect(fs.readdirSync(folder).sort()).toEqual(TYPES.map((x) => `${x}.csv`).sort()); // no temporary file left
    for (const x of TYPES) expect(fs.readFileSync(path.join(folder, `${x}.csv`), 'utf8')).toBe(await (await fetch(links[x])).text());
    for (const [x, sum] of Object.entries(keptSums)) expect(sha256(path.join(folder, `${x}.csv`))).toBe(sum);
    expect(JSON.parse(r.stdout).files.filter((f: { updated: boolean }) => f.updated).map((f: { type: string }) => f.type).sort()).toEqual([...missing].sort());
    expect(fs.existsSync(path.join(dir, '.mailctl-sync.lock'))).toBe(false);
  }, 40_000);
});

describe('report sync: one run per directory', () => {
  it('a second run while one works is refused with LOCKED (exit 6, nothing sent); with --wait-lock it waits, then has nothing to do', async () => {
    const dir = tempDir('mailctl-sync-lock-');
    const sandbox = sb.get().sandbox;
    // The first run's first link request gets no answer; it gives up on it after 3 s and asks again.
    sandbox.injectFault({ kind: 'hang', match: { method: 'GET', path: `/v1/report/${sn}/link` } });
    const mark = sandbox.requests().length;
    const first = sync(['--out-dir', dir], { tuning: { timeoutMs: 3000 } });
    await until('the first run waiting on the service', () => syncTraffic(sb.get, mark).all.some((r) => r.status === -1));

    const m = sandbox.requests().length;
    const refused = await sync(['--out-dir', dir, '--json']);
    expect(refused.exitCode).toBe(6);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'LOCKED', exitCode: 6 });
    expect(refused.stderr).toContain(`Another report sync is working on ${dir}`);
    expect(refused.stderr).toContain('--wait-lock');
    // Each line of it dated and naming the run, as in cron's log beside the summary lines.
    for (const line of refused.stderr.trim().split('\n')) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ report sync \S+: /);
    expect(sandbox.requests().slice(m)).toEqual([]);

    const waiting = sync(['--out-dir', dir, '--wait-lock', '1m', '--json']);
    expect((await first).exitCode).toBe(0);
    const w = await waiting;
    expect(w.exitCode, w.stderr).toBe(0);
    expect(w.stderr).toBe(''); // --json: the wait is in the document
    expect(JSON.parse(w.stdout)).toMatchObject({ exports: 0, waitedForLockMs: expect.any(Number), campaigns: { alreadyComplete: 1, downloaded: 0 } });
    expect(JSON.parse(w.stdout).waitedForLockMs).toBeGreaterThan(0);
  }, 30_000);

  it('a lock left by a process that is gone, or not touched for over an hour, does not block', async () => {
    const dir = tempDir('mailctl-sync-stale-');
    const lock = path.join(dir, '.mailctl-sync.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'gone' }));
    const r = await sync(['--out-dir', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);

    // A live pid (vitest's parent, as if reused by another program) but a lock two hours old.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'old' }));
    const old = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(lock, old, old);
    expect((await sync(['--out-dir', dir])).exitCode).toBe(0);

    // The same lock touched a moment ago blocks.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'live' }));
    expect((await sync(['--out-dir', dir])).exitCode).toBe(6);
    fs.rmSync(lock);
  });
});

describe('report sync: two overlapping runs as two processes', () => {
  it('the second exits 6 (LOCKED) at once; a third with --wait-lock waits for the first, then has nothing to do', async () => {
    // A sandbox of its own: one campaign whose files take 3 s to make, so the first run holds the directory that long.
    const own = await startTestSandbox({ delays: { reportExport: 3000 }, expect: SYNC });
    try {
      await finishedCampaigns(() => own, 1, 3);
      const dir = tempDir('mailctl-sync-overlap-');
      const first = spawned(['report', 'sync', '--out-dir', dir], own);
      await until('the first run holding the lock', () => fs.existsSync(path.join(dir, '.mailctl-sync.lock')), 10_000);
      const second = await spawned(['report', 'sync', '--out-dir', dir, '--json'], own).exited;
      expect(second.code).toBe(6);
      expect(JSON.parse(second.stdout).error).toMatchObject({ code: 'LOCKED', exitCode: 6 });
      expect(second.stderr).toContain(`Another report sync is working on ${dir}`);

      const third = spawned(['report', 'sync', '--out-dir', dir, '--wait-lock', '1m', '--json'], own);
      const one = await first.exited;
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toBe(''); // quiet without a terminal: the summary line on stderr only
      expect(one.stderr.trim().split('\n')).toEqual([expect.stringContaining('1 campaign downloaded (6 files')]);
      const three = await third.exited;
      expect(three.code, three.stderr).toBe(0);
      expect(JSON.parse(three.stdout)).toMatchObject({ exports: 0, campaigns: { alreadyComplete: 1, downloaded: 0 } });
      expect(own.sandbox.requests('campaign').filter((r) => /\/export$/.test(r.path))).toHaveLength(1);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe('report sync killed with SIGKILL while waiting for report links', () => {
  it('a re-run sends no export again, keeps the complete campaign untouched and finishes the other', async () => {
    const dir = tempDir('mailctl-sync-kill-links-');
    const sandbox = sb.get().sandbox;
    // A first run makes the directory hold every campaign finished so far, complete.
    expect((await sync(['--out-dir', dir])).exitCode).toBe(0);
    const complete = structuredClone(state(dir).campaigns) as Record<string, { files: Record<string, { sha256: string; downloadedAt: string }> }>;
    const [fresh] = await finishedCampaigns(sb.get, 1, 5);
    // That run's last export is long past (no pause before this run's first).
    const st = state(dir);
    st.lastExportAt = new Date(Date.now() - 3_600_000).toISOString();
    fs.writeFileSync(path.join(dir, '.mailctl-sync.json'), JSON.stringify(st));

    sandbox.injectFault({ kind: 'hang', times: 100, match: { method: 'GET', path: `/v1/report/${fresh}/link` } });
    const mark = sandbox.requests().length;
    const run = spawned(['report', 'sync', '--out-dir', dir]);
    await until('the export accepted and recorded, the link request hanging', () => {
      const hung = syncTraffic(sb.get, mark).all.some((r) => r.path === `/v1/report/${fresh}/link` && r.status === -1);
      return hung && !!state(dir).campaigns[fresh]?.exportedAt;
    }, 20_000);
    run.child.kill('SIGKILL');
    await run.exited;
    sandbox.faults.splice(0);
    expect(syncTraffic(sb.get, mark).exports.map((r) => r.path)).toEqual([`/v1/report/${fresh}/export`]);

    const m = sandbox.requests().length;
    const r = await sync(['--out-dir', dir, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const t = syncTraffic(sb.get, m);
    expect(t.exports).toEqual([]); // exported a moment ago: a repeat would be ignored, so none is sent
    const links = sandboxLinks(sb.get, fresh);
    expect(t.downloads.map((d) => d.path).sort()).toEqual(TYPES.map((x) => token(links[x])).sort()); // only the new campaign's files
    const after = state(dir).campaigns;
    for (const [sn, c] of Object.entries(complete)) expect(after[sn].files, sn).toEqual(c.files);
    expect(Object.keys(after[fresh].files).sort()).toEqual([...TYPES].sort());
  }, 40_000);
});
