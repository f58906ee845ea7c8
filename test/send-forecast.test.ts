// Credit forecast (decisions rows P7, P8): `send sms` and every send --dry-run say what the send
// will draw — recipients, and for SMS the parts of each recipient's own text — and a real run
// weighs it against GET /v1/balance (a dry run shows that lookup without making it): a send the
// balance cannot cover is refused before any send request (exit 2) unless --ignore-balance. The sandbox bills `point` with the same counter, so a forecast can be checked
// against what the sandbox actually took off the balance.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import { eventually, notifyApi } from './helpers/notify-api.js';
import { PART, smsSegments } from '../src/spec/sms-segments.js';
import { keyOf, type JournalRecord } from '../src/send/journal.js';
import { journalPlan, journalText } from './helpers/journal-plan.js';
import { NOT_READ_IN_DRY_RUN } from '../src/send/balance.js';
import { shellWords } from './helpers/help-examples.js';

const sb = useSandbox({
  expect: [
    'PUT /campaign/_sandbox/balance',
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit', // campaign create's balance warning, on a real (scheduled) create
    'POST /campaign/v1/contacts/imports/:listSn/text',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'POST /notify/v1/messages',
    'GET /notify/v1/sms/events',
    'POST /notify/v1/sms/messages',
  ],
});
const notify = notifyApi(sb.get);
const campaign = campaignApi(sb.get);
const balance = () => sb.get().sandbox.state.campaign.balance;
const setBalance = (b: { email?: number; sms?: number }) => Object.assign(balance(), b);
const smsPosts = (prefix: string) => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/sms/messages' && JSON.stringify(r.body).includes(prefix));
const emailPosts = (marker: string) => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages' && JSON.stringify(r.body).includes(marker));
const balanceLookups = () => sb.get().sandbox.requests('campaign').filter((r) => r.method === 'GET' && r.path === '/v1/balance');
const han = (n: number) => '簡'.repeat(n);

function recipientsFile(rows: string[][]): string {
  const file = path.join(tempDir('mailctl-forecast-'), 'people.csv');
  fs.writeFileSync(file, rows.map((r) => r.join(',')).join('\n') + '\n');
  return file;
}

describe('SMS parts (decisions row P7): one counter for the forecast and the sandbox', () => {
  it('GSM-7: 160 in one message, then parts of 153; an extension character takes two septets', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1 });
    expect(smsSegments('a'.repeat(161)).parts).toBe(2);
    expect(smsSegments('a'.repeat(306)).parts).toBe(2);
    expect(smsSegments('a'.repeat(307)).parts).toBe(3);
    expect(smsSegments('a'.repeat(159) + '{')).toEqual({ encoding: 'GSM-7', units: 161, parts: 2 });
    expect(smsSegments('é£€ Ä§ ñ').encoding).toBe('GSM-7');
  });

  it('UCS-2: any character outside GSM-7 (Chinese, 【】, a backtick) — 70 in one message, then parts of 67; 268 is four parts', () => {
    expect(smsSegments(han(70))).toEqual({ encoding: 'UCS-2', units: 70, parts: 1 });
    expect(smsSegments(han(71)).parts).toBe(2);
    expect(smsSegments(han(134)).parts).toBe(2);
    expect(smsSegments(han(135)).parts).toBe(3);
    expect(smsSegments(han(268)).parts).toBe(4); // decisions row 17's 268-character cap
    expect(smsSegments('【Acme】hi').encoding).toBe('UCS-2');
    expect(smsSegments('a'.repeat(100) + '`').parts).toBe(2);
  });

  it('an emoji takes two UTF-16 units and is never split across parts', () => {
    expect(smsSegments('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', units: 70, parts: 1 });
    // 36 emoji = 72 units: 33 fit in a 67-unit part (66), the other 3 start the next.
    expect(smsSegments('😀'.repeat(36)).parts).toBe(2);
    // 1 + 67 emoji = 135 units: parts of 67 (a + 33), 66 (33) and 2 (1).
    expect(smsSegments('a' + '😀'.repeat(67)).parts).toBe(3);
  });

  it('parts always hold the text: never fewer than ceil(units / part size), exactly that without two-unit characters', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '{', '€', '簡', '😀', 'é'), maxLength: 400 }), (t) => {
      const s = smsSegments(t);
      const ceil = s.units <= (s.encoding === 'GSM-7' ? 160 : 70) ? 1 : Math.ceil(s.units / PART[s.encoding]);
      expect(s.parts).toBeGreaterThanOrEqual(ceil);
      if (!/[{€😀]/u.test(t)) expect(s.parts).toBe(ceil);
    }));
  });

  it('the sandbox bills the same count: a 160-character text with one "{" is point 2 and takes 2 off the balance', async () => {
    setBalance({ sms: 500 });
    const r = await notify('POST', '/v1/sms/messages', { content: '[Acme] ' + 'a'.repeat(152) + '{', recipients: [{ address: '0933000001', country_code: '886' }] });
    expect(r.status).toBe(200);
    expect(balance().sms).toBe(498);
    const id = r.body.success[0].id;
    const logs = await eventually(async () => {
      const q = await notify('GET', `/v1/sms/events?id=${id}&status=delivery`);
      return q.body.logs?.length ? q.body.logs : undefined;
    }, 'the delivery event');
    expect(logs[0].rawEvent.point).toBe(2);
  });
});

