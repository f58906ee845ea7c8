// --query EXPR (JMESPath, as in the AWS CLI) on the one JSON document a command prints: it
// implies --json, works on a list and on a record, prints a scalar as JSON, is compiled before
// any request (a bad expression is exit 2 with nothing sent), never filters an error, and when it
// fails on the result prints the whole result with the command's own exit code.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { notifyApi, eventually } from './helpers/notify-api.js';
import type { Clock } from '../src/core/clock.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
  ],
});
const fx = campaignFixtures(sb.get);
const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { sandbox: sb.get(), env });

beforeAll(async () => {
  for (const name of ['Alpha', 'Beta']) await fx.group(name, 0);
});

describe('--query', () => {
  it('on a list: a projection and a filter, without --json (the query implies it)', async () => {
    const names = await run(['groups', 'list', '--query', '[].name']);
    expect(names.exitCode).toBe(0);
    expect(JSON.parse(names.stdout)).toEqual(['Alpha', 'Beta']);
    const beta = await run(['groups', 'list', '--json', '--query', "[?name=='Beta'].{code: sn, name: name}"]);
    expect(JSON.parse(beta.stdout)).toEqual([{ code: expect.stringMatching(/\S/), name: 'Beta' }]);
  });

  it('on a record: a scalar prints as JSON', async () => {
    const r = await run(['--query', 'email', 'balance']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    const s = await run(['groups', 'list', '--query', '[0].name']);
    expect(s.stdout).toBe('"Alpha"\n');
  });

  it('an expression that does not parse: exit 2 naming it and the parser\'s message, and no request made', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await run(['groups', 'list', '--query', '[?name==']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--query "[?name==" is not a JMESPath expression: ');
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(2); // the sentence and the hint, no stack
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'USAGE', exitCode: 2 });
    // A write too: the expression is refused before the command runs, so exit 2 means nothing sent.
    const w = await run(['groups', 'create', 'NeverMade', '--query', '[?name==']);
    expect(w.exitCode).toBe(2);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('an error document is never filtered, so a script still sees the failure', async () => {
    const r = await run(['groups', 'list', '--query', '[].name'], { MAILCTL_CAMPAIGN_API_KEY: 'wrong-key-123456' });
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'AUTH', exitCode: 3 });
  });

  it('events tail: the one document it prints when it ends is filtered as a whole', async () => {
    const api = notifyApi(sb.get);
    await api('POST', '/v1/messages', { subject: 'Q', fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: [{ address: 'q-tail@example.com' }] });
    await eventually(async () => ((await api('GET', '/v1/events?recipient=q-tail@example.com&status=delivery')).body.logs ?? []).length > 0, 'the delivery');
    // A clock on which --for 10s passes in a few quick polls.
    let ahead = 0;
    const clock: Clock = { now: () => Date.now() + ahead, sleep: async (ms) => { ahead += ms; } };
    const r = await runCli(['events', 'tail', '--since', '5m', '--for', '10s', '--recipient', 'q-tail@example.com', '--query', 'events[].{to: mail.to, status: status}'], { sandbox: sb.get(), clock });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual(expect.arrayContaining([{ to: 'q-tail@example.com', status: 'accept' }, { to: 'q-tail@example.com', status: 'delivery' }]));
    for (const l of doc) expect(Object.keys(l)).toEqual(['to', 'status']);
  });

  // A query that parses but fails on the result (abs() of a record: a type error) is found only
  // after the command ran. Exit 2 would say nothing was sent, and a rerun would send again.
  // How the warning ends says what is known of the run: only a write is told not to run again.
  const ENDS = { write: 'the command itself finished — do not run it again.', read: 'the command itself finished.', dry: 'it was a dry run: nothing was sent.' };
  const notApplied = (stderr: string, expr: string, kind: keyof typeof ENDS = 'write') => {
    const lines = stderr.split('\n').filter((l) => l.includes('--query'));
    expect(lines).toHaveLength(1);
    const esc = (t: string) => t.replace(/[()@.]/g, '\\$&');
    expect(lines[0]).toMatch(new RegExp(`^warning: --query "${esc(expr)}" could not be applied to the result \\(.+\\), so the whole result was printed instead; ${esc(ENDS[kind])}$`));
  };

  it('a write whose query fails on the result: exit 0, the whole result printed, one create sent, a warning not to rerun', async () => {
    const creates = () => sb.get().sandbox.requests('campaign').filter((q) => q.method === 'POST' && q.path === '/v1/contacts/lists/insert' && JSON.stringify(q.body).includes('QTest'));
    const r = await run(['groups', 'create', 'QTest', '--json', '--query', 'abs(@)']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({ sn: expect.stringMatching(/\S/), name: 'QTest' });
    expect(creates()).toHaveLength(1);
    notApplied(r.stderr, 'abs(@)');
    // The code printed is the group the sandbox made.
    const list = JSON.parse((await run(['groups', 'list', '--json'])).stdout);
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ sn: doc.sn, name: 'QTest' })]));
  });

  it('a send whose query fails on the result: exit 0, the whole result, exactly one message sent', async () => {
    const sends = () => sb.get().sandbox.requests('notify').filter((q) => q.method === 'POST' && q.path === '/v1/messages' && JSON.stringify(q.body).includes('q-once@example.com'));
    const r = await run(['send', 'email', '--from', 'noreply@example.com', '--to', 'q-once@example.com', '--subject', 's', '--html', '<p>x</p>', '--query', 'abs(@)']);
    expect(r.exitCode).toBe(0);
    expect(sends()).toHaveLength(1);
    const doc = JSON.parse(r.stdout);
    expect(JSON.stringify(doc)).toContain('q-once@example.com');
    notApplied(r.stderr, 'abs(@)');
  });

  it('a read whose query fails on the result: exit 0, the whole document, the warning (also under --quiet)', async () => {
    const whole = JSON.parse((await run(['balance', '--json'])).stdout);
    for (const quiet of [[], ['--quiet']]) {
      const r = await run([...quiet, 'balance', '--query', 'abs(`"x"`)']);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(whole);
      notApplied(r.stderr, 'abs(`"x"`)', 'read');
    }
  });

  it('a dry run whose query fails on the result: the warning says nothing was sent, not "do not run it again"', async () => {
    const creates = () => sb.get().sandbox.requests('campaign').filter((q) => q.method === 'POST' && q.path === '/v1/contacts/lists/insert' && JSON.stringify(q.body).includes('QDry'));
    const r = await run(['groups', 'create', 'QDry', '--dry-run', '--query', 'abs(@)']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dryRun: true });
    expect(creates()).toHaveLength(0);
    notApplied(r.stderr, 'abs(@)', 'dry');
  });
});
