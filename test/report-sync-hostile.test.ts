// `mailctl report sync` against a HOSTILE service (test/helpers/hostile-server.ts), with campaign
// codes the sandbox never makes: codes that reduce to the same safe name (`a/b`, `a_b`) keep
// their own folders; codes named like Object's own properties (`constructor`, `__proto__`) sync
// like any other; a file where a campaign's folder should be fails that campaign alone, in one
// sentence, before its export is requested. And a state file whose campaigns are damaged is
// refused in one sentence rather than failing as a bug.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer, type Seen } from './helpers/hostile-server.js';
import { TYPES } from './helpers/report-sync.js';

const hs = useHostileServer();
const FINISHED = '2026-01-01T10:00:00Z';

/** The service lists `codes` as finished on 2026-01-01; each file holds its campaign's code, so a mix-up shows. */
function serve(codes: string[]): void {
  const h = hs.get();
  h.on('GET', '/campaign/v1/report/campaigns', reply.json(codes.map((sn) => ({ sn, name: `Name of ${sn}`, sentBeginDate: '2026-01-01T09:00:00Z', sentEndDate: FINISHED }))));
  h.on('POST', /^\/campaign\/v1\/report\/[^/]+\/export$/, reply.json({ message: 'success' }));
  h.on('GET', /^\/campaign\/v1\/report\/[^/]+\/link$/, (res, seen) => {
    const sn = codeIn(seen);
    reply.json({ Reports: TYPES.map((t) => ({ reportType: t, link: `${h.url}/files/${encodeURIComponent(sn)}/${t}.csv`, createdDate: FINISHED })) })(res, seen, undefined as never);
  });
  // The dashboard's metrics: a TOTAL row for each code asked, named like the listing names it.
  h.on('POST', '/campaign/v1/report/campaigns/metrics', (res, seen) => {
    const asked = (JSON.parse(seen.body).campaignSns as string[]);
    reply.json(asked.map((sn) => ({ campaignSn: sn, name: `Name of ${sn}`, channel: 'MAIL', reportType: 'TOTAL', recipientCnt: 10, delivered: 9, bounced: 1, opened: 3, clicked: 1, complained: 0, unsubscribed: 0 })))(res, seen, undefined as never);
  });
  h.on('GET', /^\/files\//, (res, seen) => {
    const [, , sn, file] = seen.path.split('/');
    reply.text(csvOf(decodeURIComponent(sn), file.replace(/\.csv$/, '')))(res, seen, undefined as never);
  });
}

