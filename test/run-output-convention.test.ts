// One output convention for every command that prints a list or a record (issue 20.6,
// src/run/output/format.ts): the commands are taken from the command tree (each declares --csv), and
// each is run against the sandbox over loopback in all four outputs:
// - a table on a terminal: a header in capitals, aligned columns, no rules; dates relative,
//   rates as percentages, counts grouped;
// - TSV piped and CSV: the same header in snake_case first (one name per thing: `code` for a
//   campaign's code, never the service's `campaign_sn`), dates ISO 8601 UTC, rates fractions 0–1;
// - --json: one document.
// An empty list (the services' empty answers, from a loopback stand-in) is its header alone in
// TSV and CSV, and on a terminal a sentence on stderr naming what is empty. A list that cannot be
// empty says why in NEVER_EMPTY, and is tried where an empty one would come from.
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { ANSI, runCli, tempDir, tsv, type CliResult } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { eventually, notifyApi } from './helpers/notify-api.js';
import { GROUP_SETUP } from './helpers/campaign-api.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { startConsumer, type Consumer } from './helpers/webhook-consumer.js';
import { NOUNS } from '../commands/index.js';
import { displayWidth } from '../src/run/output/width.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/_sandbox/fields',
    'POST /campaign/_sandbox/fields',
    'PUT /campaign/_sandbox/balance',
    'GET /campaign/v1/balance',
    'GET /campaign/v1/campaign/normal/:sn',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
    'GET /campaign/v1/report/:sn/link',
    'POST /campaign/v1/report/:sn/export',
    'GET /campaign/v1/report/campaigns',
    'POST /campaign/v1/report/campaigns/metrics',
    'GET /campaign/v1/templates',
    'GET /campaign/v1/templates/:id',
    'POST /campaign/v1/automation/event',
    'GET /notify/v1/events',
    'GET /notify/v1/sms/exclusive-number',
    'POST /notify/v1/sms/messages',
    'GET /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
    'POST /notify/v1/messages',
  ],
});
const hs = useHostileServer();
const fx = campaignFixtures(sb.get);
const notify = notifyApi(sb.get);
const FROM = ['--from', 'noreply@example.com'];
const SENDER = ['--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'];
let campaignSn = '';
let abSn = '';
let templateId = '';
let importSn = '';
let consumer: Consumer;
const dir = tempDir();
const contacts = path.join(dir, 'contacts.csv');
const recipients = path.join(dir, 'recipients.csv');
const badHtml = path.join(dir, 'mail.html');
/** A recipients file with its header and no one in it. */
const nobody = path.join(dir, 'nobody.csv');

// One config folder for the walk: `campaign list` lists the campaigns `campaign create` recorded there.
const configDir = tempDir('mailctl-convention-');
const run = (argv: string[], o: { tty?: boolean; env?: Record<string, string> } = {}) => runCli(argv, { sandbox: sb.get(), tty: o.tty, configDir, env: { NO_COLOR: '1', ...o.env } });

async function finished(args: string[]): Promise<string> {
  const c = await run(['campaign', 'create', ...args, ...SENDER]);
  expect(c.exitCode, c.stderr).toBe(0);
  const sn = c.stdout.trim();
  expect((await run(['campaign', 'status', sn, '--wait'])).exitCode).toBe(0);
  return sn;
}

beforeAll(async () => {
  consumer = await startConsumer();
  await fx.group('Readers', 30);
  [campaignSn, abSn] = await Promise.all([
    finished(['--name', 'Monthly', '--group', 'Readers', '--subject', 'News']),
    finished(['--name', 'Subject test', '--group', 'Readers', '--ab', 'subject', '--subject-a', 'Hi A', '--subject-b', 'Hi B', '--test-percent', '50', '--test-duration', '1h']),
  ]);
  expect((await run(['report', 'export', campaignSn, '--wait'])).exitCode).toBe(0);
  templateId = JSON.parse((await run(['template', 'list', '--json'])).stdout).templates[0].id;
  expect((await run(['webhook', 'set', 'delivery', 'https://hooks.example.com/mail'])).exitCode).toBe(0);
  expect((await run(['sandbox', 'field', 'add', 'SCORE', 'number'])).exitCode).toBe(0);
  fs.writeFileSync(contacts, 'EMAIL,NAME\nann@example.com,Ann\nbob@example.com,Bob\n');
  fs.writeFileSync(recipients, 'email,name\nann@example.org,Ann\nbo@example.org,Bo\n');
  fs.writeFileSync(badHtml, '<p>Hi</p><img src="https://cdn.example/a.png">');
  fs.writeFileSync(nobody, 'email,name\n');
  importSn = JSON.parse((await run(['import', contacts, '--group', 'Readers', '--wait', '--json'])).stdout).importSn;
  expect((await run(['send', '--to', 'modes.bounce@example.com', '--subject', 'Hi', '--html', '<p>x</p>', ...FROM])).exitCode).toBe(0);
  await eventually(async () => ((await notify('GET', '/v1/events?status=bounce')).body.logs ?? []).length > 0, 'a bounce event');
});