describe('send sms: the forecast, per recipient, against the balance', () => {
  it('counts each recipient\'s own text (variables change the length and the encoding) and matches what the sandbox billed', async () => {
    setBalance({ sms: 500 });
    const file = recipientsFile([['address', 'name'], ['0933100001', 'Ann'], ['0933100002', '王小明'], ['0933100003', 'B'.repeat(90)]]);
    const before = balance().sms;
    const r = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', '--text', `[Acme] Hello {{name}}, your parcel is ready. ${'x'.repeat(60)}`], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    // Ann: GSM-7, 1 part; 王小明: UCS-2 (>70 units), 2 parts; 90 B's: GSM-7 over 160, 2 parts.
    expect(r.stderr).toContain('Forecast: 3 SMS, 5 parts (GSM-7 and UCS-2, 1 to 2 parts each); SMS balance 500.');
    expect(before - balance().sms).toBe(5);
  });

  it('a send the balance cannot cover is refused before any send request: exit 2, INSUFFICIENT_BALANCE, no journal', async () => {
    setBalance({ sms: 2 });
    const configDir = tempDir();
    const before = smsPosts('0933200').length;
    const lookups = balanceLookups().length;
    const r = await runCli(['send', 'sms', '--to', '0933200001', '--country-code', '886', '--text', `[Acme] ${'z'.repeat(400)}`, '--json'], { sandbox: sb.get(), configDir });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', exitCode: 2 });
    expect(JSON.parse(r.stdout).error.message).toBe('This send needs 3 SMS parts and the SMS balance is 2; nothing was sent.');
    expect(smsPosts('0933200').length).toBe(before);
    expect(balanceLookups().length).toBe(lookups + 1);
    expect(fs.existsSync(path.join(configDir, 'journals')) ? fs.readdirSync(path.join(configDir, 'journals')) : []).toEqual([]);
  });

  it('--ignore-balance sends it anyway, with a warning that says by how much it is short', async () => {
    setBalance({ sms: 1 });
    const before = smsPosts('0933300').length;
    const r = await runCli(['send', 'sms', '--to', '0933300001', '--country-code', '886', '--text', `[Acme] ${'z'.repeat(200)}`, '--ignore-balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Forecast: 1 SMS, 2 parts (GSM-7, 2 parts each); SMS balance 1, 1 short. Sending anyway (--ignore-balance)');
    expect(smsPosts('0933300').length).toBe(before + 1);
  });

  it('the sandbox balance is set with `sandbox balance --set-sms N` (the back office\'s top-up), and the forecast follows it', async () => {
    const set = await runCli(['sandbox', 'balance', '--set-sms', '4', '--set-email', '900', '--json'], { sandbox: sb.get() });
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ email: 900, sms: 4 });
    expect(balance()).toEqual({ email: 900, sms: 4 });
    const bad = await runCli(['sandbox', 'balance', '--set-sms', 'lots'], { sandbox: sb.get() });
    expect(bad.exitCode).toBe(2);
    expect(balance().sms).toBe(4);
    const r = await runCli(['send', 'sms', '--to', '0933400001', '--country-code', '886', '--text', '[Acme] hi'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('SMS balance 4.');
    expect(balance().sms).toBe(3);
  });

  it('a balance that cannot be read (no campaign key; the lookup fails) is one warning, and the SMS is sent', async () => {
    setBalance({ sms: 0 });
    const noKey = await runCli(['send', 'sms', '--to', '0933500001', '--country-code', '886', '--text', '[Acme] hi'], { sandbox: sb.get(), env: { MAILCTL_CAMPAIGN_API_KEY: undefined } });
    expect(noKey.exitCode).toBe(0);
    expect(noKey.stderr).toContain('The balance could not be checked (no API key for the campaign service, which keeps the balance); this send goes on');
    expect(smsPosts('0933500001')).toHaveLength(1);
    sb.get().sandbox.injectFault({ kind: 'status', status: 500, body: { message: 'down' }, times: 20, match: { service: 'campaign', method: 'GET', path: '/v1/balance' } });
    const failed = await runCli(['send', 'sms', '--to', '0933500002', '--country-code', '886', '--text', '[Acme] hi'], { sandbox: sb.get(), tuning: { retryBaseMs: 1 } });
    expect(failed.exitCode).toBe(0);
    sb.get().sandbox.faults.length = 0; // what the retries did not use
    expect(failed.stderr).toContain('The balance could not be checked (');
    expect(smsPosts('0933500002')).toHaveLength(1);
  });
});

// A dry run makes no request: the usage is counted, and the balance lookup a real run makes
// first is shown, not made.
describe('--dry-run: the forecast with the requests, nothing sent', () => {
  it('send sms --dry-run --json: a forecast object with the parts; the balance lookup shown, not made; exits 0', async () => {
    setBalance({ sms: 1 });
    const looked = balanceLookups().length;
    const file = recipientsFile([['address', 'code'], ['0933600001', 'A1'], ['0933600002', 'B2']]);
    const r = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', '--text', '【Acme】您的驗證碼 {{code}}', '--dry-run', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.forecast).toEqual({ channel: 'sms', recipients: 2, needed: 2, sms: { partsPerMessage: { min: 1, max: 1 }, encodings: { 'GSM-7': 0, 'UCS-2': 2 } }, balance: null, covered: null, notChecked: NOT_READ_IN_DRY_RUN });
    expect(doc.requests).toHaveLength(1);
    expect(doc.lookups).toEqual([expect.objectContaining({ method: 'GET', url: `${sb.get().campaignUrl}/v1/balance` })]);
    expect(r.stderr).toContain('Forecast: 2 SMS, 2 parts (UCS-2, 1 part each). The balance is not read in a dry run');
    expect(balanceLookups()).toHaveLength(looked);
    expect(smsPosts('0933600')).toHaveLength(0);
  });

  it('send --dry-run (email): the recipients counted, on stderr and in --json; the balance not read', async () => {
    setBalance({ email: 2 });
    const looked = balanceLookups().length;
    const file = recipientsFile([['address'], ['fc1@example.com'], ['fc2@example.com'], ['fc3@example.com']]);
    const args = ['send', '--recipients-file', file, '--subject', 'Forecast dry', '--html', '<p>x</p>', '--from', 'noreply@example.com', '--dry-run'];
    const text = await runCli(args, { sandbox: sb.get() });
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toContain('Forecast: 3 emails. The balance is not read in a dry run: a real run reads it first and refuses a send it cannot cover unless --ignore-balance');
    const json = await runCli([...args, '--json'], { sandbox: sb.get() });
    expect(JSON.parse(json.stdout).forecast).toEqual({ channel: 'email', recipients: 3, needed: 3, balance: null, covered: null, notChecked: NOT_READ_IN_DRY_RUN });
    expect(balanceLookups()).toHaveLength(looked);
    expect(emailPosts('Forecast dry')).toHaveLength(0);
  });

  it('a real email send the email balance cannot cover is refused (exit 2, nothing sent); a covered one says nothing about it', async () => {
    setBalance({ email: 2 });
    const file = recipientsFile([['address'], ['fr1@example.com'], ['fr2@example.com'], ['fr3@example.com']]);
    const short = await runCli(['send', '--recipients-file', file, '--subject', 'Forecast real', '--html', '<p>x</p>', '--from', 'noreply@example.com'], { sandbox: sb.get() });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toContain('This send needs 3 emails and the email balance is 2; nothing was sent.');
    expect(short.stderr).toContain('--ignore-balance');
    expect(emailPosts('Forecast real')).toHaveLength(0);
    setBalance({ email: 10 });
    const ok = await runCli(['send', '--recipients-file', file, '--subject', 'Forecast real', '--html', '<p>x</p>', '--from', 'noreply@example.com'], { sandbox: sb.get() });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).not.toContain('Forecast');
    expect(emailPosts('Forecast real')).toHaveLength(1);
  });
});

