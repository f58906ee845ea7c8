// mailctl send sms: country codes (spec 001 section 2, decisions row 24), alive_mins (section 8),
// the regulatory content warnings (section 2, decisions row 17) and the {{variable}} checks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'GET /notify/v1/sms/events',
    'POST /notify/v1/sms/messages',
  ],
});
const smsPosts = () => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/sms/messages');
const TEXT = ['--text', '【Acme】Your code is {{code}}'];

describe('mailctl send sms', () => {
  it('sends one number with its country code; 886, documented by the vendor\'s reference though not the spec\'s list, with no warning (decisions row 24)', async () => {
    const r = await runCli(['send', 'sms', '--to', '0912-345-678', '--country-code', '+886', ...TEXT, '--var', 'code=A1B2'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('documented list');
    expect(smsPosts().at(-1)!.body).toEqual({ content: '【Acme】Your code is {{code}}', recipients: [{ address: '0912345678', country_code: '886', variables: { code: 'A1B2' } }] });
    expect(r.stdout).toMatch(/^recipient\tstatus\tmessage_id\treason\n\+886 0912345678\tsent\t\S+/);
  });

  it('a real calling code in neither documented list (218, Libya) is sent with a warning, not refused (decisions row 24)', async () => {
    const r = await runCli(['send', 'sms', '--to', '912345678', '--country-code', '218', ...TEXT, '--var', 'code=L1'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Country code 218 is not in the service\'s documented list of supported codes; the service may refuse it.');
    expect(smsPosts().at(-1)!.body).toMatchObject({ recipients: [{ address: '912345678', country_code: '218' }] });
  });

  it('--to is repeatable: each number sent and counted under the one --country-code', async () => {
    const r = await runCli(['send', 'sms', '--to', '0933100001', '--to', '0933100002', '--country-code', '886', ...TEXT, '--var', 'code=Z1'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 of 2 accepted');
    expect(smsPosts().at(-1)!.body).toMatchObject({ recipients: [{ address: '0933100001', country_code: '886', variables: { code: 'Z1' } }, { address: '0933100002', country_code: '886', variables: { code: 'Z1' } }] });
  });

  it('a documented code (81) gets no warning', async () => {
    const r = await runCli(['send', 'sms', '--to', '9012345678', '--country-code', '81', ...TEXT, '--var', 'code=X'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('documented list');
    expect(smsPosts().at(-1)!.body).toMatchObject({ recipients: [{ address: '9012345678', country_code: '81', variables: { code: 'X' } }] });
  });

  it('refuses, before any request, a code that is no calling code and a number with non-digits', async () => {
    const before = smsPosts().length;
    const code = await runCli(['send', 'sms', '--to', '0912345678', '--country-code', '999', ...TEXT, '--var', 'code=X'], { sandbox: sb.get() });
    expect(code.exitCode).toBe(2);
    expect(code.stderr).toContain('"999" is not a country calling code');
    const letters = await runCli(['send', 'sms', '--to', '0912ABC678', '--country-code', '886', ...TEXT, '--var', 'code=X'], { sandbox: sb.get() });
    expect(letters.exitCode).toBe(2);
    expect(letters.stderr).toContain('is not a phone number');
    const plus = await runCli(['send', 'sms', '--to', '+886912345678', '--country-code', '886', ...TEXT, '--var', 'code=X'], { sandbox: sb.get() });
    expect(plus.exitCode).toBe(2);
    expect(plus.stderr).toContain('includes a country code');
    expect(smsPosts().length).toBe(before);
  });

  it('"alive_mins: 5 to 480 … clamped to the nearest bound": clamps locally and says so', async () => {
    const high = await runCli(['send', 'sms', '--to', '0911111111', '--country-code', '886', ...TEXT, '--var', 'code=X', '--alive-mins', '900'], { sandbox: sb.get() });
    expect(high.exitCode).toBe(0);
    expect(high.stderr).toContain('--alive-mins 900 is above the maximum; using 480 minutes');
    expect((smsPosts().at(-1)!.body as { alive_mins: number }).alive_mins).toBe(480);
    const low = await runCli(['send', 'sms', '--to', '0911111112', '--country-code', '886', ...TEXT, '--var', 'code=X', '--alive-mins', '1'], { sandbox: sb.get() });
    expect(low.stderr).toContain('using 5 minutes');
    expect((smsPosts().at(-1)!.body as { alive_mins: number }).alive_mins).toBe(5);
    const bad = await runCli(['send', 'sms', '--to', '0911111113', '--country-code', '886', ...TEXT, '--var', 'code=X', '--alive-mins', 'soon'], { sandbox: sb.get() });
    expect(bad.exitCode).toBe(2);
  });

  it('warns when no sender identity is at the start or end, and when the text holds a link (allow-list rule)', async () => {
    const r = await runCli(['send', 'sms', '--to', '0922222222', '--country-code', '886', '--text', 'Your parcel is here: https://track.example.com/p/1 thanks'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('does not start or end with the sender\'s identity');
    expect(r.stderr).toContain('contains a link (track.example.com)');
    expect(r.stderr).toContain('allow-list');
    // The text is never rewritten.
    expect((smsPosts().at(-1)!.body as { content: string }).content).toBe('Your parcel is here: https://track.example.com/p/1 thanks');
    const named = await runCli(['send', 'sms', '--to', '0922222223', '--country-code', '886', '--text', 'Parcel arrived. Acme Logistics', '--brand', 'Acme Logistics'], { sandbox: sb.get() });
    expect(named.stderr).not.toContain('identity');
  });

  it('a recipients file: rows use their own country code or --country-code; a missing {{variable}} stops the run', async () => {
    const file = path.join(tempDir(), 'phones.csv');
    fs.writeFileSync(file, 'phone,country_code,code\n0933000001,,A1\n9012000002,81,B2\n0933000003,886,\n');
    const before = smsPosts().length;
    const miss = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', ...TEXT], { sandbox: sb.get() });
    expect(miss.exitCode).toBe(2);
    expect(miss.stderr).toContain('+886 0933000003 (code)');
    expect(smsPosts().length).toBe(before);
    fs.writeFileSync(file, 'phone,country_code,code\n0933000001,,A1\n9012000002,81,B2\n');
    const ok = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', ...TEXT, '--json'], { sandbox: sb.get() });
    expect(ok.exitCode).toBe(0);
    expect((smsPosts().at(-1)!.body as { recipients: unknown[] }).recipients).toEqual([
      { address: '0933000001', country_code: '886', variables: { code: 'A1' } },
      { address: '9012000002', country_code: '81', variables: { code: 'B2' } },
    ]);
    expect(JSON.parse(ok.stdout).recipients.map((r: { status: string }) => r.status)).toEqual(['sent', 'sent']);
  });

  it('batches and resumes like email: 150 numbers → 2 requests; an in-doubt SMS batch is checked with the SMS lookup', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'phones.csv');
    fs.writeFileSync(file, ['address,code', ...Array.from({ length: 150 }, (_, i) => `0955${String(i).padStart(6, '0')},C${i}`)].join('\n'));
    const journal = path.join(dir, 'j.jsonl');
    sb.get().sandbox.injectFault({ kind: 'drop', match: { service: 'notify', method: 'POST', path: '/v1/sms/messages' } });
    const r = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', ...TEXT, '--journal', journal, '--concurrency', '1'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    const resumed = await runCli(['send', 'sms', '--resume', journal, '--settle-after', '0s'], { sandbox: sb.get() });
    expect(resumed.exitCode).toBe(0);
    const lookups = sb.get().sandbox.requests('notify').filter((q) => q.path === '/v1/sms/events');
    expect(lookups.length).toBe(100);
    expect(lookups[0].query).toMatchObject({ recipient: '0955000000', country_code: '886' });
    const counts = new Map<string, number>();
    for (const m of Object.values(sb.get().sandbox.state.notify.messages)) if (m.channel === 'sms' && m.address.startsWith('0955')) counts.set(m.address, (counts.get(m.address) ?? 0) + 1);
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('a number with and without its trunk zero is one phone: the duplicates are skipped and it gets one SMS', async () => {
    const file = path.join(tempDir(), 'smsdup.csv');
    fs.writeFileSync(file, 'address,country_code\n0912345678,886\n912345678,886\n 0912-345-678,886\n');
    const before = smsPosts().length;
    const r = await runCli(['send', 'sms', '--recipients-file', file, '--text', '【Acme】Hello', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Skipping 2 duplicate recipients so nobody gets the message twice: +886 912345678 (row 3, first at row 2), +886 0912345678 (row 4, first at row 2)');
    const sent = smsPosts().slice(before).flatMap((q) => (q.body as { recipients: Array<{ address: string }> }).recipients.map((x) => x.address));
    expect(sent).toEqual(['0912345678']);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 1, sent: 1 });
  });
});

describe('send sms to more than 100 numbers asks first on a terminal', () => {
  it('shows the count, the first numbers with their codes and the text; no sends nothing (exit 2)', async () => {
    const file = path.join(tempDir(), 'phones.csv');
    fs.writeFileSync(file, ['address,code', ...Array.from({ length: 120 }, (_, i) => `0912${String(i).padStart(6, '0')},C${i}`)].join('\n'));
    const before = smsPosts().length;
    const p = scriptedPrompter([false]);
    const r = await runCli(['send', 'sms', '--recipients-file', file, '--country-code', '886', ...TEXT], { sandbox: sb.get(), tty: true, prompter: p });
    expect(r.exitCode).toBe(2);
    expect(p.asked).toEqual(['Send to all 120 recipients now?']);
    expect(r.stderr).toContain('This SMS send goes out now to 120 recipients: +886 0912000000, +886 0912000001, +886 0912000002 and 117 more.');
    expect(r.stderr).toContain('  Text:     "【Acme】Your code is {{code}}"');
    expect(smsPosts().length).toBe(before);
  });
});
