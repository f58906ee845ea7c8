// The report commands' folder flag (issue 12.4): `--out` is a file in `template show` and `webhook
// listen`, so `report export|links|sync` name their folder `--out-dir DIR`, and only that (issue
// 20.5: nothing had shipped, so the old `--out DIR` went outright; docs/flags.md).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { TYPES, finishedCampaigns, folderOf, FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS } from './helpers/report-sync.js';

const sb = useSandbox({
  expect: [
    ...FINISHED_CAMPAIGNS,
    ...REPORT_EXPORT,
    'GET /campaign/v1/report/campaigns',
    SYNC_METRICS, // a real report sync reads the metrics for its dashboard
  ],
});
let sn: string;

beforeAll(async () => {
  [sn] = await finishedCampaigns(sb.get, 1);
}, 30_000);

const files = (dir: string) => fs.readdirSync(dir).sort();

describe('--out-dir DIR on the report commands', () => {
  it('report export --out-dir waits and downloads the six files into DIR', async () => {
    const dir = tempDir('mailctl-outdir-');
    const r = await runCli(['report', 'export', sn, '--out-dir', dir], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(files(dir)).toEqual(TYPES.map((t) => `${sn}_${t}.csv`).sort());
  });

  it('report links --out-dir downloads the existing files', async () => {
    const dir = tempDir('mailctl-outdir-');
    const r = await runCli(['report', 'links', sn, '--out-dir', dir], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(files(dir)).toHaveLength(6);
  });

  it('report links --out-dir --dry-run lists the files a run would save, and reads, downloads and writes nothing', async () => {
    const dir = path.join(tempDir('mailctl-outdir-'), 'reports');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'links', sn, '--out-dir', dir, '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sb.get().sandbox.requests().length).toBe(before);
    expect(fs.existsSync(dir)).toBe(false);
    for (const t of TYPES) expect(r.stdout).toContain(path.join(dir, `${sn}_${t}.csv`));
    expect(r.stdout).toContain(`GET ${sb.get().campaignUrl}/v1/report/${sn}/link`);
    const json = JSON.parse((await runCli(['report', 'links', sn, '--out-dir', dir, '--dry-run', '--json'], { sandbox: sb.get() })).stdout);
    expect(json.downloads.map((d: { file: string }) => d.file).sort()).toEqual(TYPES.map((t) => path.join(dir, `${sn}_${t}.csv`)).sort());
    // The folder is checked as a run checks it: a file already there needs --force.
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, `${sn}_open.csv`), 'kept');
    const taken = await runCli(['report', 'links', sn, '--out-dir', dir, '--dry-run'], { sandbox: sb.get() });
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toContain('--force');
    expect((await runCli(['report', 'links', sn, '--out-dir', dir, '--dry-run', '--force'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(dir, `${sn}_open.csv`), 'utf8')).toBe('kept');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('report sync --out-dir keeps DIR; a second run finds it complete', async () => {
    const dir = tempDir('mailctl-outdir-');
    const r = await runCli(['report', 'sync', '--out-dir', dir, '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(files(folderOf(sb.get, dir, sn))).toEqual(expect.arrayContaining(TYPES.map((t) => `${t}.csv`)));
    const again = await runCli(['report', 'sync', '--out-dir', dir, '--json'], { sandbox: sb.get() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ dir, campaigns: { downloaded: 0 } });
    expect(JSON.parse(again.stdout).campaigns.alreadyComplete).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [['report', 'export', 'CP0001']],
    [['report', 'links', 'CP0001']],
    [['report', 'sync']],
  ])('%j --out DIR: --out is a file everywhere, so a report folder is only --out-dir (exit 2, nothing sent, nothing made)', async (argv) => {
    const b = path.join(tempDir('mailctl-outdir-'), 'b');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli([...argv, '--out', b], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--out'");
    expect(sb.get().sandbox.requests().length).toBe(before);
    expect(fs.existsSync(b)).toBe(false);
  });

  it('report sync without a folder: exit 2 naming both ways to give it', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'sync'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('report sync needs the directory it keeps complete (created if missing): report sync DIR, or --out-dir DIR.');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('report sync DIR is report sync --out-dir DIR; both at once is exit 2, nothing sent', async () => {
    const dir = path.join(tempDir('mailctl-outdir-'), 'reports');
    const byArg = await runCli(['report', 'sync', dir, '--since', '7d', '--dry-run', '--json'], { sandbox: sb.get() });
    const byFlag = await runCli(['report', 'sync', '--out-dir', dir, '--since', '7d', '--dry-run', '--json'], { sandbox: sb.get() });
    expect(byArg.exitCode).toBe(0);
    expect(JSON.parse(byArg.stdout)).toEqual(JSON.parse(byFlag.stdout));
    const before = sb.get().sandbox.requests().length;
    // A file given as DIR is named as given.
    const file = path.join(tempDir('mailctl-outdir-'), 'afile');
    fs.writeFileSync(file, 'x');
    expect((await runCli(['report', 'sync', file], { sandbox: sb.get() })).stderr).toContain(`${file} (DIR) is a file, not a directory`);
    const both = await runCli(['report', 'sync', dir, '--out-dir', dir], { sandbox: sb.get() });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('The directory is given twice');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a file where the folder should be is refused naming the flag as typed', async () => {
    const file = path.join(tempDir('mailctl-outdir-'), 'report.csv');
    fs.writeFileSync(file, 'keep me\n');
    for (const argv of [['report', 'export', 'CP0001'], ['report', 'sync']]) {
      const r = await runCli([...argv, '--out-dir', file], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`${file} (--out-dir) is a file, not a directory`);
      expect(r.stderr).toContain('Give a directory with --out-dir DIR');
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me\n');
  });

  it('help documents --out-dir and no --out; completion offers --out-dir', async () => {
    for (const verb of ['export', 'links', 'sync']) {
      const h = await runCli(['report', verb, '--help']);
      expect(h.stdout).toContain('--out-dir <dir>');
      expect(h.stdout).not.toMatch(/--out\b(?!-)/);
      const c = await runCli(['__complete', '--', 'report', verb, ...(verb === 'sync' ? [] : ['CP1']), '--ou']);
      // The global --output FORMAT shares the prefix.
      expect(c.stdout.split('\n').filter(Boolean).sort()).toEqual(['--out-dir', '--output']);
    }
  });
});
