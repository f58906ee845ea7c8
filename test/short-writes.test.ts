// Short writes on a nearly full disk (issue 19 items 4 and 7; a tiny tmpfs, test/helpers/small-disk.ts,
// needs root to mount and skips saying so where it cannot). A write there takes what fits
// (bytesWritten < length) without failing, and only the next write fails, or none does: a writer
// that ignored bytesWritten renamed files cut short into place and said "Wrote …". Each command
// that writes a file through an open handle is run with less room than its file needs: exit 1,
// code DISK naming the file the user knows (never a temporary name), the command that runs it
// again, and nothing at the final name nor any .part left; once there is room that command
// writes the file whole. A page (--out) on a full disk is the same DISK error, not bad input
// (exit 2), and so is a store SQLite cannot open on a full disk.
import fs from 'node:fs';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { smallDisk, type SmallDisk } from './helpers/small-disk.js';
import { FINISHED_CAMPAIGNS, REPORT_EXPORT, SYNC_METRICS, TYPES, finishedCampaigns, folderOf, sandboxLinks } from './helpers/report-sync.js';
import { shellQuote } from '../src/core/suggest.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { rowOf } from '../src/store/row.js';
import { writeAll, writeAllSync } from '../src/fs/write-all.js';
import { DiskError } from '../src/fs/disk-error.js';

const sb = useSandbox({ expect: [...FINISHED_CAMPAIGNS, ...REPORT_EXPORT, 'GET /campaign/v1/report/campaigns', SYNC_METRICS] });
const hs = useHostileServer();

const mounted = smallDisk(1024 * 1024);
afterAll(() => ('unmount' in mounted ? mounted.unmount() : undefined));
/** Used only inside the describes that skip where nothing could be mounted. */
const disk = mounted as SmallDisk;

const re = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs with about `leave` bytes free on the small disk, then frees it again. */
async function withRoom<T>(leave: number, run: () => Promise<T>): Promise<T> {
  disk.fill(leave);
  try {
    return await run();
  } finally {
    disk.free();
  }
}

/** A fresh folder on the small disk. */
function folder(name: string): string {
  const d = path.join(disk.dir, name);
  fs.mkdirSync(d);
  return d;
}

const filesUnder = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { recursive: true }).map(String).sort() : []);

describe('writeAll: every byte, or the DISK error', () => {
  it('continues a write that took only part, in order, and names the file when the disk takes nothing', async () => {
    const got: number[] = [];
    // A handle that takes at most 3 bytes a call, as a nearly full disk takes what fits.
    const short = { write: async (b: Uint8Array, off: number, len: number) => (got.push(...b.subarray(off, off + Math.min(3, len))), { bytesWritten: Math.min(3, len) }) };
    await writeAll(short as unknown as FileHandle, 'hello, world', '/x/out.txt');
    expect(Buffer.from(got).toString()).toBe('hello, world');

    const full = { write: async () => ({ bytesWritten: 0 }) };
    const e = await writeAll(full as unknown as FileHandle, 'x', '/x/out.txt').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DiskError);
    expect((e as DiskError).message).toBe('Could not write /x/out.txt: the disk is full (ENOSPC).');
  });

  it.skipIf('skip' in mounted)('on a real nearly full disk: the sync and async forms both fail naming the file, after writing what fit', async () => {
    const d = folder('unit');
    for (const sync of [true, false]) {
      const file = path.join(d, `f-${sync}`);
      const fd = fs.openSync(file, 'wx');
      const e = await withRoom(8192, async () => {
        try {
          if (sync) writeAllSync(fd, Buffer.alloc(40_000, 0x61), file);
          else await writeAll(fd, Buffer.alloc(40_000, 0x61), file);
          return undefined;
        } catch (x) {
          return x;
        } finally {
          fs.closeSync(fd);
        }
      });
      expect(e, `sync: ${sync}`).toBeInstanceOf(DiskError);
      expect((e as DiskError).message).toBe(`Could not write ${file}: the disk is full (ENOSPC).`);
      expect(fs.statSync(file).size).toBeGreaterThan(0); // a short write did happen first
      fs.rmSync(file);
    }
  });
});

