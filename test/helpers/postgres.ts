// A throw-away PostgreSQL cluster for the store's tests (issue 21): initdb into a temp folder,
// pg_ctl start on a free loopback port (its socket in that folder too), stopped and removed by
// the test file. PostgreSQL refuses to run as root, so as root the folder is given to the
// `postgres` user and the server runs under `runuser -u postgres`. Where no PostgreSQL is
// installed (or it cannot start) the tests skip with the reason printed — except in CI, where
// .ci/run installs it and sets MAILCTL_TEST_POSTGRES=required: there they fail instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { unusedPort } from './wait.js';

export interface TestPostgres {
  /** A new, empty database on the cluster: its URL. */
  database(): string;
  /** Runs SQL through psql against `url` and returns its unaligned output. */
  psql(url: string, sql: string): string;
  stop(): void;
}

export const POSTGRES_REQUIRED = process.env.MAILCTL_TEST_POSTGRES === 'required' && process.env.CI === 'true';

function findBin(): string | undefined {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    ...(fromConfig.status === 0 ? [fromConfig.stdout.trim()] : []),
    ...(fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`) : []),
  ];
  return candidates.find((d) => fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
}

/** Starts a cluster, or says why it cannot (then the caller skips, or fails when required). */
export async function startPostgres(): Promise<TestPostgres | { skip: string }> {
  const bin = findBin();
  if (!bin) return { skip: 'no PostgreSQL server binaries (initdb, pg_ctl) on this machine' };
  const root = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-pg-'));
  const as = (cmd: string, args: string[]) => (root ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' }));
  const fail = (what: string, r: ReturnType<typeof spawnSync>) => {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `PostgreSQL could not be started: ${what} failed (${String(r.stderr || r.error?.message || r.status).trim().slice(0, 300)})` };
  };
  if (root) {
    const r = spawnSync('chown', ['postgres', dir]);
    if (r.status !== 0) return fail('chown to the postgres user', r);
  }
  const data = path.join(dir, 'data');
  const init = as(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'mailctl', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  if (init.status !== 0) return fail('initdb', init);
  const port = await unusedPort();
  const start = as(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start', '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=50`]);
  if (start.status !== 0) return fail('pg_ctl start', start);
  let n = 0;
  const base = `postgres://mailctl@127.0.0.1:${port}`;
  const psql = (url: string, sql: string) => {
    const r = spawnSync('psql', [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
    return r.stdout.trim();
  };
  return {
    database() {
      const name = `t${process.pid}_${++n}`;
      psql(`${base}/postgres`, `CREATE DATABASE ${name}`);
      return `${base}/${name}`;
    },
    psql,
    stop() {
      as(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** For a test file: the cluster, or the reason it skips (printed once); fails instead when required. */
export async function postgresForTests(): Promise<TestPostgres | undefined> {
  const pg = await startPostgres();
  if ('skip' in pg) {
    if (POSTGRES_REQUIRED) throw new Error(`MAILCTL_TEST_POSTGRES=required in CI, but ${pg.skip}`);
    console.warn(`Skipping the PostgreSQL tests: ${pg.skip}`);
    return undefined;
  }
  return pg;
}
