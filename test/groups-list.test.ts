// `mailctl groups list`: the paging flags reach the service as its query parameters, --all walks
// every page, and a bad flag is refused before anything is sent. (Its output modes are in
// test/run-output-format.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import type { RunningSandbox } from '../src/sandbox/server.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert'] });

describe('groups list paging (spec 000 endpoint 2: "page string (zero-based index)", "size string (rows per page)")', () => {
  let own: RunningSandbox;
  beforeAll(async () => {
    own = sb.get();
    for (const name of ['G1', 'G2', 'G3', 'G4', 'G5']) expect((await runCli(['groups', 'create', name], { sandbox: own })).exitCode).toBe(0);
  });

  const listCalls = (from: number) => own.sandbox.requests('campaign').slice(from).filter((r) => r.path === '/v1/contacts/lists');

  it('--all walks every page and stops at the empty one, not the short one (decisions row P13)', async () => {
    const from = own.sandbox.requests().length;
    const r = await runCli(['groups', 'list', '--all', '--size', '2'], { sandbox: own });
    expect(r.exitCode).toBe(0);
    expect(tsvRows(r.stdout).map((l) => l[1])).toEqual(['G1', 'G2', 'G3', 'G4', 'G5']);
    expect(listCalls(from).map((q) => q.query)).toEqual([0, 1, 2, 3].map((p) => ({ page: String(p), size: '2' })));
  });

  it('--page and --size reach the service as query parameters', async () => {
    const from = own.sandbox.requests().length;
    const r = await runCli(['groups', 'list', '--page', '1', '--size', '2'], { sandbox: own });
    expect(r.exitCode).toBe(0);
    expect(listCalls(from).map((q) => q.query)).toEqual([{ page: '1', size: '2' }]);
    expect(tsvRows(r.stdout).map((l) => l[1])).toEqual(['G3', 'G4']);
  });

  it('a bad --page or --size exits 2 naming the flag, and sends nothing', async () => {
    const from = own.sandbox.requests().length;
    for (const argv of [['--page', 'x'], ['--page', '-1'], ['--page', '1.5'], ['--size', '0'], ['--all', '--page', '1']]) {
      const r = await runCli(['groups', 'list', ...argv], { sandbox: own });
      expect(r.exitCode, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--page|--size/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(own.sandbox.requests().length).toBe(from);
  });
});

describe('a server that returns fewer rows than asked on every page (decisions row P13: no page-size cap in the spec)', () => {
  const hs = useHostileServer();
  const PAGES = [
    [{ sn: 'LA', name: 'A', status: 'GENERAL' }, { sn: 'LB', name: 'B', status: 'GENERAL' }],
    [{ sn: 'LN', name: 'Newsletter', status: 'GENERAL' }, { sn: 'LD', name: 'D', status: 'GENERAL' }],
  ];
  const capped = () => hs.get().on('GET', '/campaign/v1/contacts/lists', (res, seen, req) => reply.json(PAGES[Number(seen.query.page)] ?? [])(res, seen, req));
  const seen = (method: string, path: string) => hs.get().requests.filter((r) => r.method === method && r.path === path);

  it('groups list --all shows the groups of every page', async () => {
    capped();
    const r = await runCli(['groups', 'list', '--all'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(tsvRows(r.stdout).map((l) => l[1])).toEqual(['A', 'B', 'Newsletter', 'D']);
    expect(seen('GET', '/campaign/v1/contacts/lists').map((q) => q.query.page)).toEqual(['0', '1', '2']);
  });

  it('import --group Newsletter --create-group imports into the existing group and creates none', async () => {
    capped();
    hs.get().on('POST', '/campaign/v1/contacts/lists/insert', reply.json({ sn: 'DUPLICATE' }));
    hs.get().on('POST', '/campaign/v1/contacts/imports/LN/text', reply.json({ importSn: 'IM1' }));
    const r = await runCli(['import', '-', '--group', 'Newsletter', '--create-group', '--no-wait'], { env: hs.get().env, stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen('POST', '/campaign/v1/contacts/lists/insert')).toEqual([]);
    expect(seen('POST', '/campaign/v1/contacts/imports/LN/text')).toHaveLength(1);
    expect(r.stderr).not.toContain('Created group');
  });
});