describe.skipIf('skip' in mounted)('events export --out on a nearly full disk', () => {
  it('exit 1 DISK naming the file and the command to run again, nothing at --out, no .part; that command then writes every event', async () => {
    // 8 events of some 6 KB each (about 50 KB of JSONL) in a store elsewhere.
    const cfg = tempDir();
    const store = await openStore(storeLocation(undefined, cfg), { create: true, configDir: cfg });
    const now = Date.now();
    await store.insert(Array.from({ length: 8 }, (_, i) => {
      const payload = { event: 'delivery', mail: { id: `m${i}`, subject: 'Hi', from: 'a@example.com', to: `p${i}@example.com`, content: 'x'.repeat(6000) }, delivery: { timestamp: now - 1000 } };
      return rowOf(payload, { id: `m${i}`, event: 'delivery', channel: 'email' }, now);
    }));
    await store.close();
    const dir = folder('export');
    const out = path.join(dir, 'events.jsonl');
    const args = ['events', 'export', '--since', '1d', '--format', 'jsonl', '--out', out, '--json'];
    const r = await withRoom(16384, () => runCli(args, { configDir: cfg }));
    expect(r.exitCode, r.stderr).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('DISK');
    expect(err.message).toBe(`Could not write ${out}: the disk is full (ENOSPC).`);
    expect(err.hint).toContain(`run the command again: mailctl ${args.map(shellQuote).join(' ')}`);
    expect(filesUnder(dir)).toEqual([]);

    const again = await runCli(args, { configDir: cfg });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
  });
});

describe.skipIf('skip' in mounted)('report files downloaded onto a nearly full disk', () => {
  let sn: string;
  beforeAll(async () => {
    // Enough people for report files of several pages each.
    [sn] = await finishedCampaigns(sb.get, 1, 300);
    await runCli(['report', 'export', sn, '--wait', '--json'], { sandbox: sb.get() });
  }, 30_000);

  /** The sandbox's own content of each report file. */
  async function served(): Promise<Record<string, string>> {
    const links = sandboxLinks(sb.get, sn);
    return Object.fromEntries(await Promise.all(TYPES.map(async (t) => [t, await (await fetch(links[t])).text()] as const)));
  }

  it('report links --out-dir: the file that did not fit is not saved under its name, nor claimed saved; the hinted command then saves every file whole', async () => {
    const content = await served();
    expect(Buffer.byteLength(content.delivery)).toBeGreaterThan(3 * 4096); // the disk's room below is less than this
    const dir = folder('links');
    const r = await withRoom(8192, () => runCli(['report', 'links', sn, '--out-dir', dir], { sandbox: sb.get(), env: { NO_COLOR: '1' } }));
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: Could not write ${re(dir)}/${sn}_(${TYPES.join('|')})\\.csv: the disk is full \\(ENOSPC\\)\\.`));
    const hinted = `mailctl report links ${sn} --out-dir ${shellQuote(dir)} --force`;
    expect(r.stderr).toContain(`Free some space on that disk, then save the files with: ${hinted}`);
    // Whatever is under a final name is whole, and it alone is said to be saved before.
    for (const name of filesUnder(dir)) {
      const type = /^.+_([a-z]+)\.csv$/.exec(name)?.[1];
      expect(type && TYPES.includes(type), name).toBe(true);
      expect(fs.readFileSync(path.join(dir, name), 'utf8'), name).toBe(content[type!]);
    }
    const failed = new RegExp(`Could not write ${re(dir)}/(${re(sn)}_[a-z]+\\.csv)`).exec(r.stderr)![1];
    expect(filesUnder(dir)).not.toContain(failed);
    expect(r.stderr).not.toMatch(new RegExp(`${re(failed)}[^\\n]*saved before`));

    const again = await runCli(hinted.split(' ').slice(1), { sandbox: sb.get() });
    expect(again.exitCode, again.stderr).toBe(0);
    for (const t of TYPES) expect(fs.readFileSync(path.join(dir, `${sn}_${t}.csv`), 'utf8')).toBe(content[t]);
  });

  it('report sync --out-dir: the file that did not fit is not in place nor recorded; the same command then completes the directory', async () => {
    const content = await served();
    const dir = path.join(disk.dir, 'sync');
    const args = ['report', 'sync', '--out-dir', dir, '--json'];
    // Four pages: the lock, the state (and its replacement), and less than a report file needs.
    const r = await withRoom(4 * 4096, () => runCli(args, { sandbox: sb.get() }));
    expect(r.exitCode, r.stderr).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('DISK');
    expect(err.message).toMatch(new RegExp(`^Could not write ${re(folderOf(sb.get, dir, sn))}/(${TYPES.join('|')})\\.csv: the disk is full \\(ENOSPC\\)\\.$`));
    expect(err.hint).toContain(`mailctl ${args.join(' ')}`);
    const folderFiles = filesUnder(folderOf(sb.get, dir, sn));
    const state = JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8'));
    const recorded = Object.keys(state.campaigns?.[sn]?.files ?? {});
    // Only whole files are in place, and every one recorded is one of them.
    for (const name of folderFiles) {
      expect(name).toMatch(/^[a-z]+\.csv$/);
      expect(fs.readFileSync(path.join(folderOf(sb.get, dir, sn), name), 'utf8'), name).toBe(content[name.replace('.csv', '')]);
    }
    for (const t of recorded) expect(folderFiles).toContain(`${t}.csv`);

    const again = await runCli(args, { sandbox: sb.get() });
    expect(again.exitCode, again.stderr).toBe(0);
    for (const t of TYPES) expect(fs.readFileSync(path.join(folderOf(sb.get, dir, sn), `${t}.csv`), 'utf8')).toBe(content[t]);
  });
});

describe.skipIf('skip' in mounted)('import --download-failures onto a nearly full disk', () => {
  it('the failure file is not saved cut short nor said saved: exit 1 DISK naming it, with the command that saves it', async () => {
    const h = hs.get();
    const failures = 'LINE,REASON,EMAIL\n' + Array.from({ length: 600 }, (_, i) => `${i + 2},EMAIL is not an address,not-an-address-${i}`).join('\n') + '\n';
    expect(failures.length).toBeGreaterThan(3 * 4096);
    h.on('GET', '/campaign/v1/contacts/imports/result/IM7', reply.json({ importSn: 'IM7', status: 'COMPLETE', fileCnt: 600, insertCnt: 0, duplicateCnt: 0, errCnt: 600, errorDownloadLink: `${h.url}/files/failures.csv` }));
    h.on('GET', '/files/failures.csv', reply.text(failures));
    const dir = folder('failures');
    const out = path.join(dir, 'failures.csv');
    const r = await withRoom(8192, () => runCli(['import', 'status', 'IM7', '--download-failures', out], { env: { ...h.env, NO_COLOR: '1' } }));
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error: Could not write ${out}: the disk is full (ENOSPC).`);
    expect(r.stderr).toContain(`Free some space on that disk, then save it with: mailctl import status IM7 --download-failures ${out}`);
    expect(r.stderr).not.toContain('Saved the service');
    expect(filesUnder(dir)).toEqual([]);

    const again = await runCli(['import', 'status', 'IM7', '--download-failures', out], { env: h.env });
    expect(again.stderr).toContain('Saved the service\'s failure file');
    expect(fs.readFileSync(out, 'utf8')).toBe(failures);
  });
});