afterAll(async () => {
  await consumer?.close();
});

/** The commands that print a list or a record: every runnable command that declares --csv. */
function printers(): string[] {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out: string[] = [];
  const walk = (c: Command, names: string[]) => {
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler && c.options.some((o) => o.long === '--csv')) out.push(names.join(' '));
    for (const s of c.commands) walk(s, [...names, s.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out.sort();
}

/** How a list comes out empty: the services' empty answers, served by the hostile stand-in. */
type Empty = { argv: string[]; serve: () => void };

interface Case {
  kind: 'list' | 'record';
  argv: () => string[];
  /** Exit code when it is not 0. */
  exit?: number;
  /** Each run changes something (a send): compare shapes, not row counts. */
  fresh?: boolean;
  /** On a terminal, one line per row for a person instead of a table (preflight's findings are sentences). */
  lines?: boolean;
  /** A list: how it comes out empty (the services' empty answers); or it is in NEVER_EMPTY. */
  empty?: Empty;
}

const on = (method: string, route: string, body: unknown) => () => hs.get().on(method, route, reply.json(body));

const CASES: Record<string, Case> = {
  'groups list': { kind: 'list', argv: () => ['groups', 'list'], empty: { argv: ['groups', 'list'], serve: on('GET', '/campaign/v1/contacts/lists', []) } },
  'template list': { kind: 'list', argv: () => ['template', 'list'], empty: { argv: ['template', 'list'], serve: on('GET', '/campaign/v1/templates', { capacity: 20, templates: [] }) } },
  'report list': { kind: 'list', argv: () => ['report', 'list'], empty: { argv: ['report', 'list', '--since', '2026-01-01', '--until', '2026-01-31'], serve: on('GET', '/campaign/v1/report/campaigns', []) } },
  'report metrics': { kind: 'list', argv: () => ['report', 'metrics', campaignSn, abSn] },
  'report links': { kind: 'list', argv: () => ['report', 'links', campaignSn], empty: { argv: ['report', 'links', 'CP1'], serve: on('GET', '/campaign/v1/report/CP1/link', { Reports: [] }) } },
  events: { kind: 'list', argv: () => ['events', '--since', '1h'], empty: { argv: ['events', '--since', '1h'], serve: on('GET', '/notify/v1/events', { logs: [] }) } },
  'webhook list': { kind: 'list', argv: () => ['webhook', 'list'], empty: { argv: ['webhook', 'list'], serve: on('GET', '/notify/v1/webhooks', []) } },
  'sms numbers': { kind: 'list', argv: () => ['sms', 'numbers'], empty: { argv: ['sms', 'numbers'], serve: on('GET', '/notify/v1/sms/exclusive-number', { phoneNumbers: [] }) } },
  'sandbox field list': { kind: 'list', argv: () => ['sandbox', 'field', 'list'], empty: { argv: ['sandbox', 'field', 'list'], serve: on('GET', '/campaign/_sandbox/fields', { fields: [] }) } },
  'contacts clean': {
    kind: 'list', argv: () => ['contacts', 'clean', '--group', 'Readers', '--since', '1h'],
    empty: { argv: ['contacts', 'clean', '--group', 'G1', '--since', '1h'], serve: () => { on('GET', '/campaign/v1/contacts/lists', [{ sn: 'G1', name: 'Quiet' }])(); on('GET', '/notify/v1/events', { logs: [] })(); } },
  },
  'campaign preflight': {
    kind: 'list', lines: true, argv: () => ['campaign', 'preflight', '--name', 'N', '--group', 'Readers', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html-file', badHtml, '--no-links'],
    empty: { argv: ['campaign', 'preflight', '--name', 'N', '--group', 'G1', '--subject', 'S', '--preheader', 'P', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>Hello</p>', '--no-links', '--footer-lang', 'en'], serve: on('GET', '/campaign/v1/contacts/lists', [{ sn: 'G1', name: 'G1', status: 'GENERAL', subscribedCnt: 3 }]) },
  },
  'campaign list': { kind: 'list', argv: () => ['campaign', 'list'], empty: { argv: ['campaign', 'list'], serve: () => {} } }, // a fresh config folder records no campaign
  'campaign timezones': { kind: 'list', argv: () => ['campaign', 'timezones'] },
  'config list': { kind: 'list', argv: () => ['config', 'list'] },
  'config profiles': { kind: 'list', argv: () => ['config', 'profiles'] },
  doctor: { kind: 'list', argv: () => ['doctor'] },
  'send email': { kind: 'list', fresh: true, argv: () => ['send', '--recipients-file', recipients, '--subject', 'Hi', '--html', '<p>x</p>', ...FROM] },
  'send sms': { kind: 'list', fresh: true, argv: () => ['send', 'sms', '--to', '0912345678', '--country-code', '886', '--text', '【Acme】hi'] },
  'automation trigger': { kind: 'list', fresh: true, argv: () => ['automation', 'trigger', '--workflow', 'w', '--recipients-file', recipients] },
  'automation terminate': { kind: 'list', fresh: true, argv: () => ['automation', 'terminate', '--workflow', 'w', '--recipients-file', recipients] },
  'template show': { kind: 'record', argv: () => ['template', 'show', templateId] },
  'campaign status': { kind: 'record', argv: () => ['campaign', 'status', campaignSn] },
  'sandbox balance': { kind: 'record', argv: () => ['sandbox', 'balance'] },
  balance: { kind: 'record', argv: () => ['balance'] },
  import: { kind: 'record', fresh: true, argv: () => ['import', contacts, '--group', 'Readers', '--wait'] },
  'import status': { kind: 'record', argv: () => ['import', 'status', importSn] },
  'webhook trigger': { kind: 'record', fresh: true, argv: () => ['webhook', 'trigger', 'delivery', '--url', consumer.url] },
};

/**
 * The lists that cannot come out empty, and why. Each is tried where an empty list would come from
 * if it could — a fresh config folder, services that answer nothing (the hostile stand-in with no
 * route), a recipients file with no one in it — and must still print rows (`rows`; from what
 * mailctl holds, asking no service, unless `asks`), or refuse before printing anything
 * (`refused`: exit 2, stdout empty, nothing asked of a service).
 */
const NEVER_EMPTY: Record<string, { why: string; argv: () => string[]; then: 'rows' | 'refused' | 'not-found'; rows?: number; asks?: true; serve?: () => void }> = {
  'report metrics': {
    why: 'metrics are asked for by campaign code: none for any code given is "no such campaign" (exit 1), as campaign status says it',
    argv: () => ['report', 'metrics', 'CP1'], then: 'not-found', asks: true, serve: on('POST', '/campaign/v1/report/campaigns/metrics', []),
  },
  'campaign timezones': { why: 'the 88 time zone codes of spec 000 are data of mailctl', argv: () => ['campaign', 'timezones'], then: 'rows', rows: 88 },
  'config list': { why: 'every setting is listed, set or not', argv: () => ['config', 'list'], then: 'rows' },
  'config profiles': { why: 'the profile in use is always listed', argv: () => ['config', 'profiles'], then: 'rows' },
  doctor: { why: 'its checks are always made', argv: () => ['doctor'], then: 'rows', asks: true },
  'send email': { why: 'a send has at least one recipient', argv: () => ['send', '--recipients-file', nobody, '--subject', 'Hi', '--html', '<p>x</p>', ...FROM], then: 'refused' },
  'send sms': { why: 'a send has at least one recipient', argv: () => ['send', 'sms', '--recipients-file', nobody, '--text', '【Acme】hi'], then: 'refused' },
  'automation trigger': { why: 'a run has at least one recipient', argv: () => ['automation', 'trigger', '--workflow', 'w', '--recipients-file', nobody], then: 'refused' },
  'automation terminate': { why: 'a run has at least one recipient', argv: () => ['automation', 'terminate', '--workflow', 'w', '--recipients-file', nobody], then: 'refused' },
};

/** What the service calls things, which a list of mailctl renames (`code`, `recipients`, `sent_from`). */
const SERVICE_SPELLING = /(^|_)(sn|cnt)$|^campaign_(sn|code|name)$|^report_type$|_at$/;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** A date-time in any spelling: in TSV and CSV it must be the ISO one. */
const DATE_TIME = /^\d{4}[-/]\d\d[-/]\d\d[ T]\d\d:\d\d/;
const RULES = /[│┃┌┐└┘├┤┬┴┼─━═]|^[-+= ]{3,}$/m;

/**
 * A table's cells, cut at the columns its header line starts (the headers are ASCII words one
 * space apart). The table ends at the first blank line (report metrics draws its chart below).
 */
function tableCells(text: string): { header: string[]; rows: string[][] } {
  const all = text.replace(new RegExp(ANSI.source, 'g'), '').replace(/\n$/, '').split('\n');
  const lines = all.includes('') ? all.slice(0, all.indexOf('')) : all;
  if (!lines.length) return { header: [], rows: [] }; // nothing shown (automation lists only the rows that need a look)
  const starts = [...lines[0].matchAll(/\S+(?: \S+)*/g)].map((m) => m.index!);
  const cut = (l: string) => starts.map((s, i) => l.slice(s, starts[i + 1] ?? undefined).trim());
  return { header: cut(lines[0]), rows: lines.slice(1).map(cut) };
}

function ok(r: CliResult, c: Case): void {
  expect(r.exitCode, r.stderr).toBe(c.exit ?? 0);
}

describe('the commands that print a list or a record', () => {
  it('are every command that declares --csv, each with a case here', () => {
    expect(Object.keys(CASES).sort()).toEqual(printers());
  });

  it('each list either has an empty case or is in NEVER_EMPTY (a command of the tree that prints a list), never both', () => {
    const tree = printers();
    for (const name of Object.keys(NEVER_EMPTY)) {
      expect(tree, `NEVER_EMPTY names "${name}", which is not a command that declares --csv`).toContain(name);
      expect(CASES[name]?.kind, `NEVER_EMPTY names "${name}", which is not a list`).toBe('list');
    }
    for (const [name, c] of Object.entries(CASES).filter(([, c]) => c.kind === 'list')) {
      expect(!!c.empty !== name in NEVER_EMPTY, `${name}: an empty case, or a NEVER_EMPTY entry saying why there is none (one of the two)`).toBe(true);
    }
  });
});

const lists = Object.entries(CASES).filter(([, c]) => c.kind === 'list');
const records = Object.entries(CASES).filter(([, c]) => c.kind === 'record');

describe.each(lists)('%s (a list)', (_name, c) => {
  it('TSV and CSV: one snake_case header naming things as every list does, ISO UTC dates, rates as fractions; a table without rules: the same header in capitals, dates relative, rates as percentages; --json one document', async () => {
    const [table, piped, json, csvRun] = [await run(c.argv(), { tty: true }), await run(c.argv()), await run([...c.argv(), '--json']), await run([...c.argv(), '--csv'])];
    for (const r of [table, piped, json, csvRun]) ok(r, c);
    expect(() => JSON.parse(json.stdout)).not.toThrow();

    const t = tsv(piped.stdout);
    const csv = parse(csvRun.stdout, { relax_column_count: false }) as string[][];
    expect(csv[0]).toEqual(t.header);
    if (!c.fresh) expect(csv.length - 1).toBe(t.rows.length);
    expect(t.rows.length).toBeGreaterThan(0);
    for (const h of t.header) expect(h, `column ${h}: the service's spelling; name it as the other lists do`).not.toMatch(SERVICE_SPELLING);
    for (const row of [...t.rows, ...csv.slice(1)]) {
      expect(row).toHaveLength(t.header.length);
      row.forEach((cell, i) => {
        const col = t.header[i];
        if (DATE_TIME.test(cell)) expect(cell, `${col}: a date in TSV and CSV is ISO 8601 UTC`).toMatch(ISO_UTC);
        expect(cell, `${col}: no percentages outside a table`).not.toMatch(/^-?\d+(\.\d+)?%$/);
        if (col.endsWith('_rate') && cell !== '') expect(Number(cell), `${col}: a fraction 0–1`).toBeGreaterThanOrEqual(0);
        if (col.endsWith('_rate') && cell !== '') expect(Number(cell), `${col}: a fraction 0–1`).toBeLessThanOrEqual(1);
        // A campaign's code is `code` in every list.
        if (cell === campaignSn || cell === abSn) expect(col).toBe('code');
      });
    }

    expect(table.stdout).not.toMatch(RULES);
    expect(table.stdout).not.toContain('\t');
    if (c.lines) return;
    const shown = tableCells(table.stdout);
    // One name per column: the table's header is the data's, in capitals.
    for (const h of shown.header) {
      expect(h).toMatch(/^[A-Z][A-Z0-9]*( [A-Z0-9]+)*$/);
      expect(t.header).toContain(h.toLowerCase().replace(/ /g, '_'));
    }
    if (!c.fresh) expect(shown.rows).toHaveLength(t.rows.length);
    for (const row of shown.rows) {
      row.forEach((cell, i) => {
        const name = shown.header[i].toLowerCase().replace(/ /g, '_');
        expect(cell, `${shown.header[i]}: dates on a terminal are the reader's, not UTC ISO`).not.toMatch(ISO_UTC);
        if (name.endsWith('_rate') && cell !== '') expect(cell).toMatch(/^\d+(\.\d)?%$/);
      });
    }
  });

  const never = NEVER_EMPTY[_name];
  if (never) {
    it(`is never empty: ${never.why}`, async () => {
      // Nothing set, nothing stored, services that answer nothing: where an empty list would come from.
      never.serve?.();
      const r = await runCli(never.argv(), { configDir: tempDir('mailctl-never-empty-'), env: { ...hs.get().env, NO_COLOR: '1' } });
      if (never.then === 'not-found') {
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/^error: No metrics for CP1: no such campaign/);
      } else if (never.then === 'refused') {
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
      } else {
        const rows = tsv(r.stdout).rows;
        expect(rows.length, r.stderr).toBeGreaterThan(0);
        if (never.rows !== undefined) expect(rows).toHaveLength(never.rows);
      }
      if (!never.asks) expect(hs.get().requests.map((q) => `${q.method} ${q.path}`)).toEqual([]);
    });
    return;
  }
  const e = c.empty!;
  it('empty: the header alone in TSV and CSV, and on a terminal a sentence on stderr naming what is empty', async () => {
    const once = async (extra: string[], tty = false) => {
      e.serve();
      return runCli([...e.argv, ...extra], { env: { ...hs.get().env, NO_COLOR: '1', CI: '1' }, tty });
    };
    const [piped, csvRun, table, json] = [await once([]), await once(['--csv']), await once([], true), await once(['--json'])];
    for (const r of [piped, csvRun, table, json]) expect(r.exitCode, r.stderr).toBe(0);
    const t = tsv(piped.stdout);
    expect(t.rows).toEqual([]);
    expect(t.header.length).toBeGreaterThan(0);
    expect(csvRun.stdout).toBe(`${t.header.join(',')}\n`);
    expect(table.stdout).toBe('');
    expect(table.stderr.split('\n')[0]).toMatch(/^(✓ )?[A-Z].*[.)`]$/);
    expect(table.stderr).not.toContain('No results.');
    // The same sentence in every output (each run is its own, so times in it may differ by a second).
    const times = (t: string) => t.trim().replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');
    expect(times(piped.stderr)).toBe(times(table.stderr));
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });
});

describe.each(records)('%s (a record)', (_name, c) => {
  it('"key  value" on a terminal, key<TAB>value piped, a header and one row in CSV, one JSON document; dates UTC ISO piped', async () => {
    const [table, piped, json, csvRun] = [await run(c.argv(), { tty: true }), await run(c.argv()), await run([...c.argv(), '--json']), await run([...c.argv(), '--csv'])];
    for (const r of [table, piped, json, csvRun]) ok(r, c);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    const lines = piped.stdout.split('\n').filter(Boolean);
    expect(lines.every((l) => l.split('\t').length === 2)).toBe(true);
    const keys = lines.map((l) => l.split('\t')[0]);
    for (const l of lines) if (DATE_TIME.test(l.split('\t')[1])) expect(l.split('\t')[1]).toMatch(ISO_UTC);
    expect(table.stdout).not.toContain('\t');
    expect(table.stdout.split('\n')[0]).toMatch(new RegExp(`^${keys[0]} +\\S`));
    const rows = parse(csvRun.stdout) as string[][];
    expect(rows[0]).toEqual(keys.map((k) => k.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')));
    expect(rows).toHaveLength(2);
  });
});

describe('dates, rates and counts: the printer formats them per output', () => {
  it('campaign status: UTC ISO piped; on a terminal the reader\'s local time (TZ) and how long ago', async () => {
    const piped = await run(['campaign', 'status', campaignSn]);
    const updated = piped.stdout.split('\n').find((l) => l.startsWith('updated\t'))!.split('\t')[1];
    expect(updated).toMatch(ISO_UTC);
    const table = await run(['campaign', 'status', campaignSn], { tty: true, env: { TZ: 'Asia/Taipei' } });
    const local = new Date(Date.parse(updated) + 8 * 3_600_000).toISOString();
    const line = table.stdout.split('\n').find((l) => l.startsWith('updated'))!;
    expect(line).toMatch(new RegExp(`^updated +${local.slice(0, 10)} ${local.slice(11, 16)} \\+08:00 \\((just now|\\d+ (second|minute)s? ago)\\)$`));
  });

  it('groups list: the open rate a fraction piped and in CSV, a percentage in the table; JSON as the service sent it', async () => {
    const piped = tsv((await run(['groups', 'list'])).stdout);
    const readers = piped.rows.find((r) => r[1] === 'Readers')!;
    const rate = Number(readers[piped.header.indexOf('open_rate')]);
    expect(rate).toBeGreaterThan(0); // the campaigns sent to Readers were opened
    expect(rate).toBeLessThan(1);
    const table = tableCells((await run(['groups', 'list'], { tty: true })).stdout);
    const shown = table.rows.find((r) => r[1] === 'Readers')![table.header.indexOf('OPEN RATE')];
    expect(shown).toBe(`${(rate * 100).toFixed(1)}%`);
    const doc = JSON.parse((await run(['groups', 'list', '--json'])).stdout) as Array<{ name: string; openedRate: number }>;
    expect(doc.find((g) => g.name === 'Readers')!.openedRate).toBeCloseTo(rate, 4);
  });

  it('balance: 12,345 on a terminal; 12345 piped, in CSV and in JSON', async () => {
    expect((await run(['sandbox', 'balance', '--set-email', '12345', '--set-sms', '500'])).exitCode).toBe(0);
    const table = await run(['balance'], { tty: true });
    expect(table.stdout).toBe('email  12,345\nsms    500\n');
    expect((await run(['balance'])).stdout).toBe('email\t12345\nsms\t500\n');
    expect((await run(['balance', '--csv'])).stdout).toBe('email,sms\n12345,500\n');
    expect(JSON.parse((await run(['balance', '--json'])).stdout)).toEqual({ email: 12345, sms: 500 });
  });

  it('a table lines its columns up by terminal columns, a Chinese name (two columns a character) too', async () => {
    await fx.group('電子報讀者', 1);
    const lines = (await run(['groups', 'list'], { tty: true })).stdout.split('\n');
    const at = (line: string, word: string) => displayWidth(line.slice(0, line.indexOf(word)));
    const row = lines.find((l) => l.includes('電子報讀者'))!;
    expect(at(row, 'GENERAL')).toBe(at(lines[0], 'STATUS'));
  });

  it('groups list: the count columns grouped in a table, raw piped and in CSV', async () => {
    await fx.group('Big', 1234);
    const table = tableCells((await run(['groups', 'list'], { tty: true })).stdout);
    expect(table.rows.find((r) => r[1] === 'Big')![table.header.indexOf('SUBSCRIBED')]).toBe('1,234');
    const piped = tsv((await run(['groups', 'list'])).stdout);
    expect(piped.rows.find((r) => r[1] === 'Big')![piped.header.indexOf('subscribed')]).toBe('1234');
    const csv = parse((await run(['groups', 'list', '--csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv.find((g) => g.name === 'Big')!.subscribed).toBe('1234');
  });
});
