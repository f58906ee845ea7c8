// mailctl events (spec 001 section 4 lookups): email and SMS events by filter.
import { describe, expect, it } from 'vitest';
import { runCli, tsvRows } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { eventually, notifyApi } from './helpers/notify-api.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance', // send sms, making the events to look up, weighs each run against the balance
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
    'GET /notify/v1/sms/events',
    'POST /notify/v1/sms/messages',
  ],
});
const notify = notifyApi(sb.get);
const last = (p: string) => sb.get().sandbox.requests('notify').filter((r) => r.path === p).at(-1)!;

describe('mailctl events', () => {
  it('email lookup: filters become the query (times as UTC ISO 8601), TSV piped, --json and --csv', async () => {
    const sent = await runCli(['send', '--to', 'ev-1.bounce@example.com', '--subject', 'Hello, "world"', '--html', 'x', '--from', 'noreply@example.com', '--json'], { sandbox: sb.get() });
    const id = JSON.parse(sent.stdout).recipients[0].messageId;
    const r = await runCli(['events', '--recipient', 'ev-1.bounce@example.com', '--status', 'accept,delivery', '--since', '2024-05-01', '--until', '2099-12-31'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(last('/v1/events').query).toEqual({ recipient: 'ev-1.bounce@example.com', status: 'accept,delivery', from: '2024-05-01T00:00:00Z', to: '2099-12-31T23:59:59Z' });
    expect(r.stdout.split('\n')[0]).toBe('time\tstatus\tmessage_id\trecipient\tsubject\tdetail');
    expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^\\d{4}-.*Z\\taccept\\t${id}\\tev-1\\.bounce@example\\.com\\tHello, "world"\\t$`));

    const json = await runCli(['events', '--id', id, '--json'], { sandbox: sb.get() });
    expect(JSON.parse(json.stdout).logs[0]).toMatchObject({ messageId: id, status: 'accept' });
    const csv = await runCli(['events', '--id', id, '--csv'], { sandbox: sb.get() });
    const rows = csv.stdout.split('\n');
    expect(rows[0]).toBe('time,status,message_id,recipient,subject,detail');
    expect(rows[1]).toContain(`,accept,${id},ev-1.bounce@example.com,"Hello, ""world""",`);
  });

  it('refuses an unknown status and --csv with --json before any request', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    const bad = await runCli(['events', '--status', 'delivered'], { sandbox: sb.get() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('"delivered" is not one');
    expect((await runCli(['events', '--sms', '--status', 'open', '--id', 'x'], { sandbox: sb.get() })).exitCode).toBe(2);
    expect((await runCli(['events', '--csv', '--json'], { sandbox: sb.get() })).exitCode).toBe(2);
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
  });

  it('a --recipient that is not an email address (with --sms: not a national number) is refused before any request: exit 2, the value and the fix named', async () => {
    const before = sb.get().sandbox.requests('notify').length;
    const email = await runCli(['events', '--recipient', 'notanemail'], { sandbox: sb.get() });
    expect([email.exitCode, email.stderr]).toEqual([2, expect.stringContaining('--recipient "notanemail" is not an email address; give one such as someone@example.com (with --sms, a national number).')]);
    const sms = await runCli(['events', '--sms', '--recipient', 'abc', '--country-code', '886'], { sandbox: sb.get() });
    expect([sms.exitCode, sms.stderr]).toEqual([2, expect.stringContaining('--recipient: "abc" is not a phone number (digits only, 4 to 15 of them); for example --recipient 0912345678 --country-code 886.')]);
    const plus = await runCli(['events', '--sms', '--recipient', '+886912345678', '--country-code', '886'], { sandbox: sb.get() });
    expect([plus.exitCode, plus.stderr]).toEqual([2, expect.stringContaining('includes a country code')]);
    expect(sb.get().sandbox.requests('notify').length).toBe(before);
    // A national number written with spaces and hyphens is the same number: looked up as digits.
    const spaced = await runCli(['events', '--sms', '--recipient', '0912-345 678', '--country-code', '886'], { sandbox: sb.get() });
    expect(spaced.exitCode).toBe(0);
    expect(last('/v1/sms/events').query).toMatchObject({ recipient: '0912345678', country_code: '886' });
  });

  it('SMS lookup needs --id or --recipient with --country-code, and states the 30-day window and 50-row cap when hit', async () => {
    const none = await runCli(['events', '--sms', '--recipient', '0912345678'], { sandbox: sb.get() });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('--recipient with --country-code');

    for (let i = 0; i < 26; i++) await runCli(['send', 'sms', '--to', '0966000001', '--country-code', '886', '--text', `【Acme】n${i}`], { sandbox: sb.get() });
    // 26 messages × (accept + delivery) = 52 events; the service returns the first 50. Wait
    // (asking the service itself) until all 26 deliveries are there.
    await eventually(async () => (await notify('GET', '/v1/sms/events?recipient=0966000001&country_code=886&status=delivery')).body.logs.length === 26, '26 SMS deliveries');
    const r = await runCli(['events', '--sms', '--recipient', '0966000001', '--country-code', '886', '--since', '45d'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    // With only --since, the lookup runs up to now (the service's own default end is a month after
    // from); a start further back than the service keeps is moved to the 30-day limit, and said.
    const q = last('/v1/sms/events').query;
    expect(q).toMatchObject({ recipient: '0966000001', country_code: '886' });
    expect(Date.parse(q.to) - Date.parse(q.from)).toBeGreaterThan(29 * 86_400_000);
    expect(Date.parse(q.to) - Date.parse(q.from)).toBeLessThanOrEqual(30 * 86_400_000);
    expect(tsvRows(r.stdout)).toHaveLength(50);
    expect(r.stderr).toContain(`--since "45d" reaches back further than the 30 days the service keeps SMS events; looking from ${q.from}, the 30-day limit.`);
    expect(r.stderr).toContain('at most the first 50 rows');
  });
});
