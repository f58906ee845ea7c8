// What `mailctl import` leaves on disk (issue 9 items 7 and 9): working files only under the
// config folder and only while needed, what a dead run left removed by the next, the rejects
// file whole or not at all, an out-of-date one removed (and said), and a dry run that writes
// nothing unless --rejects names a file.
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, groupWith, IMPORT_BY_TEXT, IMPORT_BY_FILE } from './helpers/campaign-api.js';
import { until } from './helpers/wait.js';

const sb = useSandbox({
  expect: [
    ...IMPORT_BY_TEXT,
    ...IMPORT_BY_FILE,
  ],
});
const api = campaignApi(sb.get);

/** An empty group (the fixture's own request, plain HTTP). */
const newGroup = (name: string): Promise<string> => groupWith(api, [], name);

const rows = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com,Person ${i}`);

/** Every file under `dir` (recursively) with its content hash, mode and mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) walk(p);
      out[path.relative(dir, p)] = st.isFile() ? `${crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')} ${st.mode} ${st.mtimeMs}` : `${st.mode}`;
    }
  };
  walk(dir);
  return out;
}

/** A process number that is certainly not running any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('working files live under the config folder, and only while needed', () => {
  it('the cleaned copy is under <config>/work while the upload runs, and gone when the run is interrupted', async () => {
    const configDir = tempDir();
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, ['EMAIL,NAME', ...rows(150, 'w')].join('\n'));
    const sn = await newGroup('Work');
    sb.get().sandbox.injectFault({ kind: 'hang', match: { service: 'files', method: 'PUT' } });
    const ac = new AbortController();
    const run = runCli(['import', file, '--group', sn, '--no-wait'], { sandbox: sb.get(), configDir, signal: ac.signal });
    const work = path.join(configDir, 'work');
    await until('the upload in flight', () => sb.get().sandbox.requests('files').some((q) => q.method === 'PUT' && q.status === -1));
    const held = fs.readdirSync(work);
    expect(held).toHaveLength(1);
    const copy = path.join(work, held[0], 'contacts.csv');
    expect(fs.readFileSync(copy, 'utf8').split('\n')[1]).toBe('w0@example.com,Person 0');
    expect(fs.statSync(path.dirname(copy)).mode & 0o777).toBe(0o700);
    ac.abort();
    expect((await run).exitCode).toBe(130);
    expect(fs.readdirSync(work)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['c.csv']);
  });

  it('the next import removes what a dead run left: its folder and the temporary rejects file it listed, nothing else', async () => {
    const configDir = tempDir();
    const work = path.join(configDir, 'work');
    const dir = tempDir();
    const other = tempDir();
    // A dead run: its copy of the contacts, and a half-written rejects file beside its target.
    const dead = path.join(work, `import-${deadPid()}-0123456789ab`);
    fs.mkdirSync(dead, { recursive: true });
    fs.writeFileSync(path.join(dead, 'contacts.csv'), 'EMAIL,NAME\nsecret@example.com,S\n');
    const partial = path.join(dir, '.old.rejects.csv.0123456789ab.part');
    fs.writeFileSync(partial, 'LINE,REASON,EMAIL,NAME\n2,half');
    const notOurs = path.join(other, 'notes.txt'); // listed, but not named like a temporary file
    fs.writeFileSync(notOurs, 'keep');
    fs.writeFileSync(path.join(dead, 'owned-temp-files'), `${partial}\n${notOurs}\n`);
    // A live run's folder (this test's parent process) stays; one too old to be live goes.
    const live = path.join(work, `import-${process.ppid}-aaaaaaaaaaaa`);
    fs.mkdirSync(live);
    const old = path.join(work, `import-${process.ppid}-bbbbbbbbbbbb`);
    fs.mkdirSync(old);
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);
    fs.utimesSync(old, threeDaysAgo, threeDaysAgo);

    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nnew@example.com,N\n');
    const r = await runCli(['import', file, '--group', await newGroup('Stale'), '--no-wait'], { sandbox: sb.get(), configDir });
    expect(r.exitCode).toBe(0);
    expect(fs.readdirSync(work)).toEqual([path.basename(live)]);
    expect(fs.existsSync(partial)).toBe(false);
    expect(fs.readFileSync(notOurs, 'utf8')).toBe('keep');
  });
});

describe('the rejects file is whole or absent', () => {
  it('interrupted mid-check: no rejects file under the real name, no temporary file beside it, an older one untouched', async () => {
    const configDir = tempDir();
    const cwd = tempDir();
    const rejects = path.join(cwd, 'r.csv');
    fs.writeFileSync(rejects, 'LINE,REASON,EMAIL,NAME\n2,from before,x,y\n');
    const before = snapshot(cwd);
    const stdin = new PassThrough();
    // Enough rejected rows that some reach the disk before the input ends (it never does here).
    stdin.write(['EMAIL,NAME', ...Array.from({ length: 60_000 }, (_, i) => `bad-${i},B`)].join('\n') + '\n');
    const ac = new AbortController();
    const run = runCli(['import', '-', '--group', 'G', '--rejects', rejects], { sandbox: sb.get(), configDir, stdin, signal: ac.signal });
    const work = path.join(configDir, 'work');
    // Wait until rows are being rejected into the temporary file, then interrupt.
    await until('rejected rows on disk', () => fs.readdirSync(cwd).some((n) => n !== 'r.csv' && fs.statSync(path.join(cwd, n)).size > 0) || fs.readFileSync(rejects, 'utf8').length < 40 || !fs.readFileSync(rejects, 'utf8').includes('from before'));
    ac.abort();
    stdin.write('more@example.com,M\n');
    expect((await run).exitCode).toBe(130);
    expect(snapshot(cwd)).toEqual(before);
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('a clean run removes the out-of-date rejects file of an earlier run and says so; a file that is not one stays', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'list.csv');
    const rejects = path.join(dir, 'list.rejects.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nbad,B\nok@example.com,O\n');
    const sn = await newGroup('Fixed later');
    expect((await runCli(['import', file, '--group', sn, '--wait'], { sandbox: sb.get() })).exitCode).toBe(5);
    expect(fs.readFileSync(rejects, 'utf8')).toMatch(/^LINE,REASON/);

    fs.writeFileSync(file, 'EMAIL,NAME\nfixed@example.com,B\nok@example.com,O\n');
    const clean = await runCli(['import', file, '--group', sn, '--wait', '--json'], { sandbox: sb.get() });
    expect(clean.exitCode).toBe(0);
    expect(fs.existsSync(rejects)).toBe(false);
    expect(clean.stderr).toContain(`the rejects file of an earlier run is out of date and was removed: ${rejects}`);
    expect(JSON.parse(clean.stdout)).toMatchObject({ rejectsPath: null, removedRejects: rejects }); // a script is told too

    fs.writeFileSync(rejects, 'my own notes\n');
    const again = await runCli(['import', file, '--group', sn, '--wait'], { sandbox: sb.get() });
    expect(again.exitCode).toBe(0);
    expect(fs.readFileSync(rejects, 'utf8')).toBe('my own notes\n');
    expect(again.stderr).not.toContain('was removed');
    expect(JSON.parse((await runCli(['import', file, '--group', sn, '--wait', '--json'], { sandbox: sb.get() })).stdout).removedRejects).toBeNull();
    expect(fs.readdirSync(dir).sort()).toEqual(['list.csv', 'list.rejects.csv']);
  });
});

describe('a dry run writes nothing (issue 9 item 7)', () => {
  it('no file in the input folder or the config folder changes, and the rejects are still counted by reason', async () => {
    const configDir = tempDir();
    // 0600, as mailctl keeps it: a wider one is tightened by every run, dry or not, like the folder.
    fs.writeFileSync(path.join(configDir, 'config.json'), '{}', { mode: 0o600 });
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, ['EMAIL,NAME', ...rows(3, 'd'), 'bad,B', 'D0@example.com,again'].join('\r\n'));
    fs.writeFileSync(path.join(dir, 'c.rejects.csv'), 'LINE,REASON,EMAIL,NAME\n9,older run,x,y\n');
    const before = { dir: snapshot(dir), config: snapshot(configDir) };
    const r = await runCli(['import', file, '--group', 'G', '--dry-run', '--json'], { configDir });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.local).toMatchObject({ read: 5, valid: 3, rejected: 2, rejectedBy: { 'invalid-email': 1, 'duplicate-email': 1 } });
    expect(doc.rejectsPath).toBeNull();
    const strict = await runCli(['import', file, '--group', 'G', '--dry-run', '--strict'], { configDir });
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('add --rejects FILE to list the rejected rows');
    expect({ dir: snapshot(dir), config: snapshot(configDir) }).toEqual(before);
  });

  it('--rejects FILE on a dry run writes that file (it was asked for), and only that file', async () => {
    const configDir = tempDir();
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nbad,B\n');
    const out = path.join(dir, 'out.csv');
    const r = await runCli(['import', file, '--group', 'G', '--dry-run', '--rejects', out], { configDir });
    expect(r.exitCode).toBe(2); // its only row is rejected: a real run would send nothing
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^LINE,REASON,EMAIL,NAME\n2,/);
    expect(fs.readdirSync(dir).sort()).toEqual(['c.csv', 'out.csv']);
    expect(fs.readdirSync(configDir)).toEqual([]); // no work folder: the temporary file was known to the run alone
  });

  it('--rejects FILE on a dry run of a file with no rejected rows: the older rejects file stays, and no folder, copy or cleanup happens', async () => {
    const configDir = tempDir();
    // 0600, as mailctl keeps it: a wider one is tightened by every run, dry or not, like the folder.
    fs.writeFileSync(path.join(configDir, 'config.json'), '{}', { mode: 0o600 });
    // What a dead run left: a real run would clean it up; a dry run must not touch it.
    const dead = path.join(configDir, 'work', `import-${deadPid()}-0123456789ab`);
    fs.mkdirSync(dead, { recursive: true });
    fs.writeFileSync(path.join(dead, 'contacts.csv'), 'EMAIL,NAME\nsecret@example.com,S\n');
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, ['EMAIL,NAME', ...rows(3, 'clean')].join('\n'));
    const out = path.join(dir, 'out.csv');
    fs.writeFileSync(out, 'LINE,REASON,EMAIL,NAME\n2,an earlier run,x,y\n');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(dir, old, old);
    fs.utimesSync(path.dirname(dead), old, old);
    const before = { dir: snapshot(dir), dirMtime: fs.statSync(dir).mtimeMs, config: snapshot(configDir), workMtime: fs.statSync(path.dirname(dead)).mtimeMs };
    const r = await runCli(['import', file, '--group', 'G', '--dry-run', '--rejects', out, '--json'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dryRun: true, rejectsPath: null, outOfDateRejects: out, local: { read: 3, valid: 3, rejected: 0 } });
    expect(r.stderr).toContain(`out of date (a real run removes it; the dry run left it): ${out}`);
    expect({ dir: snapshot(dir), dirMtime: fs.statSync(dir).mtimeMs, config: snapshot(configDir), workMtime: fs.statSync(path.dirname(dead)).mtimeMs }).toEqual(before);
  });
});
