// Report downloads against a HOSTILE server (test/helpers/hostile-server.ts): the service
// chooses the report types (which become file names) and the links (which mailctl fetches). A
// name must not leave --out-dir DIR or break the write; a link must not reach the metadata service or
// another machine-local address, directly or by redirect; a symlink planted in DIR must not make
// mailctl write through it; a broken download must leave nothing behind; the key stays home.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { HOSTILE_KEYS, reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();
const CSV = 'email,time\nann@example.com,2026-01-01T00:00:00Z\n';

/** The service lists these links for CP1 (report types → link paths on the hostile server, or full URLs). */
function links(list: Array<[unknown, string]>): void {
  hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json(list.map(([reportType, l]) => ({ reportType, link: l.startsWith('/') ? hs.get().url + l : l, createdDate: '2026-01-01T00:00:00Z' }))));
  hs.get().on('GET', '/files/report.csv', reply.text(CSV));
}

/** A fresh parent folder with DIR inside, so anything written outside DIR is seen. */
function outDir(): { parent: string; dir: string } {
  const parent = tempDir('mailctl-hostile-');
  return { parent, dir: path.join(parent, 'out') };
}

const saveLinks = (dir: string, ...extra: string[]) => runCli(['report', 'links', 'CP1', '--out-dir', dir, ...extra], { env: hs.get().env });