describe.skipIf('skip' in mounted)('a page written with --out onto a full disk is a disk problem, not bad input', () => {
  it('campaign preview --out: exit 1 DISK naming the file, with the command to run again; nothing left', async () => {
    const dir = folder('preview');
    const out = path.join(dir, 'p.html');
    const args = ['campaign', 'preview', '--no-links', '--name', 'N', '--group', 'G', '--from', 'a@example.com', '--subject', 'Hi', '--html', `<p>${'x'.repeat(20_000)}</p>`, '--out', out, '--json'];
    const r = await withRoom(0, () => runCli(args));
    expect(r.exitCode, r.stderr).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err).toMatchObject({ code: 'DISK', message: `Could not write ${out}: the disk is full (ENOSPC).` });
    expect(err.hint).toContain(`run the command again: mailctl ${args.map(shellQuote).join(' ')}`);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('template show --out: exit 1 DISK naming the file; nothing left', async () => {
    const h = hs.get();
    h.on('GET', '/campaign/v1/templates/T1', reply.json({ id: 'T1', name: 'One', template: `<p>${'y'.repeat(20_000)}</p>` }));
    const dir = folder('template');
    const out = path.join(dir, 't.html');
    const r = await withRoom(8192, () => runCli(['template', 'show', 'T1', '--out', out, '--json'], { env: h.env }));
    expect(r.exitCode, r.stderr).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err).toMatchObject({ code: 'DISK', message: `Could not write ${out}: the disk is full (ENOSPC).` });
    expect(err.hint).toContain(`run the command again: mailctl template show T1 --out ${out} --json`);
    expect(filesUnder(dir)).toEqual([]);
  });
});

describe.skipIf('skip' in mounted)('webhook listen with its store on a full disk', () => {
  it('exit 1 DISK naming the store (the SQLite code beside it), with the command to run again', async () => {
    const dir = folder('store');
    const file = path.join(dir, 'events.db');
    const args = ['webhook', 'listen', '--port', '0', '--store', `sqlite:${file}`, '--json'];
    // Stopped, should it start listening after all (the test then fails on its exit code).
    const ac = new AbortController();
    const guard = setTimeout(() => ac.abort(), 10_000);
    const r = await withRoom(0, () => runCli(args, { env: { MAILCTL_NOTIFY_API_KEY: 'k' }, signal: ac.signal })).finally(() => clearTimeout(guard));
    expect(r.exitCode, r.stderr).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('DISK');
    expect(err.message).toMatch(new RegExp(`^Could not write ${re(file)}: the disk is full \\(ENOSPC; SQLITE_(FULL|IOERR[A-Z_]*)\\)\\.$`));
    expect(err.hint).toContain(`run the command again: mailctl ${args.map(shellQuote).join(' ')}`);
  });
});
