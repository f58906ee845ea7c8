// `mailctl contacts remove` against the sandbox: spec 000 endpoint 6, "DELETE /v1/contacts/{list_sn}:
// removes contacts from the group. Body is one of: filters … keys …". 200: updated_count.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, groupWith, GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'DELETE /campaign/v1/contacts/:listSn',
    'GET /campaign/v1/contacts/lists',
  ],
});
const api = campaignApi(sb.get);
const deletes = () => sb.get().sandbox.requests('campaign').filter((r) => r.method === 'DELETE');

describe('by address', () => {
  it('--email (repeatable) sends keys and prints updated_count', async () => {
    const sn = await groupWith(api, ['a@example.com', 'b@example.com', 'c@example.com'], 'By email');
    const before = deletes().length;
    const r = await runCli(['contacts', 'remove', '--group', 'By email', '--email', 'a@example.com', '--email', 'B@example.com', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe('2');
    const sent = deletes().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(`/v1/contacts/${sn}`);
    expect(sent[0].body).toEqual({ keys: ['a@example.com', 'B@example.com'] });
  });

  it('--emails-file reads one address per line (a CSV export works too) and refuses bad addresses before sending', async () => {
    await groupWith(api, ['d@example.com', 'e@example.com'], 'By file');
    const dir = tempDir();
    const good = path.join(dir, 'gone.csv');
    fs.writeFileSync(good, 'EMAIL,NAME\r\nd@example.com,D\r\n\r\ne@example.com,E\r\nnobody@example.com,N\r\n');
    const r = await runCli(['contacts', 'remove', '--group', 'By file', '--emails-file', good, '--yes', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated_count: 2, requested: 3 });

    const bad = path.join(dir, 'bad.txt');
    fs.writeFileSync(bad, 'ok@example.com\nnot an address\n');
    const before = deletes().length;
    const refused = await runCli(['contacts', 'remove', '--group', 'By file', '--emails-file', bad, '--yes'], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/"not an address" \(.*bad\.txt line 2\)/);
    expect(deletes().length).toBe(before);
  });
});

describe('by filter', () => {
  it('--where "DOMAIN like example.org" becomes {columnName, operator, value}', async () => {
    const sn = await groupWith(api, ['x@example.org', 'y@example.org', 'z@example.net'], 'By filter');
    const before = deletes().length;
    const r = await runCli(['contacts', 'remove', '--group', sn, '--where', 'DOMAIN like example.org', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe('2');
    expect(deletes().slice(before)[0].body).toEqual({ filters: [{ columnName: 'DOMAIN', operator: 'LIKE', value: 'example.org' }] });
  });

  it('maps friendly operators, and checks columns and operators locally before sending', async () => {
    await groupWith(api, ['f@example.com'], 'Local checks');
    const before = deletes().length;
    const dry = await runCli(['contacts', 'remove', '--group', 'LS1', '--where', 'NAME != Ann', '--where', "email not like '%@old.example'", '--dry-run', '--json']);
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout).requests[0].body).toEqual({ filters: [
      { columnName: 'NAME', operator: 'NOT_EQ', value: 'Ann' },
      { columnName: 'MAIL_ADDRESS', operator: 'NOT_LIKE', value: '%@old.example' },
    ] });
    for (const where of ['NAME > 5', 'PHONE = 1', 'DOMAIN like']) {
      const r = await runCli(['contacts', 'remove', '--group', 'Local checks', '--where', where, '--yes'], { sandbox: sb.get() });
      expect(r.exitCode, where).toBe(2);
    }
    const configDir = tempDir();
    expect((await runCli(['config', 'set', 'field-types', 'AGE:number'], { configDir })).exitCode).toBe(0);
    const typed = await runCli(['contacts', 'remove', '--group', 'Local checks', '--where', 'AGE = 3', '--yes'], { sandbox: sb.get(), configDir });
    expect(typed.exitCode).toBe(2);
    expect(typed.stderr).toMatch(/no comparison on number or date fields/);
    expect(deletes().length).toBe(before);
  });

  it('a removal error code comes back as a sentence (40050304: wrong custom field name)', async () => {
    await groupWith(api, ['g@example.com'], 'Codes');
    const r = await runCli(['contacts', 'remove', '--group', 'Codes', '--where', 'NO_SUCH_FIELD = x', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/A custom field name in the filter does not exist/);
  });
});

describe('confirmation', () => {
  it('without a terminal, --yes is required and nothing is sent', async () => {
    await groupWith(api, ['h@example.com'], 'Confirm');
    const before = deletes().length;
    const r = await runCli(['contacts', 'remove', '--group', 'Confirm', '--email', 'h@example.com'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(deletes().length).toBe(before);
  });

  it('on a terminal it asks, and a no sends nothing', async () => {
    await groupWith(api, ['i@example.com'], 'Ask');
    const before = deletes().length;
    const no = scriptedPrompter([false]);
    const r = await runCli(['contacts', 'remove', '--group', 'Ask', '--email', 'i@example.com'], { sandbox: sb.get(), tty: true, prompter: no });
    expect(r.exitCode).toBe(2);
    expect(no.asked[0]).toMatch(/Remove i@example.com from group "Ask"/);
    expect(deletes().length).toBe(before);
    const yes = scriptedPrompter([true]);
    const ok = await runCli(['contacts', 'remove', '--group', 'Ask', '--email', 'i@example.com'], { sandbox: sb.get(), tty: true, prompter: yes });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/Removed 1 contact from group "Ask"/);
    expect(deletes().slice(before).map((d) => d.body)).toEqual([{ keys: ['i@example.com'] }]);
  });
});

describe('a lost answer (the DELETE was carried out, its answer never came, the retry removed nothing)', () => {
  const lose = (sn: string) => sb.get().sandbox.injectFault({ kind: 'lose-answer', match: { service: 'campaign', method: 'DELETE', path: `/v1/contacts/${sn}` } });
  const argv = (group: string) => ['contacts', 'remove', '--group', group, '--email', 'u1@example.com', '--email', 'u2@example.com', '--yes'];

  it('says the addresses are already gone, never that they were not in the group; exit 0', async () => {
    const sn = await groupWith(api, ['u1@example.com', 'u2@example.com', 'u3@example.com'], 'Lost answer');
    const before = deletes().length;
    lose(sn);
    const r = await runCli(argv('Lost answer'), { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(deletes().length - before).toBe(2); // the lost one and its retry
    expect(r.stderr).toContain('0 removed; 2 were already gone (removed by the first attempt, whose answer was lost, or never in the group).');
    expect(r.stderr).not.toContain('not in the group');
  });

  it('--json carries the counts and retriedAfterLostAnswer', async () => {
    const sn = await groupWith(api, ['u1@example.com', 'u2@example.com', 'u3@example.com'], 'Lost answer json');
    lose(sn);
    const r = await runCli([...argv(sn), '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated_count: 0, requested: 2, alreadyGone: 2, retriedAfterLostAnswer: true });
    // Without a lost answer the flag is false and the count is the service's.
    const again = await runCli(['contacts', 'remove', '--group', sn, '--email', 'u3@example.com', '--email', 'nobody@example.com', '--yes', '--json'], { sandbox: sb.get() });
    expect(JSON.parse(again.stdout)).toMatchObject({ updated_count: 1, requested: 2, notInGroup: 1, retriedAfterLostAnswer: false });
  });
});