describe('server-chosen report types as file names', () => {
  it('a traversal type stays inside DIR, and a type longer than a file name may be is cut', async () => {
    links([['../../../outside', '/files/report.csv'], ['x'.repeat(5000), '/files/report.csv']]);
    const { parent, dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.stderr).not.toContain('error');
    expect(r.exitCode).toBe(0);
    expect(fs.readdirSync(parent)).toEqual(['out']);
    expect(fs.readdirSync(dir).sort()).toEqual([`CP1_outside.csv`, `CP1_${'x'.repeat(80)}.csv`]);
    expect(fs.readFileSync(path.join(dir, 'CP1_outside.csv'), 'utf8')).toBe(CSV);
  });

  it('a type that is no name at all is refused (exit 1), nothing fetched or written', async () => {
    links([['delivery', '/files/report.csv'], ['../', '/files/report.csv']]);
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The service gave the report type "../", which cannot be made into a safe file name');
    expect(hs.get().requests.filter((q) => q.path.startsWith('/files/'))).toEqual([]);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });

  it('two types that come out as one name: neither is saved over the other', async () => {
    links([['delivery', '/files/report.csv'], ['/delivery', '/files/report.csv']]);
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('"delivery" and "/delivery", which would both be saved as CP1_delivery.csv');
    expect(hs.get().requests.filter((q) => q.path.startsWith('/files/'))).toEqual([]);
  });

  it('codes that reduce to one name (a/b, a_b) save into one DIR side by side, each its own files', async () => {
    const { dir } = outDir();
    for (const sn of ['a_b', 'a/b']) {
      hs.get().on('GET', `/campaign/v1/report/${encodeURIComponent(sn)}/link`, reply.json([{ reportType: 'delivery', link: `${hs.get().url}/files/${encodeURIComponent(sn)}.csv` }]));
      hs.get().on('GET', `/files/${encodeURIComponent(sn)}.csv`, reply.text(`email,code\nann@example.com,${sn}\n`));
      const r = await runCli(['report', 'links', sn, '--out-dir', dir], { env: hs.get().env });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    // a_b, already a safe name, keeps it; a/b had to change, and carries 8 hex of its sha256.
    const suffix = createHash('sha256').update('a/b').digest('hex').slice(0, 8);
    expect(fs.readdirSync(dir).sort()).toEqual([`a_b_${suffix}_delivery.csv`, 'a_b_delivery.csv']);
    expect(fs.readFileSync(path.join(dir, 'a_b_delivery.csv'), 'utf8')).toContain(',a_b');
    expect(fs.readFileSync(path.join(dir, `a_b_${suffix}_delivery.csv`), 'utf8')).toContain(',a/b');
  });

  it('escape sequences in a type never reach the terminal', async () => {
    links([['\u001b]0;pwned\u0007\u001b[2J', '/files/gone.csv']]);
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('answered HTTP 404');
    expect(r.stderr).toContain('\\e]0;pwned\\x07');
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('\u0007');
  });
});

describe('symlinks planted in --out-dir DIR', () => {
  it('a link at the final name to an existing file is never written through: refused, and --force replaces the link itself', async () => {
    links([['delivery', '/files/report.csv']]);
    const { parent, dir } = outDir();
    fs.mkdirSync(dir);
    const victims = path.join(parent, 'victims');
    fs.mkdirSync(victims);
    const victim = path.join(victims, 'authorized_keys');
    fs.writeFileSync(victim, 'precious\n');
    const planted = path.join(dir, 'CP1_delivery.csv');
    fs.symlinkSync(victim, planted);

    const refused = await saveLinks(dir);
    expect(refused.exitCode).toBe(2);
    expect(fs.readlinkSync(planted)).toBe(victim);

    const forced = await saveLinks(dir, '--force');
    expect(forced.exitCode).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.readdirSync(victims)).toEqual(['authorized_keys']); // nothing created beside it either
    expect(fs.lstatSync(planted).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(planted, 'utf8')).toBe(CSV);
    expect(fs.readdirSync(dir)).toEqual(['CP1_delivery.csv']); // no temporary file left
  });

  it('a link that appears at the final name while the file downloads is kept, not replaced (no --force)', async () => {
    const { parent, dir } = outDir();
    const victim = path.join(parent, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const planted = path.join(dir, 'CP1_delivery.csv');
    links([['delivery', '/files/late.csv']]);
    // The attacker plants the link after mailctl checked the folder, before the file lands.
    hs.get().on('GET', '/files/late.csv', (res) => {
      fs.symlinkSync(victim, planted);
      reply.text(CSV)(res, undefined as never, undefined as never);
    });
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/appeared while downloading, so the download was not saved and nothing was overwritten/);
    expect(fs.readlinkSync(planted)).toBe(victim);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.readdirSync(dir)).toEqual(['CP1_delivery.csv']);
  });

  it('a link at the final name, even one pointing nowhere, counts as a file already there; --force replaces the link itself', async () => {
    links([['delivery', '/files/report.csv']]);
    const { parent, dir } = outDir();
    fs.mkdirSync(dir);
    const victim = path.join(parent, 'not-yet.txt');
    const planted = path.join(dir, 'CP1_delivery.csv');
    fs.symlinkSync(victim, planted);
    const refused = await saveLinks(dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${planted} already exists`);

    const forced = await saveLinks(dir, '--force');
    expect(forced.exitCode).toBe(0);
    expect(fs.existsSync(victim)).toBe(false);
    expect(fs.lstatSync(planted).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(planted, 'utf8')).toBe(CSV);
  });

  it('downloaded files are private (0600)', async () => {
    links([['delivery', '/files/report.csv']]);
    const { dir } = outDir();
    expect((await saveLinks(dir)).exitCode).toBe(0);
    expect(fs.statSync(path.join(dir, 'CP1_delivery.csv')).mode & 0o777).toBe(0o600);
  });
});

describe('where download links may point', () => {
  const port = () => new URL(hs.get().url).port;

  it.each([
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'a cloud metadata address'],
    ['the metadata service, written as a number', () => 'http://2852039166/latest/meta-data/', 'a cloud metadata address'],
    ['the IPv6 metadata address', () => 'http://[fd00:ec2::254]/latest/meta-data/', 'a cloud metadata address'],
    ['the metadata service by name', () => 'http://metadata.google.internal/computeMetadata/v1/', 'a cloud metadata service'],
    ['a link-local address', () => 'http://169.254.10.20/x', 'a link-local address'],
    ['an IPv6 link-local address', () => 'http://[fe80::1]/x', 'a link-local address'],
    ['0.0.0.0 (which reaches this machine)', () => `http://0.0.0.0:${port()}/files/report.csv`, 'an unspecified address'],
  ])('a link to %s is refused, exit 1, nothing saved', async (_name, link, why) => {
    links([['delivery', link()]]);
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`The link to the delivery file points at`);
    expect(r.stderr).toContain(why);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    expect(hs.get().requests.filter((q) => q.path.startsWith('/files/'))).toEqual([]);
  });

  it.each([
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254, a cloud metadata address'],
    ['a link-local address', 'http://[fe80::a9fe:a9fe]/x', 'fe80::a9fe:a9fe, a link-local address'],
    ['0.0.0.0', 'http://0.0.0.0:PORT/files/report.csv', '0.0.0.0, an unspecified address'],
  ])('a redirect from the file host to %s is not followed', async (_name, to, said) => {
    links([['delivery', '/files/hop1']]);
    hs.get().on('GET', '/files/hop1', reply.redirect('/files/hop2', 307));
    hs.get().on('GET', '/files/hop2', reply.redirect(to.replace('PORT', port())));
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`The link to the delivery file redirected from ${hs.get().url} to ${said}; mailctl does not follow it.`);
    expect(hs.get().requests.map((q) => q.path)).toEqual(['/campaign/v1/report/CP1/link', '/files/hop1', '/files/hop2']);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });

  it('redirects between allowed addresses are followed, up to 5', async () => {
    links([['delivery', '/files/r0'], ['open', '/files/loop']]);
    for (let i = 0; i < 5; i++) hs.get().on('GET', `/files/r${i}`, reply.redirect(i === 4 ? '/files/report.csv' : `/files/r${i + 1}`));
    hs.get().on('GET', '/files/loop', reply.redirect('/files/loop'));
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(fs.readFileSync(path.join(dir, 'CP1_delivery.csv'), 'utf8')).toBe(CSV);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`The link to the open file at ${hs.get().url} redirected more than 5 times; mailctl stopped following.`);
    expect(hs.get().requests.filter((q) => q.path === '/files/loop')).toHaveLength(6);
    expect(fs.existsSync(path.join(dir, 'CP1_open.csv'))).toBe(false);
  });

  it('neither the link nor any redirect gets the API key', async () => {
    links([['delivery', '/files/r0']]);
    hs.get().on('GET', '/files/r0', reply.redirect('/files/report.csv'));
    const { dir } = outDir();
    expect((await saveLinks(dir)).exitCode).toBe(0);
    const files = hs.get().requests.filter((q) => q.path.startsWith('/files/'));
    expect(files.map((q) => q.path)).toEqual(['/files/r0', '/files/report.csv']);
    for (const q of files) {
      expect(q.headers['x-api-key']).toBeUndefined();
      expect(JSON.stringify(q.headers)).not.toContain(HOSTILE_KEYS.campaign);
    }
    // …while the API itself did get it.
    expect(hs.get().requests[0].headers['x-api-key']).toBe(HOSTILE_KEYS.campaign);
  });
});

