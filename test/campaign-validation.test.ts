// Every field rule of the spec's shared request structure (section 4, endpoints 7-10; limits in
// section 8) is checked before any request: each refusal exits 2 with a sentence and the sandbox
// receives no campaign request. Group problems (unknown, PROCESSING: section 3 rule 3) are found
// with a read of the group list, and still nothing is created.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { campaignFixtures, writeFiles } from './helpers/campaign-setup.js';
import { campaignApi, GROUP_SETUP } from './helpers/campaign-api.js';
import { parseTestDuration } from '../src/campaign/compose.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
  ],
});
const fx = campaignFixtures(sb.get);
const ok = ['--name', 'N', '--group', 'Newsletter', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];
const dir = writeFiles({ 'nohead.csv': 'ann@example.org,Ann\nbob@example.org,Bob\n', 'empty.html': '  \n' });

beforeAll(async () => {
  await fx.group('Newsletter', 2);
});

/** Runs create with `extra` replacing/adding flags; asserts exit 2, the sentence, and no request at all. */
async function refused(args: string[], sentence: string | RegExp) {
  const before = sb.get().sandbox.requests().length;
  const r = await runCli(['campaign', 'create', ...args], { sandbox: sb.get() });
  expect(r.exitCode).toBe(2);
  if (typeof sentence === 'string') expect(r.stderr).toContain(sentence);
  else expect(r.stderr).toMatch(sentence);
  expect(sb.get().sandbox.requests().length).toBe(before);
  return r;
}

const without = (flag: string, args = ok) => {
  const i = args.indexOf(flag);
  return [...args.slice(0, i), ...args.slice(i + 2)];
};
/** `args` with `flag` set to `value`: a flag that takes one value may be given only once (src/cli/repeats.ts). */
const withFlag = (flag: string, value: string, args = ok) => [...without(flag, args), flag, value];

describe('required fields (names marked * in the spec)', () => {
  it('form.name', () => refused(without('--name'), 'The campaign has no name'));
  it('form.selectedLists: at least one group', () => refused(without('--group'), 'The campaign has no group to send to'));
  it('content.subject', () => refused(without('--subject'), 'The campaign has no subject'));
  it('content.fromAddress', () => refused(without('--from'), 'The campaign has no sender address'));
  it('content.fromName', () => refused(without('--from-name'), 'The campaign has no sender name'));
  it('content.htmlContent', () => refused(without('--html'), 'The campaign has no html content'));
  it('an empty html file', () => refused([...without('--html'), '--html-file', `${dir}/empty.html`], 'is empty'));
});

describe('lengths: preheader 60, subject 150, sender name 50 (section 8)', () => {
  it('subject of 151 characters', () => refused(withFlag('--subject', 'x'.repeat(151)), 'is 151 characters long; the service allows at most 150'));
  it('preheader of 61 characters', () => refused([...ok, '--preheader', 'é'.repeat(61)], 'is 61 characters long; the service allows at most 60'));
  it('sender name of 51 characters', () => refused(withFlag('--from-name', 'n'.repeat(51)), 'is 51 characters long; the service allows at most 50'));
  it('a subject of exactly 150 characters passes the local check', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...withFlag('--subject', 'x'.repeat(150)), '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].body.content.subject).toBe('x'.repeat(150));
    expect(fx.submits(from)).toEqual([]);
  });
});

describe('analytics rules (config.ga)', () => {
  it('--ga needs both UTM fields', () => refused([...ok, '--ga', '--utm-campaign', 'c'], 'needs --utm-content'));
  it('--ecommerce needs --ga ("if true, enable must be true")', () => refused([...ok, '--ecommerce'], 'needs traffic analytics on too'));
  it('UTM fields without --ga', () => refused([...ok, '--utm-campaign', 'c', '--utm-content', 'd'], 'only used with analytics on'));
});

