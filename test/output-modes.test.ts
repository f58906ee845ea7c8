// One output choice for every command that prints a list or a record (src/output/choice.ts,
// src/output/format.ts): a table on a terminal, TSV piped, --json, --csv — table-driven over the
// commands, against the sandbox over loopback. Each command is run in every mode and the four
// outputs must agree: the CSV has the header the command declares and as many rows as TSV (or,
// for a record, one row whose header is the TSV keys), the JSON parses, the table is a table.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { ANSI, runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { eventually, notifyApi } from './helpers/notify-api.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/_sandbox/fields',
    'POST /campaign/_sandbox/fields',
    'PUT /campaign/_sandbox/balance',
    'GET /campaign/v1/balance',
    'GET /campaign/v1/campaign/normal/:sn',
    'POST /campaign/v1/campaign/normal/submit',
    'GET /campaign/v1/contacts/lists',
    'GET /campaign/v1/report/:sn/link',
    'POST /campaign/v1/report/:sn/export',
    'GET /campaign/v1/report/campaigns',
    'POST /campaign/v1/report/campaigns/metrics',
    'GET /campaign/v1/templates',
    'GET /campaign/v1/templates/:id',
    'GET /notify/v1/events',
    'GET /notify/v1/sms/exclusive-number',
    'GET /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
    'POST /notify/v1/messages',
  ],
});
const fx = campaignFixtures(sb.get);
const notify = notifyApi(sb.get);
const FROM = ['--from', 'noreply@example.com'];
let campaignSn = '';
let templateId = '';
let importSn = '';
const contacts = path.join(tempDir(), 'contacts.csv');

const run = (argv: string[], o: { tty?: boolean } = {}) => runCli(argv, { sandbox: sb.get(), tty: o.tty, env: { NO_COLOR: '1' } });

