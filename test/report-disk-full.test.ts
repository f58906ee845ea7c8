// `report sync` and `report export|links --out-dir` on a full disk (a tiny tmpfs,
// test/helpers/small-disk.ts; needs root to mount, skips saying so where it cannot). For sync: Whatever write the disk refuses — the state, a report file,
// the lock — the run ends with the disk problem and its path (exit 1, code DISK) and the same
// command to run again; nothing is claimed synced that is not on disk (no state or manifest
// listing a file that is not whole there, no leftovers, no lock left behind); once space is
// freed the same command completes the directory. For --out-dir: the file that could not be
// saved is named, those saved before stay whole, and the hinted `report links` fetches the rest.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { smallDisk, type SmallDisk } from './helpers/small-disk.js';
import { TYPES, finishedCampaigns, folderOf, sandboxLinks, sha256, FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS } from './helpers/report-sync.js';
import { shellQuote } from '../src/core/suggest.js';

const sb = useSandbox({ expect: [...FINISHED_CAMPAIGNS, ...REPORT_EXPORT, 'GET /campaign/v1/report/campaigns', SYNC_METRICS] });

const mounted = smallDisk(1024 * 1024);
afterAll(() => ('unmount' in mounted ? mounted.unmount() : undefined));
/** Used only inside the describe that skips where nothing could be mounted. */
const disk = mounted as SmallDisk;

let sn: string;
beforeAll(async () => {
  [sn] = await finishedCampaigns(sb.get, 1);
}, 30_000);

const sync = (dir: string) => runCli(['report', 'sync', '--out-dir', dir, '--json'], { sandbox: sb.get() });

/** Run with the disk filled to `leave` bytes free, then freed again. */
async function onFullDisk(leave: number, dir: string) {
  disk.fill(leave);
  try {
    return await sync(dir);
  } finally {
    disk.free();
  }
}

/** Every file of the campaign is in place, whole (the sandbox's own content), and listed by the state and the manifest with its sha256. */
async function expectComplete(dir: string): Promise<void> {
  const links = sandboxLinks(sb.get, sn);
  const state = JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8'));
  const manifest = fs.readFileSync(path.join(dir, 'manifest.csv'), 'utf8');
  for (const type of TYPES) {
    const file = path.join(folderOf(sb.get, dir, sn), `${type}.csv`);
    expect(fs.readFileSync(file, 'utf8')).toBe(await (await fetch(links[type])).text());
    expect(state.campaigns[sn].files[type].sha256).toBe(sha256(file));
    expect(manifest).toContain(sha256(file));
  }
}

/** Nothing in DIR but what the state lists (and the state itself), no temporary or lock file. */
function listedOnly(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else found.push(path.relative(dir, path.join(d, e.name)));
    }
  };
  walk(dir);
  return found.sort();
}

describe.skipIf('skip' in mounted)('report sync on a full disk', () => {
  it('the state cannot be written: exit 1 DISK naming it, nothing claimed, no lock left; the same command then completes', async () => {
    const dir = path.join(disk.dir, 'state');
    // One page left: the lock fits, the state the export's save writes does not.
    const r = await onFullDisk(4096, dir);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['error']); // no files listed as synced
    expect(doc.error.code).toBe('DISK');
    expect(doc.error.message).toBe(`Could not write ${path.join(dir, '.mailctl-sync.json')}: the disk is full (ENOSPC).`);
    expect(doc.error.hint).toContain(`run the command again: mailctl report sync --out-dir ${dir} --json`);
    expect(r.stderr).not.toContain('bug in mailctl');
    expect(listedOnly(dir)).toEqual([]);

    const again = await sync(dir);
    expect(again.exitCode, again.stderr).toBe(0);
    await expectComplete(dir);
  });

  it('a report file cannot be written: exit 1 DISK naming it (not a temporary name), no partial file, the state lists nothing; the same command then completes', async () => {
    const dir = path.join(disk.dir, 'files');
    // Two pages: the lock and the state saved after the export; none for a report file.
    const r = await onFullDisk(2 * 4096, dir);
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('DISK');
    expect(err.message).toMatch(new RegExp(`^Could not write ${folderOf(sb.get, dir, sn).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(${TYPES.join('|')})\\.csv: the disk is full \\(ENOSPC\\)\\.$`));
    expect(err.hint).toContain(`Files already whole in ${dir} are kept`);
    expect(err.hint).toContain(`mailctl report sync --out-dir ${dir} --json`);
    // The state recorded the export and no file; nothing else is in DIR.
    expect(listedOnly(dir)).toEqual(['.mailctl-sync.json']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8')).campaigns[sn].files).toEqual({});

    const again = await sync(dir);
    expect(again.exitCode, again.stderr).toBe(0);
    await expectComplete(dir);
  });

  it('the lock cannot be written: exit 1 DISK naming the lock, and no empty lock stays to block the next run', async () => {
    const dir = path.join(disk.dir, 'lock');
    const r = await onFullDisk(0, dir);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'DISK', message: `Could not write ${path.join(dir, '.mailctl-sync.lock')}: the disk is full (ENOSPC).` });
    expect(listedOnly(dir)).toEqual([]);
    const again = await sync(dir);
    expect(again.exitCode, again.stderr).toBe(0);
    await expectComplete(dir);
  });
});

describe.skipIf('skip' in mounted)('report export --out-dir on a full disk', () => {
  it('names the report file that could not be saved, keeps those saved before, and hints `report links … --force`, which then saves every file whole', async () => {
    const dir = path.join(disk.dir, 'export');
    disk.fill(4096);
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(['report', 'export', sn, '--wait', '--out-dir', dir], { sandbox: sb.get(), env: { NO_COLOR: '1' } });
    } finally {
      disk.free();
    }
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: Could not write ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${sn}_(${TYPES.join('|')})\\.csv: the disk is full \\(ENOSPC\\)\\.`));
    const hinted = `mailctl report links ${sn} --out-dir ${shellQuote(dir)} --force`;
    expect(r.stderr).toContain(`Free some space on that disk, then save the files with: ${hinted}`);
    expect(r.stderr).not.toContain('bug in mailctl');
    // What is there is whole (the service's own content), and no temporary file is left.
    const links = sandboxLinks(sb.get, sn);
    for (const name of fs.readdirSync(dir)) {
      const type = /^.+_([a-z]+)\.csv$/.exec(name)?.[1];
      expect(type && TYPES.includes(type), name).toBe(true);
      expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe(await (await fetch(links[type!])).text());
    }

    const again = await runCli(hinted.split(' ').slice(1), { sandbox: sb.get() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(TYPES.map((t) => `${sn}_${t}.csv`).sort());
  });
});
