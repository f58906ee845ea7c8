// `report sync` under cron: a real `kill -9` of the built CLI mid-download, then a re-run that
// finishes without downloading again what was complete; two overlapping runs on one directory
// (the second refused with LOCKED, or waiting with --wait-lock); a lock whose run is gone never blocks.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { until } from './helpers/wait.js';
import { TYPES, finishedCampaigns, folderOf, sandboxLinks, sha256, syncTraffic } from './helpers/report-sync.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const sb = useSandbox();
let sn: string;

beforeAll(async () => {
  [sn] = await finishedCampaigns(sb.get, 1, 60);
}, 30_000);

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
    const home = tempDir('mailctl-kill-');
    const env = { PATH: process.env.PATH, HOME: home, MAILCTL_CONFIG_DIR: path.join(home, 'config'), MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign };
    const child = spawn(process.execPath, [bin, 'report', 'sync', '--out', dir], { env, cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise((r) => child.on('exit', r));
    await until('three files recorded and a download hanging', () => {
      const hung = syncTraffic(sb.get, mark).downloads.some((r) => r.status === -1);
      return hung && fs.existsSync(path.join(dir, '.mailctl-sync.json')) && Object.keys(state(dir).campaigns[sn]?.files ?? {}).length === 3;
    }, 20_000);
    child.kill('SIGKILL');
    await exited;
    sandbox.faults.splice(0);
    expect(stderr).not.toContain('error');

    const kept = state(dir).campaigns[sn].files as Record<string, { sha256: string }>;
    const keptSums = Object.fromEntries(Object.entries(kept).map(([t, f]) => [t, f.sha256]));
    expect(fs.existsSync(path.join(dir, '.mailctl-sync.lock'))).toBe(true); // left by the killed run; its pid is gone

    const m = sandbox.requests().length;
    const r = await sync(['--out', dir, '--json']);
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
  it('a second run while one works is refused with LOCKED (exit 1, nothing sent); with --wait-lock it waits, then has nothing to do', async () => {
    const dir = tempDir('mailctl-sync-lock-');
    const sandbox = sb.get().sandbox;
    // The first run's first link request gets no answer; it gives up on it after 3 s and asks again.
    sandbox.injectFault({ kind: 'hang', match: { method: 'GET', path: `/v1/report/${sn}/link` } });
    const mark = sandbox.requests().length;
    const first = sync(['--out', dir], { tuning: { timeoutMs: 3000 } });
    await until('the first run waiting on the service', () => syncTraffic(sb.get, mark).all.some((r) => r.status === -1));

    const m = sandbox.requests().length;
    const refused = await sync(['--out', dir, '--json']);
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'LOCKED', exitCode: 1 });
    expect(refused.stderr).toContain(`Another report sync is working on ${dir}`);
    expect(refused.stderr).toContain('--wait-lock');
    expect(sandbox.requests().slice(m)).toEqual([]);

    const waiting = sync(['--out', dir, '--wait-lock', '1m', '--json']);
    expect((await first).exitCode).toBe(0);
    const w = await waiting;
    expect(w.exitCode, w.stderr).toBe(0);
    expect(w.stderr).toContain('Waiting for another report sync');
    expect(JSON.parse(w.stdout)).toMatchObject({ exports: 0, campaigns: { alreadyComplete: 1, downloaded: 0 } });
  }, 30_000);

  it('a lock left by a process that is gone, or not touched for over an hour, does not block', async () => {
    const dir = tempDir('mailctl-sync-stale-');
    const lock = path.join(dir, '.mailctl-sync.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'gone' }));
    const r = await sync(['--out', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);

    // A live pid (this very process, e.g. reused by another program) but a lock two hours old.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'old' }));
    const old = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(lock, old, old);
    expect((await sync(['--out', dir])).exitCode).toBe(0);

    // The same lock touched a moment ago blocks.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: '2026-01-01T00:00:00Z', token: 'live' }));
    expect((await sync(['--out', dir])).exitCode).toBe(1);
    fs.rmSync(lock);
  });
});