beforeAll(async () => {
  await fx.group('Readers', 3);
  const c = await run(['campaign', 'create', '--name', 'Monthly', '--group', 'Readers', '--subject', 'News', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>']);
  expect(c.exitCode).toBe(0);
  campaignSn = c.stdout.trim();
  expect((await run(['campaign', 'status', campaignSn, '--wait'])).exitCode).toBe(0);
  expect((await run(['report', 'export', campaignSn, '--wait'])).exitCode).toBe(0);
  templateId = JSON.parse((await run(['template', 'list', '--json'])).stdout).templates[0].id;
  expect((await run(['webhook', 'set', 'delivery', 'https://hooks.example.com/mail'])).exitCode).toBe(0);
  expect((await run(['sandbox', 'field', 'add', 'SCORE', 'number'])).exitCode).toBe(0);
  fs.writeFileSync(contacts, 'EMAIL,NAME\nann@example.com,Ann\nbob@example.com,Bob\n');
  importSn = JSON.parse((await run(['import', contacts, '--group', 'Readers', '--wait', '--json'])).stdout).importSn;
  expect((await run(['send', '--to', 'modes.bounce@example.com', '--subject', 'Hi', '--html', '<p>x</p>', ...FROM])).exitCode).toBe(0);
  await eventually(async () => ((await notify('GET', '/v1/events?status=bounce')).body.logs ?? []).length > 0, 'a bounce event');
});

interface Case {
  argv: () => string[];
  /** A list: its CSV header. A record: the header is its TSV keys in snake_case. */
  header?: string[];
  /** Exit code when it is not 0 (an import whose rows are all duplicates still exits 0). */
  exit?: number;
  /** Runs again in each mode change something (a send): compare shapes, not row counts. */
  fresh?: boolean;
}

const CASES: Record<string, Case> = {
  'groups list': { argv: () => ['groups', 'list'], header: ['code', 'name', 'status', 'subscribed', 'excluded', 'open_rate', 'click_rate', 'updated'] },
  'template list': { argv: () => ['template', 'list'], header: ['id', 'name', 'updated'] },
  'template show': { argv: () => ['template', 'show', templateId] },
  'report list': { argv: () => ['report', 'list'], header: ['code', 'name', 'sent_from', 'sent_until'] },
  'report metrics': { argv: () => ['report', 'metrics', campaignSn], header: undefined },
  'report links': { argv: () => ['report', 'links', campaignSn], header: ['type', 'created', 'link'] },
  events: { argv: () => ['events', '--since', '1h'], header: ['time', 'status', 'message_id', 'recipient', 'subject', 'detail'] },
  'webhook list': { argv: () => ['webhook', 'list'], header: ['type', 'event', 'url', 'domain', 'created'] },
  'sms numbers': { argv: () => ['sms', 'numbers'], header: ['number', 'created', 'updated'] },
  'campaign status': { argv: () => ['campaign', 'status', campaignSn] },
  'campaign timezones': { argv: () => ['campaign', 'timezones'], header: ['code', 'city', 'iana_zone', 'utc_offset_now'] },
  'config list': { argv: () => ['config', 'list'], header: ['setting', 'value', 'source'] },
  'config profiles': { argv: () => ['config', 'profiles'], header: ['active', 'profile'] },
  doctor: { argv: () => ['doctor'], header: ['check', 'status', 'detail'] },
  'sandbox field list': { argv: () => ['sandbox', 'field', 'list'], header: ['name', 'type', 'created'] },
  'sandbox balance': { argv: () => ['sandbox', 'balance'] },
  balance: { argv: () => ['balance'] },
  import: { argv: () => ['import', contacts, '--group', 'Readers', '--wait'], fresh: true },
  'import status': { argv: () => ['import', 'status', importSn] },
  send: { argv: () => ['send', '--to', 'modes@example.com', '--subject', 'Hi', '--html', '<p>x</p>', ...FROM], header: ['address', 'status', 'message_id', 'reason'], fresh: true },
  'contacts clean (plan)': { argv: () => ['contacts', 'clean', '--group', 'Readers', '--since', '1h'], header: ['address', 'reason', 'events', 'last'] },
};

const snake = (s: string) => s.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

describe.each(Object.entries(CASES))('%s', (_name, c) => {
  it('prints a table on a terminal, TSV piped, one document with --json, and CSV with --csv — the same rows in each', async () => {
    const table = await run(c.argv(), { tty: true });
    const tsv = await run(c.argv());
    const json = await run([...c.argv(), '--json']);
    const csv = await run([...c.argv(), '--csv']);
    for (const r of [table, tsv, json, csv]) expect(r.exitCode, r.stderr).toBe(c.exit ?? 0);

    const tsvLines = tsv.stdout.split('\n').filter(Boolean);
    expect(tsvLines.length).toBeGreaterThan(0);
    expect(tsv.stdout).not.toMatch(ANSI);
    expect(tsv.stdout).not.toContain('│');
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    const rows = parse(csv.stdout, { relax_column_count: false }) as string[][];

    if (c.header !== undefined || _name === 'report metrics') {
      // A list: a bordered table; TSV rows of one width; a CSV header, then one row per TSV row.
      expect(table.stdout).toContain('│');
      const width = tsvLines[0].split('\t').length;
      for (const l of tsvLines) expect(l.split('\t')).toHaveLength(width);
      if (c.header) expect(rows[0]).toEqual(c.header);
      else expect(rows[0]).toContain('recipient_cnt'); // metrics: every field of the service, snake_case
      if (!c.fresh) expect(rows.length - 1).toBe(tsvLines.length);
      else expect(rows.length).toBeGreaterThan(1);
    } else {
      // A record: "key  value" lines on the terminal, key<TAB>value piped, a header and one row in CSV.
      const keys = tsvLines.map((l) => l.split('\t')[0]);
      expect(tsvLines.every((l) => l.split('\t').length === 2)).toBe(true);
      expect(table.stdout).not.toContain('\t');
      expect(table.stdout.split('\n')[0]).toMatch(new RegExp(`^${keys[0]} +\\S`));
      expect(rows[0]).toEqual(keys.map(snake));
      expect(rows).toHaveLength(2);
    }
  });
});

describe('counts are grouped in a table and raw everywhere else', () => {
  it('balance: 12,345 on a terminal; 12345 piped, in CSV and in JSON', async () => {
    expect((await run(['sandbox', 'balance', '--set-email', '12345', '--set-sms', '500'])).exitCode).toBe(0);
    const table = await run(['balance'], { tty: true });
    expect(table.stdout).toBe('email  12,345\nsms    500\n');
    expect((await run(['balance'])).stdout).toBe('email\t12345\nsms\t500\n');
    expect((await run(['balance', '--csv'])).stdout).toBe('email,sms\n12345,500\n');
    expect(JSON.parse((await run(['balance', '--json'])).stdout)).toEqual({ email: 12345, sms: 500 });
  });

  it('groups list: the count columns grouped, the code and the dates untouched', async () => {
    await fx.group('Big', 1234);
    const table = await run(['groups', 'list'], { tty: true });
    expect(table.stdout).toMatch(/│ Big +│ \w+ +│ 1,234 +│/);
    const tsv = (await run(['groups', 'list'])).stdout.split('\n').find((l) => l.includes('\tBig\t'))!;
    expect(tsv.split('\t')[3]).toBe('1234');
    const csv = parse((await run(['groups', 'list', '--csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv.find((g) => g.name === 'Big')!.subscribed).toBe('1234');
  });
});