describe('A/B rules (endpoint 9)', () => {
  const ab = [...without('--subject'), '--ab', 'subject', '--subject-a', 'A', '--subject-b', 'B', '--test-duration', '4h'];
  it('proportion over 100', () => refused([...ab, '--test-percent', '101'], '--test-percent "101" is not a percentage; give a number from 0 to 100'));
  it('a duration that is not hours or days', () => refused([...withFlag('--test-duration', '90m', ab), '--test-percent', '20'], 'give whole hours or days'));
  it('a missing version', () => refused([...without('--subject'), '--ab', 'subject', '--subject-a', 'A', '--test-percent', '20', '--test-duration', '4h'], 'no subject of version B'));
  it('an A/B flag without --ab', () => refused([...ok, '--subject-b', 'B'], '--subject-b only applies to an A/B test'));
  it('an unknown test type', () => refused([...ok, '--ab', 'colour'], 'is not a test type'));
  it.each(['0h', '1.5h', '4', 'soon'])('--test-duration %s: not whole hours or days', async (v) => {
    await refused([...withFlag('--test-duration', v, ab), '--test-percent', '20'], `--test-duration "${v}" is not a duration the service takes; give whole hours or days`);
  });

  // The one duration parser (src/core/duration.ts) with the service's two units: the wizard asks
  // with the same rule, and a mix of units is added up.
  it('--test-duration: hours or days as written, spelled out or mixed', () => {
    expect(parseTestDuration('4h')).toEqual({ time: 4, unit: 0 });
    expect(parseTestDuration('2d')).toEqual({ time: 2, unit: 1 });
    expect(parseTestDuration('4 hours')).toEqual({ time: 4, unit: 0 });
    expect(parseTestDuration('2 days')).toEqual({ time: 2, unit: 1 });
    expect(parseTestDuration('1d12h')).toEqual({ time: 36, unit: 0 });
    expect(parseTestDuration('24h')).toEqual({ time: 24, unit: 0 });
    expect(parseTestDuration('1.5d')).toEqual({ time: 36, unit: 0 });
  });

  it('--test-duration 1d12h reaches the service as 36 hours', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...ab.slice(0, -2), '--test-percent', '20', '--test-duration', '1d12h'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((fx.submits(from)[0].body as any).content.testing).toEqual({ proportion: 20, time: 36, unit: 0 });
  });
});

describe('schedule and audience', () => {
  it('a time in the past', () => refused([...ok, '--at', '2020-01-01 09:00', '--timezone', 'TAIPEI'], /The schedule time 2020-01-01 09:00 TAIPEI \(2020-01-01T01:00:00Z UTC\) is in the past/));
  it('--at without any time zone', () => refused([...ok, '--at', '2035-01-01 09:00'], '--at needs a time zone'));
  it('an unknown time zone', () => refused([...ok, '--at', '2035-01-01 09:00', '--timezone', 'Mars/Olympus'], 'is not a time zone the campaign service knows'));
  it('--once with groups', () => refused([...ok, '--once', '--recipients-file', `${dir}/nohead.csv`], 'leave out --group and --exclude'));
  it('a one-time list without the EMAIL,NAME header', () => refused([...without('--group'), '--recipients-file', `${dir}/nohead.csv`], 'has no header line'));
  it('an unknown footer language', () => refused([...ok, '--footer-lang', 'fr'], 'is not a footer language'));
});

describe('several problems at once: one sentence each', () => {
  it('lists them all', async () => {
    const r = await refused(['--subject', 'x'.repeat(151), '--ga', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'], '4 problems with this campaign');
    expect(r.stderr).toContain('has no name');
    expect(r.stderr).toContain('no group to send to');
    expect(r.stderr).toContain('at most 150');
    expect(r.stderr).toContain('needs --utm-campaign and --utm-content');
  });
});

describe('groups checked against the account before creating', () => {
  it('an unknown group name: a read of the list, no campaign request', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', ...without('--group'), '--group', 'Nope'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('There is no group named or coded "Nope"');
    expect(fx.submits(from)).toEqual([]);
  });

  it('a group whose import is still running (PROCESSING) is refused', async () => {
    // The test's own group and import, then the CLI's group lookup: nothing else.
    const slow = await startTestSandbox({ delays: { importProcessing: 60_000 }, expect: ['POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/lists'] });
    try {
      const api = campaignApi(() => slow);
      const sn = (await api.post('/v1/contacts/lists/insert', { name: 'Importing' })).json.sn;
      await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: 'EMAIL,NAME\na@example.org,A' });
      const r = await runCli(['campaign', 'create', ...without('--group'), '--group', 'Importing'], { sandbox: slow });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`Group "Importing" (${sn}) is still importing contacts (PROCESSING)`);
      expect(slow.sandbox.requests('campaign').filter((x) => x.path.startsWith('/v1/campaign/'))).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});