describe('--resume forecasts only the recipients not yet sent', () => {
  /** A journal of 150 SMS whose first batch of 100 was sent and recorded: 50 are left. */
  function halfSentJournal(prefix: string): string {
    const recipients = Array.from({ length: 150 }, (_, i) => ({ address: `${prefix}${String(i).padStart(3, '0')}`, country_code: '886' }));
    const plan = journalPlan({ kind: 'sms', message: { content: '[Acme] your parcel is ready' }, recipients }, sb.get());
    const first = recipients.slice(0, 100).map((r) => keyOf(plan, r));
    const at = new Date().toISOString();
    const records: JournalRecord[] = [plan, { type: 'intent', batch: '1', keys: first, at }, { type: 'result', batch: '1', at, requestId: 'r1', success: Object.fromEntries(first.map((k, i) => [k, `m${i}`])), failure: {} }];
    const file = path.join(tempDir('mailctl-forecast-'), 'send-sms.jsonl');
    fs.writeFileSync(file, journalText(records));
    return file;
  }

  it('dry run and real resume count 50, not 150: refused at 40 (nothing sent), sent at 60', async () => {
    const file = halfSentJournal('0933700');
    setBalance({ sms: 40 });
    const dry = await runCli(['send', '--resume', file, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout).forecast).toMatchObject({ recipients: 50, needed: 50, balance: null, covered: null });
    const refused = await runCli(['send', '--resume', file], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('This resume needs 50 SMS parts and the SMS balance is 40; nothing was sent.');
    expect(smsPosts('0933700')).toHaveLength(0);
    setBalance({ sms: 60 });
    const r = await runCli(['send', '--resume', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Forecast: 50 SMS, 50 parts (GSM-7, 1 part each); SMS balance 60.');
    expect(smsPosts('0933700').map((q) => (q.body as { recipients: unknown[] }).recipients.length)).toEqual([50]);
  });
});

// --forecast: everything a send checks, then the balance read and nothing else; nothing written.
describe('send --forecast: the balance read, the forecast printed, nothing sent or written', () => {
  const since = (n: number) => sb.get().sandbox.requests().slice(n).map((q) => `${q.method} ${q.service}${q.path}`);
  const journals = (dir: string) => (fs.existsSync(path.join(dir, 'journals')) ? fs.readdirSync(path.join(dir, 'journals')) : []);

  it('covered: exit 0, usage, balance and verdict on stdout (--json: {forecast}); the one request is GET /v1/balance', async () => {
    setBalance({ email: 10 });
    const configDir = tempDir();
    const file = recipientsFile([['address'], ['fo1@example.com'], ['fo2@example.com'], ['fo3@example.com']]);
    const args = ['send', '--recipients-file', file, '--subject', 'Forecast only', '--html', '<p>x</p>', '--from', 'noreply@example.com', '--forecast'];
    const n = sb.get().sandbox.requests().length;
    const r = await runCli(args, { sandbox: sb.get(), configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('Forecast: 3 emails; email balance 10: covered, 7 left after it.\n');
    const json = await runCli([...args, '--json'], { sandbox: sb.get(), configDir });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ forecast: { channel: 'email', recipients: 3, needed: 3, balance: 10, covered: true } });
    expect(since(n)).toEqual(['GET campaign/v1/balance', 'GET campaign/v1/balance']);
    expect(journals(configDir)).toEqual([]);
    expect(emailPosts('Forecast only')).toHaveLength(0);
  });

  it('send sms not covered: exit 2 INSUFFICIENT_BALANCE, the forecast in the same --json document; --ignore-balance makes it a warning (exit 0); nothing sent', async () => {
    setBalance({ sms: 2 });
    const args = ['send', 'sms', '--to', '0933800001', '--country-code', '886', '--text', `[Acme] ${'z'.repeat(400)}`, '--forecast'];
    const r = await runCli([...args, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.forecast).toEqual({ channel: 'sms', recipients: 1, needed: 3, sms: { partsPerMessage: { min: 3, max: 3 }, encodings: { 'GSM-7': 1, 'UCS-2': 0 } }, balance: 2, covered: false });
    expect(doc.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', exitCode: 2 });
    const text = await runCli(args, { sandbox: sb.get() });
    expect(text.exitCode).toBe(2);
    expect(text.stdout).toBe('Forecast: 1 SMS, 3 parts (GSM-7, 3 parts each); SMS balance 2: not covered, 1 short.\n');
    expect(text.stderr).toContain('This send needs 3 SMS parts and the SMS balance is 2; it would be refused, and nothing was sent.');
    const forced = await runCli([...args, '--ignore-balance'], { sandbox: sb.get() });
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr).toContain('With --ignore-balance the send would go anyway');
    expect(smsPosts('0933800001')).toHaveLength(0);
  });

  it('checks the input as a send does (exit 2 before any request); with --dry-run it is refused, nothing asked', async () => {
    const n = sb.get().sandbox.requests().length;
    const missing = await runCli(['send', '--to', 'fo@example.com', '--subject', 'Hi {{name}}', '--html', '<p>x</p>', '--from', 'noreply@example.com', '--forecast'], { sandbox: sb.get() });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no value for variables used in the message');
    const both = await runCli(['send', '--to', 'fo@example.com', '--subject', 'Hi', '--html', '<p>x</p>', '--from', 'noreply@example.com', '--forecast', '--dry-run'], { sandbox: sb.get() });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--forecast reads the balance, and --dry-run reads nothing; give one of them.');
    expect(since(n)).toEqual([]);
  });

  it('a dry run suggests the exact --forecast command; pasted, it reads the balance and says whether it covers the send', async () => {
    setBalance({ email: 1 });
    const file = recipientsFile([['address', 'name'], ['fp1@example.com', 'Ann'], ['fp2@example.com', 'Bo']]);
    const dry = await runCli(['send', '--recipients-file', file, '--subject', 'Hi {{name}}', '--html', '<p>Dear {{name}}</p>', '--from', 'noreply@example.com', '--dry-run'], { sandbox: sb.get() });
    expect(dry.exitCode).toBe(0);
    // The flags in the order the command declares them (its --help order).
    const suggested = `mailctl send --subject 'Hi {{name}}' --html '<p>Dear {{name}}</p>' --from noreply@example.com --recipients-file ${file} --forecast`;
    expect(dry.stderr).toContain(`reading only that and sending nothing: ${suggested})`);
    const n = sb.get().sandbox.requests().length;
    const pasted = await runCli(shellWords(suggested).slice(1), { sandbox: sb.get() });
    expect(pasted.exitCode).toBe(2);
    expect(pasted.stdout).toBe('Forecast: 2 emails; email balance 1: not covered, 1 short.\n');
    expect(since(n)).toEqual(['GET campaign/v1/balance']);
  });

  it('--resume --forecast counts the recipients not yet sent and leaves the journal as it was', async () => {
    const recipients = Array.from({ length: 3 }, (_, i) => ({ address: `fr${i}@example.com` }));
    const plan = journalPlan({ kind: 'email', batchSize: 1, message: { subject: 'S', fromAddress: 'noreply@example.com', content: '<p>x</p>' }, recipients }, sb.get());
    const at = new Date().toISOString();
    const records: JournalRecord[] = [plan, { type: 'intent', batch: '1', keys: ['fr0@example.com'], at }, { type: 'result', batch: '1', at, requestId: 'r1', success: { 'fr0@example.com': 'm0' }, failure: {} }];
    const file = path.join(tempDir('mailctl-forecast-'), 'send-email.jsonl');
    fs.writeFileSync(file, journalText(records));
    const before = fs.readFileSync(file, 'utf8');
    setBalance({ email: 5 });
    const dry = await runCli(['send', '--resume', file, '--dry-run'], { sandbox: sb.get() });
    expect(dry.stderr).toContain(`reading only that and sending nothing: mailctl send --resume ${file} --forecast)`);
    const r = await runCli(['send', '--resume', file, '--forecast', '--json'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).forecast).toMatchObject({ recipients: 2, needed: 2, balance: 5, covered: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['send-email.jsonl']);
  });
});

describe('campaign create: the groups\' subscribed count against the email balance', () => {
  it('one warning line when the chosen groups hold more than the email balance; one balance request, no extra group request', async () => {
    const mk = async (name: string, n: number) => {
      const sn = (await campaign.post('/v1/contacts/lists/insert', { name })).json.sn as string;
      const rows = Array.from({ length: n }, (_, i) => `${name.toLowerCase()}${i}@example.org,P${i}`);
      const started = await campaign.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', ...rows].join('\n') });
      await pollUntil(() => campaign.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
      return sn;
    };
    const a = await mk('ForecastA', 4);
    const b = await mk('ForecastB', 3);
    // Scheduled far ahead, so the campaign that fits stays waiting and spends nothing.
    const args = ['campaign', 'create', '--name', 'Forecast', '--group', a, '--group', b, '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>', '--at', '2035-01-01 09:00', '--timezone', 'UTC'];
    setBalance({ email: 6 });
    const mark = sb.get().sandbox.requests('campaign').length;
    const r = await runCli(args, { sandbox: sb.get() });
    expect(r.exitCode).toBe(1); // the service refuses what the balance cannot cover (40012)
    expect(r.stderr.split('\n').filter((l) => l.includes('subscribed contacts'))).toEqual([
      expect.stringContaining('The chosen groups hold 7 subscribed contacts and the email balance is 6'),
    ]);
    const made = sb.get().sandbox.requests('campaign').slice(mark);
    expect(made.filter((q) => q.path === '/v1/balance')).toHaveLength(1);
    expect(made.filter((q) => q.path === '/v1/contacts/lists')).toHaveLength(1);
    // A dry run shows both lookups and makes neither, so it cannot warn.
    const dryMark = sb.get().sandbox.requests('campaign').length;
    const dry = await runCli([...args, '--dry-run', '--json'], { sandbox: sb.get() });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout).lookups.map((l: { url: string }) => l.url.replace(/\?.*/, ''))).toEqual([`${sb.get().campaignUrl}/v1/contacts/lists`, `${sb.get().campaignUrl}/v1/balance`]);
    expect(dry.stderr).not.toContain('subscribed contacts');
    expect(sb.get().sandbox.requests('campaign')).toHaveLength(dryMark);
    setBalance({ email: 7 });
    const fits = await runCli(args, { sandbox: sb.get() });
    expect(fits.exitCode, fits.stderr).toBe(0);
    expect(fits.stderr).not.toContain('subscribed contacts');
  });
});
