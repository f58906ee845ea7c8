// Real `kill -9` of the built CLI (bin/mailctl.js) at each step of an import (issue 9): while it
// checks the file, while it uploads it, while it waits for the result. Then the run is done
// again (or the wait resumed): the group holds every valid row once, by exactly one completed
// import, nothing is left under the config folder's work area or beside the rejects path, and
// the rejects file is whole.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, groupWith } from './helpers/campaign-api.js';
import { spawnCli, type Spawned } from './helpers/spawn-cli.js';
import { until } from './helpers/wait.js';

const sb = useSandbox({
  expect: [
    'POST /campaign/v1/contacts/imports/:listSn/file',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'PUT /files/u/:token',
  ],
});
const api = campaignApi(sb.get);

/** The built CLI on this config folder, run in (and with its home in) `cwd`; its stdin is the test's to write. */
const start = (args: string[], configDir: string, cwd: string) => spawnCli(args, { sandbox: sb.get(), home: cwd, configDir, stdin: true });

async function kill(run: Spawned): Promise<void> {
  run.child.kill('SIGKILL');
  await run.exited;
}

/** 150 valid contacts (a file import) and 5 rejected rows, in CRLF with a few LF lines. */
function contacts(prefix: string): { csv: string; valid: string[]; rejectedLines: number[] } {
  const lines = ['EMAIL,NAME'];
  const valid: string[] = [];
  const rejectedLines: number[] = [];
  for (let i = 0; i < 155; i++) {
    if (i % 31 === 7) {
      lines.push(`${prefix}-bad-${i},Bad`);
      rejectedLines.push(lines.length);
    } else {
      lines.push(`${prefix}-${i}@example.com,Person ${i}`);
      valid.push(`${prefix}-${i}@example.com`);
    }
  }
  return { csv: lines.map((l, i) => l + (i % 10 === 3 ? '\n' : '\r\n')).join(''), valid, rejectedLines };
}

/** An empty group (the fixture's own request, plain HTTP). */
const newGroup = (name: string): Promise<string> => groupWith(api, [], name);

/** The group holds exactly these addresses, from one completed import with no duplicate. */
function expectGroupHolds(sn: string, emails: string[]): void {
  const state = sb.get().sandbox.state.campaign;
  const members = Object.values(state.contacts).filter((c) => c.lists.includes(sn)).map((c) => c.email);
  expect(members.sort()).toEqual([...emails].sort());
  const done = state.imports.filter((i) => i.listSn === sn && i.status === 'COMPLETE');
  expect(done).toHaveLength(1);
  expect(done[0]).toMatchObject({ insertCnt: emails.length, duplicateCnt: 0, errCnt: 0 });
  expect(state.groups.find((g) => g.sn === sn)?.subscribedCnt).toBe(emails.length);
}

/** Nothing in the work area, and beside the rejects path only the whole rejects file. */
function expectNothingLeft(configDir: string, dir: string, keep: string[]): void {
  expect(fs.readdirSync(path.join(configDir, 'work'))).toEqual([]);
  expect(fs.readdirSync(dir).sort()).toEqual([...keep].sort());
}

function rejectedLinesIn(file: string): number[] {
  return (parse(fs.readFileSync(file)) as string[][]).slice(1).map((r) => Number(r[0]));
}

describe('kill -9 during an import, then again', () => {
  it('while checking the file: the next run removes the copy and the half-written rejects file, and imports every row once', async () => {
    const configDir = tempDir('mailctl-kill-config-');
    const dir = tempDir('mailctl-kill-');
    const { csv, valid, rejectedLines } = contacts('check');
    const rejects = path.join(dir, 'rejects.csv');
    const sn = await newGroup('Killed while checking');
    // Standard input that stops before its last row holds the check open, with rejected rows
    // already on their way to the temporary rejects file (made when the first one is rejected).
    const run = start(['import', '-', '--group', sn, '--no-wait', '--rejects', rejects], configDir, dir);
    run.child.stdin!.write(csv.slice(0, csv.lastIndexOf('\n', csv.length - 2) + 1));
    const work = path.join(configDir, 'work');
    await until('the check under way', () => fs.existsSync(work) && fs.readdirSync(work).length === 1 && fs.readdirSync(dir).some((n) => n.endsWith('.part')));
    await kill(run);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.part'))).toHaveLength(1); // what the kill left
    expect(fs.existsSync(rejects)).toBe(false); // but nothing under the real name
    expect(sb.get().sandbox.requests('campaign').filter((q) => q.path.includes(sn))).toEqual([]);

    const r = await runCli(['import', '-', '--group', sn, '--wait', '--rejects', rejects], { sandbox: sb.get(), configDir, stdin: csv });
    expect(r.exitCode, r.stderr).toBe(5); // done, with the 5 rejected rows listed
    expectGroupHolds(sn, valid);
    expectNothingLeft(configDir, dir, ['rejects.csv']);
    expect(rejectedLinesIn(rejects)).toEqual(rejectedLines);
  });

  it('while uploading: the import is run again and every row is imported once; the rejects file was already whole', async () => {
    const configDir = tempDir('mailctl-kill-config-');
    const dir = tempDir('mailctl-kill-');
    const { csv, valid, rejectedLines } = contacts('upload');
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, csv);
    const sn = await newGroup('Killed while uploading');
    const sandbox = sb.get().sandbox;
    sandbox.injectFault({ kind: 'hang', match: { service: 'files', method: 'PUT' } });
    const run = start(['import', file, '--group', sn, '--no-wait'], configDir, dir);
    await until('the upload in flight', () => sandbox.requests('files').some((q) => q.method === 'PUT' && q.status === -1));
    await kill(run);
    expect(rejectedLinesIn(path.join(dir, 'c.rejects.csv'))).toEqual(rejectedLines);

    const r = await runCli(['import', file, '--group', sn, '--wait'], { sandbox: sb.get(), configDir });
    expect(r.exitCode, r.stderr).toBe(5);
    expectGroupHolds(sn, valid);
    expectNothingLeft(configDir, dir, ['c.csv', 'c.rejects.csv']);
    expect(rejectedLinesIn(path.join(dir, 'c.rejects.csv'))).toEqual(rejectedLines);
  });

  it('while waiting: nothing is left even before the wait is resumed, and `import status --wait` sees it through', async () => {
    const configDir = tempDir('mailctl-kill-config-');
    const dir = tempDir('mailctl-kill-');
    const { csv, valid, rejectedLines } = contacts('wait');
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, csv);
    const sn = await newGroup('Killed while waiting');
    const sandbox = sb.get().sandbox;
    sandbox.injectFault({ kind: 'hang', times: 100, match: { service: 'campaign', method: 'GET', path: /^\/v1\/contacts\/imports\/result\// } });
    const run = start(['import', file, '--group', sn, '--wait'], configDir, dir);
    await until('the wait under way', () => sandbox.requests('campaign').some((q) => q.path.startsWith('/v1/contacts/imports/result/') && q.status === -1));
    await kill(run);
    sandbox.faults.splice(0);
    const importSn = /Import (\S+) started/.exec(run.stderr())?.[1];
    expect(importSn).toBeDefined();
    expectNothingLeft(configDir, dir, ['c.csv', 'c.rejects.csv']);

    const r = await runCli(['import', 'status', importSn!, '--wait'], { sandbox: sb.get(), configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expectGroupHolds(sn, valid);
    expect(rejectedLinesIn(path.join(dir, 'c.rejects.csv'))).toEqual(rejectedLines);
  });
});
