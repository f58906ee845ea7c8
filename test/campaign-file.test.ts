// `campaign create --file` (src/campaign/file.ts): a value of the wrong type is refused with one
// sentence naming its JSON path, the value and the type it must be (exit 2, nothing sent) —
// `config.ga.enable: "yes"` was silently read as false, and testing.* and the codes were cast
// unchecked. The "true"/"false" strings of the spec's older revision (section 9) still read.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures, writeFiles } from './helpers/campaign-setup.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit',
    'GET /campaign/v1/contacts/lists',
  ],
});
const fx = campaignFixtures(sb.get);
let news: string;

beforeAll(async () => {
  news = await fx.group('Newsletter', 2);
});

function specFile(content: Record<string, unknown>, config: Record<string, unknown>): string {
  const doc = {
    form: { name: 'Typed', selectedLists: [news], excludeLists: [] },
    content: { subject: 'S', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>x</p>', footerLang: 0, ...content },
    config: { schedule: { type: 0 }, ...config },
  };
  return path.join(writeFiles({ 'c.json': JSON.stringify(doc) }), 'c.json');
}

async function refused(file: string, sentences: string[]) {
  const before = sb.get().sandbox.requests().length;
  const r = await runCli(['campaign', 'create', '--file', file], { sandbox: sb.get() });
  for (const s of sentences) expect(r.stderr).toContain(s);
  expect(r.exitCode).toBe(2);
  expect(sb.get().sandbox.requests().length).toBe(before);
}

describe('wrong JSON types are refused, nothing sent', () => {
  it('config.ga.enable "yes" is not false', () =>
    refused(specFile({}, { ga: { enable: 'yes', ecommerceEnable: 1 } }), [
      'config.ga.enable is "yes" (a string); it must be true or false.',
      'config.ga.ecommerceEnable is 1 (a number); it must be true or false.',
    ]));

  it('testing.*, testingOn and schedule.type are checked, not cast', () =>
    refused(specFile({ subjectA: 'A', subjectB: 'B', testingOn: true, testing: { proportion: {}, time: '4', unit: 2 } }, { schedule: { type: true } }), [
      'content.testingOn is true (a boolean); it must be 1 (subject), 2 (sender) or 3 (content).',
      'content.testing.proportion is {} (an object); it must be a number from 0 to 100.',
      'content.testing.time is "4" (a string); it must be a whole number above 0',
      'content.testing.unit is 2 (a number); it must be 0 (hours) or 1 (days).',
      'config.schedule.type is true (a boolean); it must be 0 (send now) or 1 (scheduled).',
    ]));

  it('a scheduled send without its date and zone names them as missing, not "undefined"', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['campaign', 'create', '--file', specFile({}, { schedule: { type: 1 } })], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('config.schedule.timezone is missing; it must be a time zone code (a number from 0 to 87) when config.schedule.type is 1.');
    expect(r.stderr).toContain('config.schedule.scheduleDate is missing; it must be a UTC ISO 8601 date-time when config.schedule.type is 1.');
    expect(r.stderr).not.toContain('undefined');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('the flat form names the value too', async () => {
    const file = path.join(writeFiles({ 'c.json': JSON.stringify({ name: 'Flat', groups: ['Newsletter'], subject: 7, ga: 'yes', from: 'news@example.com', fromName: 'Acme', html: '<p>x</p>' }) }), 'c.json');
    await refused(file, ['subject is 7 (a number); it must be a string.', 'ga is "yes" (a string); it must be true or false.']);
  });
});

describe('what the spec sends is still read', () => {
  it('ga flags as the strings "true"/"false" (the older revision, section 9) and codes as digit strings', async () => {
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--file', specFile({}, { schedule: { type: '0' }, ga: { enable: 'true', ecommerceEnable: 'false', utmCampaign: 'dec', utmContent: 'mail' } })], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((fx.submits(from)[0].body as any).config).toEqual({ schedule: { type: 0 }, ga: { enable: true, ecommerceEnable: false, utmCampaign: 'dec', utmContent: 'mail' } });
  });
});
