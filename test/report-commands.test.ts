// `mailctl report list|metrics|export|links` — reports from cron: finished campaigns (endpoint
// 14, both dates or neither), metrics with rates (endpoint 15), export (16) → links (17, decisions
// rows 7 and 8) → the six CSV files downloaded without the API key; a bad --out refused before
// anything is requested. Hostile links and file names: test/report-download.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'GET /campaign/v1/campaign/normal/:sn',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/report/:sn/export',
    'GET /campaign/v1/report/:sn/link',
    'GET /campaign/v1/report/campaigns',
    'POST /campaign/v1/report/campaigns/metrics',
    'GET /files/d/:token',
  ],
});
const fx = campaignFixtures(sb.get);
const sender = ['--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];
let regular: string;
let ab: string;

async function sent(args: string[]): Promise<string> {
  const r = await runCli(['campaign', 'create', ...args, ...sender], { sandbox: sb.get() });
  expect(r.exitCode).toBe(0);
  const sn = r.stdout.trim();
  expect((await runCli(['campaign', 'status', sn, '--wait'], { sandbox: sb.get() })).exitCode).toBe(0);
  return sn;
}

beforeAll(async () => {
  await fx.group('Readers', 40);
  [regular, ab] = await Promise.all([
    sent(['--name', 'Monthly', '--group', 'Readers', '--subject', 'News']),
    sent(['--name', 'Subject test', '--group', 'Readers', '--ab', 'subject', '--subject-a', 'A', '--subject-b', 'B', '--test-percent', '50', '--test-duration', '1h']),
  ]);
});

describe('report list', () => {
  it('without dates: the most recent finished campaigns', async () => {
    const r = await runCli(['report', 'list'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const [header, ...lines] = r.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(header).toEqual(['code', 'name', 'sent_from', 'sent_until']);
    expect(lines.map((l) => l[0])).toEqual(expect.arrayContaining([regular, ab]));
  });

  it('an end date alone is refused (the service would quietly return the 10 most recent); nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'list', '--until', '2026-01-01'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--until needs --since too');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('both dates: sent as UTC ISO 8601, the --until day included whole', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const r = await runCli(['report', 'list', '--since', '2020-01-01', '--until', today, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((c: { sn: string }) => c.sn)).toEqual(expect.arrayContaining([regular, ab]));
    const q = sb.get().sandbox.requests('campaign').filter((x) => x.path === '/v1/report/campaigns').at(-1)!.query;
    expect(q).toEqual({ startDate: '2020-01-01T00:00:00Z', endDate: `${today}T23:59:59Z` });
  });
});

describe('report metrics', () => {
  it('a row per version of an A/B campaign (TOTAL, TEST_A, TEST_B, WINNING), the winner named; piped, counts and rates (fractions) apart', async () => {
    const r = await runCli(['report', 'metrics', regular, ab], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const [header, ...lines] = r.stdout.trim().split('\n').map((l) => l.split('\t'));
    const rows = lines.map((l) => Object.fromEntries(header.map((h, i) => [h, l[i]])));
    expect(rows.map((x) => [x.code, x.version])).toEqual([[regular, 'total'], [ab, 'total'], [ab, 'A'], [ab, 'B'], [ab, 'winner']]);
    // A subject test: the winning item's subject names the version (decisions row P14).
    const won = rows.find((x) => x.version === 'winner')!;
    expect(won.winner).toBe(rows.find((x) => x.version !== 'winner' && x.version !== 'total' && x.subject === won.subject)!.version);
    expect(rows.filter((x) => x.code === ab).every((x) => x.winner === won.winner)).toBe(true);
    expect(rows[0].winner).toBe(''); // not an A/B campaign
    expect(rows[0].delivered).toMatch(/^\d+$/);
    expect(Number(rows[0].delivery_rate)).toBeCloseTo(Number(rows[0].delivered) / Number(rows[0].recipients), 3);
    expect(rows[0].sent_from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/); // the service's yyyy/MM/dd HH:mm:ss (UTC), as ISO
    expect(sb.get().sandbox.requests('campaign').filter((x) => x.path === '/v1/report/campaigns/metrics').at(-1)!.body).toEqual({ campaignSns: [regular, ab] });
  });

  it('on a terminal: each count with its rate as a percentage, and the winner as A or B', async () => {
    const r = await runCli(['report', 'metrics', ab], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CODE +NAME +VERSION +RECIPIENTS +DELIVERED +OPENED +CLICKED +BOUNCED +UNSUBSCRIBED +COMPLAINED$/);
    expect(lines[1]).toMatch(/ total +\d+ +\d+ \(\d+\.\d%\) /);
    expect(lines[4]).toMatch(/ winner: [AB] /);
  });

  it('--csv for spreadsheets: a header and numbers, rates as fractions', async () => {
    const r = await runCli(['report', 'metrics', regular, '--csv'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    // snake_case headers, as docs/output.md promises for every CSV (the service's field names, then the rates).
    expect(r.stdout.split('\n')[0]).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*(,[a-z0-9]+(_[a-z0-9]+)*)*$/);
    const [row] = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(row.code).toBe(regular);
    expect(row.version).toBe('total');
    expect(Number(row.recipients)).toBe(40);
    expect(Number(row.open_rate)).toBeCloseTo(Number(row.opened) / Number(row.delivered), 3);
  });

  it('--json: the service items plus rates (fractions), and an A/B campaign\'s winner', async () => {
    const r = await runCli(['report', 'metrics', regular, ab, '--json'], { sandbox: sb.get() });
    const [item, ...abItems] = JSON.parse(r.stdout);
    expect(item).toMatchObject({ campaignSn: regular, reportType: 'TOTAL', rates: { openRate: expect.any(Number) } });
    expect(item.rates.openRate).toBeLessThanOrEqual(1);
    expect(item).not.toHaveProperty('winner');
    for (const x of abItems) expect(x.winner).toMatch(/^[AB]$/);
  });

  it('an unknown code: the service says 40303, exit 1 with the sentence', async () => {
    const r = await runCli(['report', 'metrics', 'CP_NOPE'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The campaign code is invalid for this operation');
  });
});

describe('report export and links', () => {
  it('--out: export, wait for the links, download the six CSV files, never sending the key to the file host', async () => {
    const out = tempDir('mailctl-reports-');
    const filesFrom = sb.get().sandbox.requests('files').length;
    const r = await runCli(['report', 'export', regular, '--out-dir', out], { sandbox: sb.get() });
    expect(r.stderr).not.toContain('error');
    expect(r.exitCode).toBe(0);
    const names = fs.readdirSync(out).sort();
    expect(names).toEqual(['bounce', 'click', 'complain', 'delivery', 'open', 'unsubscribe'].map((t) => `${regular}_${t}.csv`));
    expect(fs.readFileSync(path.join(out, `${regular}_delivery.csv`), 'utf8').split('\n').length).toBeGreaterThan(2);
    const saved = r.stdout.trim().split('\n');
    expect(saved[0]).toBe('type\tfile\tbytes');
    expect(saved.slice(1).map((l) => path.basename(l.split('\t')[1])).sort()).toEqual(names);
    const downloads = sb.get().sandbox.requests('files').slice(filesFrom);
    expect(downloads).toHaveLength(6);
    for (const d of downloads) {
      expect(d.headers['x-api-key']).toBeUndefined();
      expect(JSON.stringify(d.headers)).not.toContain(SANDBOX_KEYS.campaign);
    }
  });

  it('--out refuses to overwrite files already there unless --force', async () => {
    const out = tempDir('mailctl-reports-');
    fs.writeFileSync(path.join(out, `${ab}_open.csv`), 'mine');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'export', ab, '--out-dir', out], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('already exists');
    expect(fs.readFileSync(path.join(out, `${ab}_open.csv`), 'utf8')).toBe('mine');
    expect(sb.get().sandbox.requests().length).toBe(before); // not even the export was requested
  });

  it('links lists the six files; --wait prints them after an export', async () => {
    const w = await runCli(['report', 'export', ab, '--wait', '--json'], { sandbox: sb.get() });
    expect(w.exitCode).toBe(0);
    expect(JSON.parse(w.stdout)).toHaveLength(6);
    const r = await runCli(['report', 'links', ab], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const types = r.stdout.trim().split('\n').slice(1).map((l) => l.split('\t')[0]).sort();
    expect(types).toEqual(['bounce', 'click', 'complain', 'delivery', 'open', 'unsubscribe']);
  });

  it('export without waiting: accepted, and the webhook URL is passed on', async () => {
    const r = await runCli(['report', 'export', regular, '--webhook-url', 'http://127.0.0.1:9/hook', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sn: regular, exportRequested: true });
    expect(sb.get().sandbox.requests('campaign').filter((x) => x.path === `/v1/report/${regular}/export`).at(-1)!.body).toEqual({ webhookUrl: 'http://127.0.0.1:9/hook' });
  });

  it('a webhook URL that is not http(s) is refused before sending', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'export', regular, '--webhook-url', 'hooks.example.com'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

describe('report export/links --out that is a file', () => {
  // --out names a directory. A file there used to be found only after the export had been
  // requested and waited for (then "Cannot create the directory …", exit 2 although a request
  // had gone out). Exit 2 means "nothing was sent", so the check comes first.
  it('export: refused before the export is requested, with the fix', async () => {
    const file = path.join(tempDir(), 'report.csv');
    fs.writeFileSync(file, 'keep me\n');
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['report', 'export', 'CP0001', '--out-dir', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file} (--out-dir) is a file, not a directory`);
    expect(r.stderr).toContain("--out-dir DIR");
    expect(r.stderr).not.toContain('unexpected failure');
    expect(sb.get().sandbox.requests().length).toBe(before);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me\n');
  });

  it('export --json: the error is the one JSON document', async () => {
    const file = path.join(tempDir(), 'report.csv');
    fs.writeFileSync(file, '');
    const r = await runCli(['--json', 'report', 'export', 'CP0001', '--out-dir', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toContain('is a file, not a directory');
  });
});
