// `campaign create` from flags and from a JSON file, as the sandbox receives it: the spec's
// request structure (endpoints 7-10), send-now without timezone/scheduleDate and scheduled with
// both (decisions row 10), A/B content at top level (decisions row 9), the one-time list PUT without the
// key (decisions row 12), and the service's refusals in words.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures, writeFiles } from './helpers/campaign-setup.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'GET /campaign/v1/campaign/normal/:sn',
    'POST /campaign/v1/campaign/normal/once',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/once',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists', // group lookup before a real create (a dry run shows it, makes it not),
    'GET /campaign/v1/templates/:id',
    'PUT /files/u/:token',
  ],
});
const fx = campaignFixtures(sb.get);
let news: string;
let vip: string;
let bounced: string;
const dir = writeFiles({
  'mail.html': '<p>Hello ${NAME}</p>',
  'a.html': '<p>Version A</p>',
  'b.html': '<p>Version B</p>',
  'guests.csv': 'EMAIL,NAME\nann@example.org,Ann\nann@example.org,Ann again\nbob@example.org,Bob\n',
});
const file = (n: string) => path.join(dir, n);
const base = ['--subject', 'December news', '--from', 'news@example.com', '--from-name', 'Acme'];

beforeAll(async () => {
  news = await fx.group('Newsletter');
  vip = await fx.group('VIP', 3);
  bounced = await fx.group('Bounced', 2);
});

