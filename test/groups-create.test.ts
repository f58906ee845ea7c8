// `mailctl groups create NAME`: one group per name. The service lets two groups share a name,
// and then every `--group NAME` is refused as ambiguous, so a name --group would already find is
// refused (exit 2, nothing created) unless --allow-duplicate; `import --create-group` uses the one
// group of that name.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const sb = useSandbox({
  expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn'],
});
const inserts = (from: number) => sb.get().sandbox.requests('campaign').slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/contacts/lists/insert');
const groupsNamed = async (name: string) => JSON.parse((await runCli(['groups', 'list', '--all', '--json'], { sandbox: sb.get() })).stdout).filter((g: { name: string }) => g.name === name);

describe('groups create refuses a name a group already has', () => {
  it('the second "Newsletter" (or " newsletter ") is refused with exit 2, naming the code and --allow-duplicate; nothing is created', async () => {
    const first = await runCli(['groups', 'create', 'Newsletter'], { sandbox: sb.get() });
    expect(first.exitCode, first.stderr).toBe(0);
    const code = first.stdout.trim();
    const from = sb.get().sandbox.requests().length;
    for (const name of ['Newsletter', ' newsletter ']) {
      const r = await runCli(['groups', 'create', name], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`A group named "${name.trim()}" already exists: ${code} ("Newsletter", 0 valid members). Nothing was created.`);
      expect(r.stderr).toContain(`--group ${code}`);
      expect(r.stderr).toContain(`mailctl groups create ${name.trim()} --allow-duplicate`);
    }
    expect(inserts(from)).toEqual([]);
    expect(await groupsNamed('Newsletter')).toHaveLength(1);

    const json = await runCli(['groups', 'create', 'Newsletter', '--json'], { sandbox: sb.get() });
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'USAGE', exitCode: 2 });
  });

  it('--allow-duplicate creates the second one anyway', async () => {
    expect((await runCli(['groups', 'create', 'Twice'], { sandbox: sb.get() })).exitCode).toBe(0);
    const r = await runCli(['groups', 'create', 'Twice', '--allow-duplicate'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await groupsNamed('Twice')).toHaveLength(2);
  });

  it('--dry-run shows the name check as a lookup and the insert it would send; nothing is sent', async () => {
    const from = sb.get().sandbox.requests().length;
    const r = await runCli(['groups', 'create', 'Newsletter', '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('# lookup: the groups, to check that no group is named "Newsletter" already');
    expect(r.stdout).toMatch(/^GET \S+\/v1\/contacts\/lists\?page=0&size=100$/m);
    expect(r.stdout).toMatch(/^POST \S+\/v1\/contacts\/lists\/insert$/m);
    expect(r.stdout).toContain('"name": "Newsletter"');
    expect(sb.get().sandbox.requests().length).toBe(from);
  });

  it('import --create-group imports into the one group of that name, whatever its case, and creates none', async () => {
    expect((await runCli(['groups', 'create', 'Members'], { sandbox: sb.get() })).exitCode).toBe(0);
    const [members] = await groupsNamed('Members');
    const from = sb.get().sandbox.requests().length;
    const r = await runCli(['import', '-', '--group', 'members', '--create-group', '--no-wait', '--json'], { sandbox: sb.get(), stdin: 'EMAIL,NAME\na@example.com,A\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).group).toMatchObject({ sn: members.sn, name: 'Members' });
    expect(inserts(from)).toEqual([]);
  });
});

describe('the name check sees every page (decisions row P13)', () => {
  const hs = useHostileServer();

  it('a group of that name on the second page of a server that caps its pages is found', async () => {
    const pages = [[{ sn: 'LA', name: 'A', status: 'GENERAL' }], [{ sn: 'LN', name: 'Newsletter', status: 'GENERAL', subscribedCnt: 1200 }]];
    hs.get().on('GET', '/campaign/v1/contacts/lists', (res, seen, req) => reply.json(pages[Number(seen.query.page)] ?? [])(res, seen, req));
    hs.get().on('POST', '/campaign/v1/contacts/lists/insert', reply.json({ sn: 'DUPLICATE' }));
    const r = await runCli(['groups', 'create', 'Newsletter'], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('already exists: LN ("Newsletter", 1,200 valid members)');
    expect(hs.get().requests.filter((q) => q.method === 'POST')).toEqual([]);
  });
});