describe('big answers', () => {
  it('a big file arrives whole, streamed to disk', async () => {
    links([['delivery', '/files/big.csv']]);
    hs.get().on('GET', '/files/big.csv', reply.huge(8 * 1024 * 1024 + 17, 'text/csv', 'a'));
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(0);
    expect(fs.statSync(path.join(dir, 'CP1_delivery.csv')).size).toBe(8 * 1024 * 1024 + 17);
  });

  it('an API answer far larger than any real one is not read to the end (exit 1)', async () => {
    hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.huge(40 * 1024 * 1024));
    const r = await saveLinks(outDir().dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('with more than 32 MiB');
  });
});

describe('a download that breaks off', () => {
  it('a body cut short: exit 4, and neither the file nor a temporary file is left', async () => {
    links([['delivery', '/files/cut.csv']]);
    hs.get().on('GET', '/files/cut.csv', reply.truncated('email\nann@example.com\n', 100_000));
    const { dir } = outDir();
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('Cannot download the delivery file from');
    expect(r.stderr).toContain('nothing was saved');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a host that stops sending: given up after the time-out (exit 4), nothing left', async () => {
    links([['delivery', '/files/slow.csv']]);
    hs.get().on('GET', '/files/slow.csv', (res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('email\n'); // …and nothing more
    });
    const { dir } = outDir();
    const r = await runCli(['report', 'links', 'CP1', '--out-dir', dir], { env: hs.get().env, tuning: { timeoutMs: 1000 } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('nothing arrived for 1 s');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a download bounded by the run\'s --timeout, and what a killed run left (issue 19 item 7)', () => {
  it('report links --out-dir: a file that trickles in steadily ends at --timeout (exit 4), nothing saved, nothing left', async () => {
    hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json({ Reports: [{ reportType: 'delivery', link: `${hs.get().url}/files/slow.csv`, createdDate: '2026-01-01T00:00:00Z' }] }));
    // A line every 50 ms for 5 s: never quiet, never under any throughput floor worth the name.
    hs.get().on('GET', '/files/slow.csv', reply.trickle({ head: 'email\n', drip: 'ann@example.com\n', everyMs: 50, forMs: 5000, contentType: 'text/csv' }));
    const { dir } = outDir();
    const t0 = Date.now();
    const r = await runCli(['report', 'links', 'CP1', '--out-dir', dir, '--timeout', '500ms', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'TIMEOUT' });
    expect(r.stderr).toContain('did not finish within 0.5 s; nothing was saved');
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('report links --timeout without --out-dir is a usage error (exit 2), nothing read', async () => {
    const r = await runCli(['report', 'links', 'CP1', '--timeout', '5s'], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(hs.get().requests).toEqual([]);
  });

  it('the next run removes the .part a killed run left beside its files, and nothing else', async () => {
    links([['delivery', '/files/report.csv']]);
    const { dir } = outDir();
    fs.mkdirSync(dir);
    const left = path.join(dir, '.CP1_delivery.csv.0123456789ab.part');
    const otherCampaign = path.join(dir, '.CP2_delivery.csv.0123456789ab.part');
    const mine = path.join(dir, 'notes.part');
    for (const f of [left, otherCampaign, mine]) fs.writeFileSync(f, 'half a file');
    const r = await saveLinks(dir);
    expect(r.exitCode).toBe(0);
    expect(fs.existsSync(left)).toBe(false);
    expect(fs.existsSync(otherCampaign)).toBe(true);
    expect(fs.existsSync(mine)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'CP1_delivery.csv'), 'utf8')).toBe(CSV);
  });
});
