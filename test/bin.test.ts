// The built CLI as a user runs it (bin/mailctl.js): a real process, real exit codes, stdout a
// pipe (so output is TSV), --sandbox working offline with its state kept under
// MAILCTL_CONFIG_DIR between invocations, and Ctrl-C handled by the signal handlers the process
// really has once its dependencies are loaded (in-process tests cannot see that).
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ANSI, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { spawnCli } from './helpers/spawn-cli.js';
import { until } from './helpers/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');


interface Spawned { code: number; stdout: string; stderr: string }

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd: root, timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A user with no config and no keys in the environment. */
function user() {
  const home = tempDir('mailctl-home-');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, MAILCTL_CONFIG_DIR: path.join(home, 'config') };
  return (...args: string[]) => run(process.execPath, [bin, ...args], env);
}

describe('bin/mailctl.js', () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const r = await user()('--version');
    expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists the commands and exits 0', async () => {
    const r = await user()('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mailctl/);
    for (const noun of ['groups', 'template', 'balance', 'config', 'sandbox']) expect(r.stdout).toMatch(new RegExp(`^\\s+${noun}\\b`, 'm'));
  });

  it.skipIf(!fs.existsSync('/dev/full'))('stdout on a full disk (/dev/full): one sentence, exit 1, no stack trace; a send made is journalled and said to be done', async () => {
    const home = tempDir('mailctl-home-');
    const env = { PATH: process.env.PATH, HOME: home, MAILCTL_CONFIG_DIR: path.join(home, 'config') };
    const full = (args: string[]) => {
      const fd = fs.openSync('/dev/full', 'w');
      try {
        return spawnSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 15_000 });
      } finally {
        fs.closeSync(fd);
      }
    };
    for (const args of [['--sandbox', 'send', '--to', 'a@example.com', '--subject', 's', '--html', '<p>x</p>', '--json'], ['--sandbox', 'balance'], ['groups', '--help'], ['--version']]) {
      const r = full(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toContain('error: mailctl could not write its output to standard output (ENOSPC');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
    // The send was made once and its journal holds it: the sentence says not to run it again.
    const journals = fs.readdirSync(path.join(home, 'config', 'journals'));
    expect(journals).toHaveLength(1);
    expect(fs.readFileSync(path.join(home, 'config', 'journals', journals[0]), 'utf8')).toContain('a@example.com');
    expect(full(['--sandbox', 'balance']).stderr).toContain('The command itself ran to its end: what it did is done');
  });

  it('a bad flag exits 2 with the usage line on stderr', async () => {
    const r = await user()('groups', 'list', '--nope');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown option '--nope'");
    expect(r.stderr).toContain('Usage: mailctl groups list');
  });

  it('no key and no sandbox: exit 3 naming `mailctl config set-key`', async () => {
    const r = await user()('balance');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('mailctl config set-key');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--sandbox works offline, prints TSV to a pipe, and keeps state across invocations', async () => {
    const mailctl = user();
    const balance = await mailctl('--sandbox', 'balance');
    expect(balance).toMatchObject({ code: 0, stderr: '' });
    expect(balance.stdout).toMatch(/^email\t\d+\nsms\t\d+\n$/);

    const created = await mailctl('--sandbox', 'groups', 'create', 'Spring launch');
    expect(created.code).toBe(0);
    const sn = created.stdout.trim();
    expect(sn).toMatch(/^\S+$/);

    const list = await mailctl('--sandbox', 'groups', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(ANSI);
    expect(list.stdout).not.toMatch(/[│┌─]/);
    const row = list.stdout.split('\n').find((l) => l.startsWith(`${sn}\t`));
    expect(row?.split('\t')[1]).toBe('Spring launch');

    const json = await mailctl('--sandbox', '--json', 'groups', 'list');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as Array<{ sn: string }>).map((g) => g.sn)).toEqual([sn]);
  });
});

describe('SIGINT on bin/mailctl.js', () => {
  const sb = useSandbox({
    delays: { importProcessing: 60_000 },
    expect: [
      'POST /campaign/v1/contacts/imports/:listSn/text',
      'GET /campaign/v1/contacts/imports/result/:importSn',
      'GET /campaign/v1/contacts/lists',
      'POST /campaign/v1/contacts/lists/insert',
    ],
  });

  it('one Ctrl-C while waiting for an import: exit 130 and the resume command', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 'EMAIL,NAME\nann@example.com,Ann\n');
    const run = spawnCli(['import', file, '--group', 'Slow', '--create-group', '--wait'], { sandbox: sb.get(), home: dir, configDir: dir });
    // Interrupt once it is polling the import status.
    const polling = () => sb.get().sandbox.requests('campaign').some((r) => r.path.startsWith('/v1/contacts/imports/result/'));
    await until('the import status being polled', polling, 10_000);
    run.child.kill('SIGINT');
    const { code, stderr: err } = await run.exited;
    expect(code).toBe(130);
    const sn = /Import (IM\w+) started/.exec(err)?.[1];
    expect(sn).toBeTruthy();
    expect(err).toContain(`mailctl import status ${sn} --wait`);
  }, 30_000);
});
