// `import` on a full disk (a tiny tmpfs, test/helpers/small-disk.ts; needs root to mount, skips
// saying so where it cannot): the rejects file or the cleaned copy cannot be written. The run
// names the disk problem and the file (exit 1, code DISK; never "a bug"), sends nothing, leaves
// no temporary file, and hints the same command, which completes once there is room.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, groupWith, IMPORT_BY_TEXT } from './helpers/campaign-api.js';
import { smallDisk, type SmallDisk } from './helpers/small-disk.js';
import { shellQuote } from '../src/core/suggest.js';

const sb = useSandbox({ expect: IMPORT_BY_TEXT });
const api = campaignApi(sb.get);

const mounted = smallDisk(1024 * 1024);
afterAll(() => ('unmount' in mounted ? mounted.unmount() : undefined));
/** Used only inside the describe that skips where nothing could be mounted. */
const disk = mounted as SmallDisk;

const imports = () => sb.get().sandbox.requests('campaign').filter((r) => r.path.startsWith('/v1/contacts/imports/'));

/** 40 contacts, every other one with an address that is rejected. */
function contacts(prefix: string): string {
  const file = path.join(tempDir(), 'c.csv');
  fs.writeFileSync(file, ['EMAIL,NAME', ...Array.from({ length: 40 }, (_, i) => (i % 2 ? `${prefix}${i}@example.com,Person ${i}` : `not-an-address-${i},Person ${i}`))].join('\n'));
  return file;
}

async function onFullDisk<T>(run: () => Promise<T>): Promise<T> {
  disk.fill(0);
  try {
    return await run();
  } finally {
    disk.free();
  }
}

const filesUnder = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { recursive: true }).map(String) : []);

describe.skipIf('skip' in mounted)('import on a full disk', () => {
  it('the rejects file cannot be written: exit 1 DISK naming it, nothing sent, no temporary file; the same command then imports', async () => {
    const file = contacts('rj');
    await groupWith(api, [], 'Disk rejects');
    const out = path.join(disk.dir, 'rejects');
    fs.mkdirSync(out);
    const rejects = path.join(out, 'rejects.csv');
    const args = ['import', file, '--group', 'Disk rejects', '--rejects', rejects, '--no-wait'];
    const before = imports().length;
    const r = await onFullDisk(() => runCli([...args, '--json'], { sandbox: sb.get() }));
    expect(r.exitCode).toBe(1);
    const err = JSON.parse(r.stdout).error;
    expect(err).toMatchObject({ code: 'DISK', message: `Could not write ${rejects}: the disk is full (ENOSPC).` });
    expect(err.hint).toBe(`Nothing was sent. Free some space on that disk, then run the command again: mailctl ${args.map(shellQuote).join(' ')} --json`);
    expect(imports()).toHaveLength(before);
    expect(filesUnder(out)).toEqual([]);

    // Exit 5: 20 rows imported, 20 rejected (and listed).
    const again = await runCli(args, { sandbox: sb.get() });
    expect(again.exitCode, again.stderr).toBe(5);
    expect(again.stderr).toContain('started: 20 rows sent');
    expect(imports().length).toBeGreaterThan(before);
    expect(fs.readFileSync(rejects, 'utf8').trimEnd().split('\n')).toHaveLength(21); // the header and 20 rejected rows
  });

  it('the cleaned copy cannot be written (the config folder is full): exit 1 DISK naming it, nothing sent, the work folder removed; the same command then imports', async () => {
    const file = contacts('cl');
    await groupWith(api, [], 'Disk cleaned');
    const configDir = path.join(disk.dir, 'config');
    fs.mkdirSync(configDir, { mode: 0o700 });
    const rejects = path.join(tempDir(), 'rejects.csv');
    const args = ['import', file, '--group', 'Disk cleaned', '--rejects', rejects, '--no-wait'];
    const before = imports().length;
    const r = await onFullDisk(() => runCli(args, { sandbox: sb.get(), configDir }));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: Could not write ${configDir}/work/import-\\d+-[0-9a-f]+/contacts\\.csv: the disk is full \\(ENOSPC\\)\\.`));
    expect(r.stderr).toContain(`Nothing was sent. Free some space on that disk, then run the command again: mailctl ${args.map(shellQuote).join(' ')}`);
    expect(r.stderr).not.toContain('bug in mailctl');
    expect(imports()).toHaveLength(before);
    expect(filesUnder(path.join(configDir, 'work'))).toEqual([]);
    expect(fs.existsSync(rejects)).toBe(false);

    const again = await runCli(args, { sandbox: sb.get(), configDir });
    expect(again.exitCode, again.stderr).toBe(5);
    expect(again.stderr).toContain('started: 20 rows sent');
    expect(imports().length).toBeGreaterThan(before);
  });
});