const codeIn = (seen: Seen) => decodeURIComponent(seen.path.split('/')[4]);
const csvOf = (sn: string, type: string) => `email,campaign,type\nann@example.com,${JSON.stringify(sn)},${type}\n`;
const sha8 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
const sync = (dir: string, ...extra: string[]) => runCli(['report', 'sync', '--out-dir', dir, '--since', '2025-12-01', ...extra], { env: hs.get().env });
const exportsSent = () => hs.get().requests.filter((q) => q.method === 'POST' && q.path.endsWith('/export')).map(codeIn);
const downloads = () => hs.get().requests.filter((q) => q.path.startsWith('/files/'));
const manifest = (dir: string) => parse(fs.readFileSync(path.join(dir, 'manifest.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;

/** Each campaign's six files are in `folder` and hold that campaign's data; the manifest lists them once. */
function expectSynced(dir: string, folders: Record<string, string>): void {
  const rows = manifest(dir);
  expect(rows).toHaveLength(Object.keys(folders).length * 6);
  expect(new Set(rows.map((r) => r.path)).size).toBe(rows.length);
  for (const [sn, folder] of Object.entries(folders)) {
    for (const t of TYPES) {
      expect(fs.readFileSync(path.join(dir, folder, `${t}.csv`), 'utf8'), `${sn} ${t}`).toBe(csvOf(sn, t));
      expect(rows.find((r) => r.code === sn && r.type === t)?.path).toBe(`${folder}/${t}.csv`);
    }
  }
}

describe('report sync: codes that reduce to the same file name', () => {
  it('a/b and a_b keep their own folders (a changed name gets a suffix from the code); a second run downloads nothing', async () => {
    serve(['a/b', 'a_b', 'CP1']);
    const dir = tempDir('mailctl-sync-names-');
    const r = await sync(dir, '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    // Codes already safe keep the folder they always had; a/b is told apart by 8 hex of its sha256.
    const folders = { 'a/b': `2026-01-01_a_b_${sha8('a/b')}`, a_b: '2026-01-01_a_b', CP1: '2026-01-01_CP1' };
    expectSynced(dir, folders);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('2026')).sort()).toEqual(Object.values(folders).sort());

    hs.get().requests.length = 0;
    const again = await sync(dir, '--json');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(exportsSent()).toEqual([]);
    expect(downloads()).toEqual([]);
    expect(JSON.parse(again.stdout).campaigns).toMatchObject({ downloaded: 0, alreadyComplete: 3 });
  });
});

describe('report sync: codes named like Object properties', () => {
  it('constructor and __proto__ sync beside CP1 (exit 0), and a second run is idempotent', async () => {
    const codes = ['constructor', '__proto__', 'CP1'];
    serve(codes);
    const dir = tempDir('mailctl-sync-proto-');
    const r = await sync(dir, '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(exportsSent().sort()).toEqual([...codes].sort());
    // ['__proto__'] (computed): a literal `__proto__:` would set the object's prototype instead.
    expectSynced(dir, { constructor: '2026-01-01_constructor', ['__proto__']: `2026-01-01_proto___${sha8('__proto__')}`, CP1: '2026-01-01_CP1' });
    const state = JSON.parse(fs.readFileSync(path.join(dir, '.mailctl-sync.json'), 'utf8'));
    expect(Object.keys(state.campaigns).sort()).toEqual([...codes].sort());
    expect(Object.keys(state.campaigns.__proto__.files).sort()).toEqual([...TYPES].sort());

    hs.get().requests.length = 0;
    const again = await sync(dir, '--json');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(exportsSent()).toEqual([]);
    expect(downloads()).toEqual([]);
    expect(JSON.parse(again.stdout).campaigns).toMatchObject({ downloaded: 0, alreadyComplete: 3, failed: [] });
  });
});

describe('report sync: something in the way of a campaign folder', () => {
  it('a file there: that campaign fails in one sentence before its export is requested (exit 5); the others sync', async () => {
    serve(['CPA', 'CPB']);
    const dir = tempDir('mailctl-sync-inway-');
    fs.writeFileSync(path.join(dir, '2026-01-01_CPA'), 'mine');
    const r = await sync(dir, '--json');
    expect(r.exitCode, r.stderr).toBe(5);
    expect(exportsSent()).toEqual(['CPB']);
    const failed = JSON.parse(r.stdout).campaigns.failed;
    expect(failed).toEqual([expect.objectContaining({ sn: 'CPA', code: 'FAILED' })]);
    expect(failed[0].message).toBe(`${path.join(dir, '2026-01-01_CPA')} is a file, where report sync keeps the files of campaign CPA in a folder; move it away and run again.`);
    expect(r.stderr).not.toContain('EEXIST');
    expect(fs.readFileSync(path.join(dir, '2026-01-01_CPA'), 'utf8')).toBe('mine');
    expectSynced(dir, { CPB: '2026-01-01_CPB' });
  });
});

describe('report sync: a damaged state file', () => {
  it.each([
    ['a campaign that is not a record', { CP1: null }],
    ['a campaign without files', { CP1: { name: 'x', sentEndDate: FINISHED } }],
  ])('%s: exit 1 in one sentence saying what to do, nothing sent', async (_what, campaigns) => {
    serve(['CP1']);
    const dir = tempDir('mailctl-sync-damaged-');
    fs.writeFileSync(path.join(dir, '.mailctl-sync.json'), JSON.stringify({ version: 1, campaigns }));
    const r = await sync(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${path.join(dir, '.mailctl-sync.json')} is not a state file of mailctl report sync (damaged or from another program).`);
    expect(r.stderr).toContain('Move it away and run again');
    expect(r.stderr).not.toContain('bug in mailctl');
    expect(hs.get().requests).toEqual([]);
  });
});

describe('report sync: downloads bounded by --timeout, and what a killed run left (issue 19 item 7)', () => {
  it('a file that trickles in steadily fails its campaign at --timeout (the lock is not held for hours)', async () => {
    serve(['CP1']);
    // One of the six files trickles: a line every 50 ms for 5 s.
    hs.get().on('GET', '/files/CP1/open.csv', reply.trickle({ head: 'email\n', drip: 'ann@example.com\n', everyMs: 50, forMs: 5000, contentType: 'text/csv' }));
    const dir = tempDir('mailctl-sync-slow-');
    const t0 = Date.now();
    const r = await sync(dir, '--timeout', '500ms', '--json');
    expect(r.exitCode).not.toBe(0);
    expect(Date.now() - t0).toBeLessThan(4500);
    const doc = JSON.parse(r.stdout);
    expect(JSON.stringify(doc)).toContain('did not finish within 0.5 s');
    const folder = path.join(dir, '2026-01-01_CP1');
    expect(fs.readdirSync(folder).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('the next run removes the download files a killed run left in a campaign folder, and nothing else', async () => {
    serve(['CP1']);
    const dir = tempDir('mailctl-sync-left-');
    const folder = path.join(dir, '2026-01-01_CP1');
    fs.mkdirSync(folder, { recursive: true });
    const left = ['.delivery.csv.0123456789ab.download', '..delivery.csv.0123456789ab.download.abcdef012345.part'].map((n) => path.join(folder, n));
    const kept = path.join(folder, 'my-notes.download');
    for (const f of [...left, kept]) fs.writeFileSync(f, 'half a file');
    const r = await sync(dir, '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    for (const f of left) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(kept)).toBe(true);
    expectSynced(dir, { CP1: '2026-01-01_CP1' });
  });
});