describe('regular campaign from flags (endpoint 7)', () => {
  it('send now: the spec body, groups by name turned into codes, no timezone or scheduleDate; prints the code', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--name', 'Dec', '--group', 'Newsletter', '--group', vip, '--exclude', 'bounced', ...base, '--preheader', 'New this month', '--html-file', file('mail.html')], { sandbox: sb.get() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const [req] = fx.submits(from);
    expect(req.path).toBe('/v1/campaign/normal/submit');
    expect(req.body).toEqual({
      form: { name: 'Dec', selectedLists: [news, vip], excludeLists: [bounced] },
      content: { footerLang: 0, subject: 'December news', preheader: 'New this month', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>Hello ${NAME}</p>' },
      config: { schedule: { type: 0 }, ga: { enable: false, ecommerceEnable: false } },
    });
    expect(r.stdout.trim()).toMatch(/^CP\w+$/);
  });

  it('scheduled: type 1 with the time zone code and the UTC scheduleDate; footer zh; analytics on', async () => {
    const from = fx.mark();
    const r = await runCli([
      'campaign', 'create', '--name', 'Later', '--group', news, ...base, '--html', '<p>x</p>', '--footer-lang', 'zh',
      '--at', '2035-12-01 09:00', '--timezone', 'Asia/Taipei', '--ga', '--utm-campaign', 'dec', '--utm-content', 'mail', '--ecommerce',
    ], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const body = fx.submits(from)[0].body as any;
    expect(body.config).toEqual({
      schedule: { type: 1, timezone: 21, scheduleDate: '2035-12-01T01:00:00Z' },
      ga: { enable: true, ecommerceEnable: true, utmCampaign: 'dec', utmContent: 'mail' },
    });
    expect(body.content.footerLang).toBe(1);
    expect(body.form.excludeLists).toEqual([]);
  });

  it('sender and footer come from the profile when no flag gives them', async () => {
    const env = { MAILCTL_CONFIG_DIR: writeFiles({}) };
    for (const [k, v] of [['from-address', 'marketing@example.com'], ['from-name', 'Acme Marketing'], ['footer-lang', 'zh']]) {
      expect((await runCli(['config', 'set', k, v], { env })).exitCode).toBe(0);
    }
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--name', 'P', '--group', news, '--subject', 'S', '--html', '<p>x</p>'], { sandbox: sb.get(), env });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).content).toMatchObject({ fromAddress: 'marketing@example.com', fromName: 'Acme Marketing', footerLang: 1 });
  });

  it('--template puts the template html in the body', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--name', 'T', '--group', news, ...base, '--template', 'tpl_welcome'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).content.htmlContent).toContain('Welcome, ${NAME}!');
  });

  it('--dry-run prints the exact request with the key masked, shows the group lookup instead of making it, and creates nothing', async () => {
    const from = fx.mark();
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['campaign', 'create', '--name', 'Dry', '--group', 'Newsletter', '--group', vip, ...base, '--html', '<p>x</p>', '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fx.submits(from)).toEqual([]);
    expect(sb.get().sandbox.requests()).toHaveLength(before); // not even the group lookup
    expect(r.stdout).toContain(`POST ${sb.get().campaignUrl}/v1/campaign/normal/submit\naccept: application/json\ncontent-type: application/json\nx-api-key: `);
    expect(r.stdout).toContain(`# lookup: the groups, to find the code of "Newsletter", "${vip}" (--group)`);
    expect(r.stdout).toContain(`GET ${sb.get().campaignUrl}/v1/contacts/lists?page=0&size=100`);
    // As given: a code is exact, a name stands where a real run puts the code it looks up.
    expect(r.stdout).toContain(`"selectedLists": [\n      "Newsletter",\n      "${vip}"\n    ]`);
    expect(r.stdout).not.toContain(SANDBOX_KEYS.campaign);
  });

  it('on a terminal: a confirmation with the code, and the status command as the next step', async () => {
    const r = await runCli(['campaign', 'create', '--name', 'Tty', '--group', news, ...base, '--html', '<p>x</p>', '--yes'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    const sn = /(CP\w+)/.exec(r.stdout)![1];
    expect(r.stderr).toContain(`mailctl campaign status ${sn} --wait`);
  });
});

describe('what cannot be taken back is shown and asked about first, on a terminal only', () => {
  const submitted = (from: number) => fx.submits(from).length;

  it('send now to groups: each group with its valid members, subject, sender and now in your zone and UTC; yes creates it', async () => {
    const from = fx.mark();
    const p = scriptedPrompter([true]);
    const r = await runCli(['campaign', 'create', '--name', 'Asked', '--group', 'Newsletter', '--group', vip, '--exclude', bounced, ...base, '--html', '<p>x</p>'], { sandbox: sb.get(), tty: true, prompter: p });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(p.asked).toEqual(['Send this campaign now?']);
    for (const line of [
      'Campaign "Asked" goes out now:',
      '  To:       2 groups — up to 8 valid members (a contact in two groups gets one mail)',
      `Newsletter (${news}): 5 valid members`,
      `VIP (${vip}): 3 valid members`,
      `  Not to:   anyone also in Bounced (${bounced})`,
      '  Subject:  "December news"',
      '  Sender:   Acme <news@example.com>',
    ]) expect(r.stderr).toContain(line);
    expect(r.stderr).toMatch(/ {2}When: {5}now: \d{4}-\d\d-\d\d \d\d:\d\d your time \(\S+, UTC[+-]\d\d:\d\d\) = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ UTC/);
    expect(submitted(from)).toBe(1);
  });

  it('scheduled to groups: the time in its zone, yours and UTC; no is exit 2 and nothing is sent', async () => {
    const from = fx.mark();
    const p = scriptedPrompter([false]);
    const r = await runCli(['campaign', 'create', '--name', 'Later', '--group', news, ...base, '--html', '<p>x</p>', '--at', '2035-12-01 09:00', '--timezone', 'Asia/Taipei'], { sandbox: sb.get(), tty: true, prompter: p });
    expect(r.exitCode).toBe(2);
    expect(p.asked).toEqual(['Schedule this campaign?']);
    expect(r.stderr).toContain('Campaign "Later" is scheduled:');
    expect(r.stderr).toMatch(/When: {5}2035-12-01 09:00 TAIPEI \(UTC\+08:00\) = 2035-12-\d\d \d\d:\d\d your time \(.*\) = 2035-12-01T01:00:00Z UTC/);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(submitted(from)).toBe(0);
  });

  it('an A/B test shows both versions', async () => {
    const p = scriptedPrompter([false]);
    const r = await runCli(['campaign', 'create', '--name', 'AB', '--group', news, '--from', 'news@example.com', '--from-name', 'Acme', '--ab', 'subject', '--subject-a', 'Hi', '--subject-b', 'Hello', '--html', '<p>x</p>', '--test-percent', '20', '--test-duration', '4h'], { sandbox: sb.get(), tty: true, prompter: p });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('A/B subject test "AB" goes out now:');
    expect(r.stderr).toContain('  Subject:  A "Hi" / B "Hello"');
    expect(r.stderr).toContain('  Test:     20% get A or B; after 4 hours the better one goes to the rest');
  });

  it('no question with --yes, without a terminal, for a dry run, or for a one-time list scheduled for later', async () => {
    const from = fx.mark();
    const none = () => scriptedPrompter([]); // fails the test on any question
    const runs: Array<[string[], boolean]> = [
      [['--name', 'Yes', '--group', news, ...base, '--html', '<p>x</p>', '--yes'], true],
      [['--name', 'Dry', '--group', news, ...base, '--html', '<p>x</p>', '--dry-run'], true],
      [['--name', 'Once later', '--once', '--recipients-file', file('guests.csv'), ...base, '--html', '<p>x</p>', '--at', '2035-12-01 09:00', '--timezone', 'TAIPEI'], true],
      [['--name', 'Piped', '--group', news, ...base, '--html', '<p>x</p>'], false],
    ];
    for (const [argv, tty] of runs) {
      const r = await runCli(['campaign', 'create', ...argv], { sandbox: sb.get(), tty, prompter: none() });
      expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('goes out now:');
    }
    expect(submitted(from)).toBe(3);
  });

  it('a one-time list sent now is asked about too, naming the file', async () => {
    const p = scriptedPrompter([false]);
    const r = await runCli(['campaign', 'create', '--name', 'Guests', '--once', '--recipients-file', file('guests.csv'), ...base, '--html', '<p>x</p>'], { sandbox: sb.get(), tty: true, prompter: p });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`  To:       the list in ${file('guests.csv')} (`);
  });
});

describe('from a JSON file', () => {
  it("the spec's own {form, content, config} is sent as is", async () => {
    const spec = {
      form: { name: 'From file', selectedLists: [news], excludeLists: [bounced] },
      content: { subject: 'S', preheader: 'P', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>f</p>', footerLang: 1 },
      config: { schedule: { type: 1, timezone: 72, scheduleDate: '2035-06-01T13:00:00Z' }, ga: { enable: false, ecommerceEnable: false } },
    };
    const d = writeFiles({ 'c.json': JSON.stringify(spec) });
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--file', path.join(d, 'c.json')], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(fx.submits(from)[0].body).toEqual(spec);
  });

  it('the flat form (flag names in camelCase, paths relative to the file), with flags overriding it', async () => {
    const d = writeFiles({
      'c.json': JSON.stringify({ name: 'Flat', groups: ['Newsletter'], subject: 'From file', from: 'news@example.com', fromName: 'Acme', htmlFile: 'body.html', at: '2035-07-01 09:00', timezone: 'America/New_York' }),
      'body.html': '<p>flat</p>',
    });
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--file', path.join(d, 'c.json'), '--subject', 'From flag'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(fx.submits(from)[0].body).toEqual({
      form: { name: 'Flat', selectedLists: [news], excludeLists: [] },
      content: { footerLang: 0, subject: 'From flag', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>flat</p>' },
      config: { schedule: { type: 1, timezone: 72, scheduleDate: '2035-07-01T13:00:00Z' }, ga: { enable: false, ecommerceEnable: false } },
    });
  });

  it('an unknown key is refused with its name, and nothing is sent', async () => {
    const d = writeFiles({ 'c.json': JSON.stringify({ name: 'X', groups: ['Newsletter'], subjct: 'typo' }) });
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--file', path.join(d, 'c.json')], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"subjct" is not a campaign file key');
    expect(sb.get().sandbox.requests('campaign').length).toBe(from);
  });
});

describe('A/B tests (endpoint 9)', () => {
  it('subject test: testingOn 1 and testing {proportion, time, unit} inside a top-level content (decisions row 9)', async () => {
    const from = fx.mark();
    const r = await runCli([
      'campaign', 'create', '--name', 'AB', '--group', news, '--ab', 'subject', '--subject-a', 'Hi', '--subject-b', 'Hello',
      '--from', 'news@example.com', '--from-name', 'Acme', '--html-file', file('mail.html'), '--test-percent', '40', '--test-duration', '2d',
    ], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const req = fx.submits(from)[0];
    expect(req.path).toBe('/v1/campaign/testing/submit');
    expect((req.body as any).content).toEqual({
      footerLang: 0, subjectA: 'Hi', subjectB: 'Hello', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>Hello ${NAME}</p>',
      testingOn: 1, testing: { proportion: 40, time: 2, unit: 1 },
    });
    expect((req.body as any).config.content).toBeUndefined();
  });

  it('content test: htmlContentA/B from the two files, 4h → time 4 unit 0', async () => {
    const from = fx.mark();
    const r = await runCli([
      'campaign', 'create', '--name', 'AB2', '--group', news, ...base, '--ab', 'content', '--html-file-a', file('a.html'), '--html-file-b', file('b.html'),
      '--test-percent', '50', '--test-duration', '4h',
    ], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).content).toMatchObject({ testingOn: 3, htmlContentA: '<p>Version A</p>', htmlContentB: '<p>Version B</p>', testing: { proportion: 50, time: 4, unit: 0 } });
  });
});

describe('one-time upload (endpoints 8 and 10)', () => {
  it('creates without groups, then PUTs the list file to the upload address without the API key', async () => {
    const from = fx.mark();
    const filesFrom = sb.get().sandbox.requests('files').length;
    const r = await runCli(['campaign', 'create', '--name', 'Once', '--once', '--recipients-file', file('guests.csv'), ...base, '--preheader', 'p', '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const req = fx.submits(from)[0];
    expect(req.path).toBe('/v1/campaign/normal/once');
    expect((req.body as any).form).toEqual({ name: 'Once' });
    const puts = sb.get().sandbox.requests('files').slice(filesFrom).filter((x) => x.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(puts[0].headers)).not.toContain(SANDBOX_KEYS.campaign);
    // The whole file, duplicates included: a one-time list is sent as is.
    expect(puts[0].bodyBytes).toBe(fs.statSync(file('guests.csv')).size);
    const status = await runCli(['campaign', 'status', r.stdout.trim(), '--json'], { sandbox: sb.get() });
    expect(JSON.parse(status.stdout).status).not.toBe('DRAFT'); // the service has its list
  });

  it('an A/B test with a one-time list goes to endpoint 10', async () => {
    const from = fx.mark();
    const r = await runCli([
      'campaign', 'create', '--name', 'Once AB', '--recipients-file', file('guests.csv'), ...base, '--ab', 'content', '--html-file-a', file('a.html'), '--html-file-b', file('b.html'),
      '--test-percent', '50', '--test-duration', '1h',
    ], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(fx.submits(from)[0].path).toBe('/v1/campaign/testing/once');
  });
});

describe('sender test and --json', () => {
  it('--ab sender: names from -a/-b, addresses default to --from; --json reports the code and schedule', async () => {
    const from = fx.mark();
    const r = await runCli([
      'campaign', 'create', '--name', 'Sender AB', '--group', news, '--subject', 'S', '--from', 'news@example.com', '--html', '<p>x</p>',
      '--ab', 'sender', '--from-name-a', 'Acme', '--from-name-b', 'Ann at Acme', '--from-b', 'marketing@example.com', '--test-percent', '20', '--test-duration', '4h', '--json',
    ], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).content).toEqual({
      footerLang: 0, subject: 'S', htmlContent: '<p>x</p>', testingOn: 2, testing: { proportion: 20, time: 4, unit: 0 },
      fromNameA: 'Acme', fromNameB: 'Ann at Acme', fromAddressA: 'news@example.com', fromAddressB: 'marketing@example.com',
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ sn: expect.stringMatching(/^CP/), type: 'A_B_TEST', abTest: 'sender', schedule: null });
  });
});

describe('refusals of the service, in words', () => {
  it('a refused list upload: exit 1, naming the campaign left without a list', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 403, match: { service: 'files', method: 'PUT' } });
    const r = await runCli(['campaign', 'create', '--name', 'Once', '--recipients-file', file('guests.csv'), ...base, '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/Uploading the list .*guests\.csv failed: The upload address at \S+ refused the file \(HTTP 403/);
    expect(r.stderr).toMatch(/The campaign CP\w+ exists but has no list/);
  });

  it('a passing 500 on the list upload is retried (the PUT is idempotent) and the campaign gets its list', async () => {
    const puts = () => sb.get().sandbox.requests('files').filter((q) => q.method === 'PUT');
    const before = puts().length;
    sb.get().sandbox.injectFault({ kind: 'status', status: 500, match: { service: 'files', method: 'PUT' } });
    const r = await runCli(['campaign', 'create', '--name', 'Once', '--recipients-file', file('guests.csv'), ...base, '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(puts().slice(before).map((q) => q.status)).toEqual([500, 200]);
    expect(puts().slice(before).every((q) => q.headers['x-api-key'] === undefined)).toBe(true);
  });

  it('40011: an unverified sender exits 1 with the sentence', async () => {
    const r = await runCli(['campaign', 'create', '--name', 'U', '--group', news, '--subject', 'S', '--from', 'someone@unverified-sender.com', '--from-name', 'X', '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The sender address is not verified.');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('a --query that fails on the answer after the create is no failure: exit 0, the whole result naming the campaign, a warning not to rerun', async () => {
    // --query compiles (checked before any request) but cannot be applied to the answer; the
    // campaign exists by then, so exit 2 ("nothing was sent") or a rerun hint would be wrong.
    const before = sb.get().sandbox.state.campaign.campaigns.length;
    const r = await runCli(['campaign', 'create', '--name', 'Made then failed', '--group', news, ...base, '--html', '<p>x</p>', '--query', 'abs(sn)'], { sandbox: sb.get() });
    const made = sb.get().sandbox.state.campaign.campaigns.slice(before);
    expect(made).toHaveLength(1); // the write happened, once
    expect(r.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(made[0].sn);
    expect(r.stderr).toContain('--query "abs(sn)" could not be applied to the result');
    expect(r.stderr).toContain('do not run it again');
  });

  it('a service failure after the campaign exists names it (no upload address for the list): exit 1', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { sn: 'CP_MADE' }, match: { service: 'campaign', method: 'POST', path: '/v1/campaign/normal/once' } });
    const r = await runCli(['campaign', 'create', '--name', 'Once', '--recipients-file', file('guests.csv'), ...base, '--html', '<p>x</p>', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('created campaign CP_MADE but gave no upload address');
    expect(JSON.parse(r.stdout).error).toMatchObject({ exitCode: 1 });
  });

  it('40001 naming form.excludeLists (decisions row 25): the fix in words, --exclude GROUP, exit 1', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 400, body: { code: '40001', invalidFields: ['form.excludeLists'] }, match: { service: 'campaign', method: 'POST', path: '/v1/campaign/normal/submit' } });
    const r = await runCli(['campaign', 'create', '--name', 'X', '--group', news, ...base, '--html', '<p>x</p>'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('requires at least one exclusion group');
    expect(r.stderr).toContain('Pass --exclude GROUP');
  });
});
