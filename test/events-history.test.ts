// The event store read back (issue 21 item 2): events --history (filters, formats, any age, where
// the answer came from), events export (CSV with the formula guard, JSONL as the listener's --out
// lines), events prune (a destructive write), events tail --history, contacts clean --history.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { virtualTime } from './helpers/virtual-time.js';
import { campaignApi } from './helpers/campaign-api.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { rowOf } from '../src/store/row.js';

const DAY = 86_400_000;
const NOW = Date.now();

function email(id: string, event: string, to: string, daysAgo: number, more: Record<string, unknown> = {}, subject = `About ${id}`) {
  const payload = { event, mail: { id, subject, from: 'noreply@example.com', to }, [event]: { timestamp: NOW - daysAgo * DAY, ...more } };
  return rowOf(payload, { id, event, channel: 'email' }, NOW - daysAgo * DAY + 1000, { name: 'x-service-signature', value: 'ab'.repeat(32) });
}
function sms(id: string, event: string, address: string, daysAgo: number) {
  const payload = { event, sms_data: { id, content: 'Your code is 1234', recipient: `886${address.replace(/^0/, '')}`, address, country_code: '886' }, [event]: { timestamp: NOW - daysAgo * DAY } };
  return rowOf(payload, { id, event, channel: 'sms' }, NOW - daysAgo * DAY + 1000);
}

/** A config folder whose default store holds these events. */
async function configWith(rows: ReturnType<typeof email>[]): Promise<string> {
  const cfg = tempDir();
  const s = await openStore(storeLocation(undefined, cfg), { create: true, configDir: cfg });
  await s.insert(rows);
  await s.close();
  return cfg;
}

const ROWS = [
  email('m-sept', 'delivery', 'Ann@Example.com', 400),
  email('m-sept', 'bounce', 'Ann@Example.com', 399, { type: 1, code: '550', reason: 'no such user' }),
  email('m-new', 'delivery', 'bob@example.com', 1),
  email('m-formula', 'click', 'cy@example.com', 2, { link_url: 'https://example.com/' }, '=HYPERLINK("http://evil.example/","x")'),
  sms('s-1', 'delivery', '0912345678', 3),
  sms('s-2', 'delivery', '0922222222', 3),
];
let cfg: string;
beforeAll(async () => {
  cfg = await configWith(ROWS);
});

describe('events --history', () => {
  it('finds a recipient\'s events of any age, by the event\'s own time, and says the store answered', async () => {
    const r = await runCli(['events', '--history', '--recipient', 'ann@example.com', '--since', '450d', '--until', '350d', '--json'], { configDir: cfg });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ source: 'store', store: `sqlite:${path.join(cfg, 'events.db')}` });
    expect(doc.logs.map((e: { messageId: string; status: string }) => `${e.messageId}/${e.status}`)).toEqual(['m-sept/delivery', 'm-sept/bounce']);
    expect(doc.logs[1]).toMatchObject({ channel: 'email', mail: { to: 'Ann@Example.com', subject: 'About m-sept' }, rawEvent: { type: '1', code: '550', reason: 'no such user' }, eventTime: new Date(NOW - 399 * DAY).toISOString() });
  });

  it('--status, the table on a terminal with the source on stderr, and CSV', async () => {
    const t = await runCli(['events', '--history', '--status', 'bounce', '--since', '800d'], { configDir: cfg, tty: true });
    expect(t.exitCode).toBe(0);
    expect(t.stderr).toContain(`From the event store sqlite:${path.join(cfg, 'events.db')}`);
    expect(t.stdout).toContain('m-sept');
    expect(t.stdout).not.toContain('m-new');
    const c = await runCli(['events', '--history', '--since', '30d', '--csv'], { configDir: cfg });
    expect(c.stdout.split('\n')[0]).toBe('time,status,message_id,recipient,subject,detail');
    expect(c.stdout).toContain('\'=HYPERLINK');
  });

  it('--status a webhook never carries (accept, retry): exit 2 saying the store cannot hold it, not an empty answer', async () => {
    for (const [status, sms] of [['accept', false], ['retry', false], ['delivery,accept', false], ['accept', true]] as const) {
      const r = await runCli(['events', '--history', '--since', '30d', '--status', status, ...(sms ? ['--sms'] : [])], { configDir: cfg });
      expect(r.exitCode, status).toBe(2);
      expect(r.stderr).toContain('the event store holds only what webhooks carry');
      expect(r.stdout).toBe('');
    }
  });

  it('SMS by national number, without the country code the service would need', async () => {
    const r = await runCli(['events', '--history', '--sms', '--recipient', '0912345678', '--json'], { configDir: cfg });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).logs.map((e: { messageId: string }) => e.messageId)).toEqual(['s-1']);
  });

  it('no store yet: exit 1 naming where it looked and what fills it; --store without --history: exit 2', async () => {
    const r = await runCli(['events', '--history']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/There is no event store at .*events\.db yet/);
    expect(r.stderr).toContain('mailctl webhook listen');
    const s = await runCli(['events', '--store', 'sqlite:x.db']);
    expect(s.exitCode).toBe(2);
    expect(s.stderr).toContain('add --history');
  });

});

describe('events export', () => {
  it('CSV to --out: a header, one row per event of the range, the formula guard; Python\'s csv reads it', async () => {
    const out = path.join(tempDir(), 'events.csv');
    const r = await runCli(['events', 'export', '--since', '30d', '--format', 'csv', '--out', out], { configDir: cfg });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`Wrote 2 events from the event store`);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const py = spawnSync('python3', ['-c', 'import csv,sys,json; rows=list(csv.reader(open(sys.argv[1], newline=""))); print(json.dumps(rows))', out], { encoding: 'utf8' });
    const rows = JSON.parse(py.stdout) as string[][];
    expect(rows[0]).toEqual(['channel', 'message_id', 'event', 'recipient', 'subject', 'timestamp', 'received_at', 'payload']);
    expect(rows.slice(1).map((x) => x[1])).toEqual(['m-formula', 'm-new']);
    expect(rows[1][4]).toBe('\'=HYPERLINK("http://evil.example/","x")');
    expect(JSON.parse(rows[1][7])).toMatchObject({ mail: { id: 'm-formula' } });
    // An existing --out is not replaced without --force.
    const again = await runCli(['events', 'export', '--since', '30d', '--format', 'csv', '--out', out], { configDir: cfg });
    expect(again.exitCode).toBe(2);
  });

  it('JSONL to stdout: the lines webhook listen --out writes (signature included), SMS with --sms', async () => {
    const r = await runCli(['events', 'export', '--since', '800d', '--until', '350d', '--format', 'jsonl'], { configDir: cfg });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => Object.keys(l))).toEqual(Array(2).fill(['receivedAt', 'event', 'id', 'channel', 'signatureHeader', 'signature', 'payload']));
    expect(lines[0]).toMatchObject({ id: 'm-sept', event: 'delivery', channel: 'email', signatureHeader: 'x-service-signature', payload: { mail: { to: 'Ann@Example.com' } } });
    const s = await runCli(['events', 'export', '--since', '30d', '--format', 'jsonl', '--sms'], { configDir: cfg });
    expect(s.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['s-1', 's-2']);
  });

  it('--json: one JSON document summing up an export to --out; without --out (stdout is the export) exit 2, nothing printed', async () => {
    const out = path.join(tempDir(), 'events.jsonl');
    const r = await runCli(['events', 'export', '--since', '30d', '--format', 'jsonl', '--out', out, '--json'], { configDir: cfg });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ out, format: 'jsonl', events: 2, source: 'store' });
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);
    for (const format of ['csv', 'jsonl']) {
      const bad = await runCli(['events', 'export', '--since', '30d', '--format', format, '--json'], { configDir: cfg });
      expect(bad.exitCode).toBe(2);
      expect(JSON.parse(bad.stdout).error.message).toMatch(/^--json prints one JSON document, but events export prints the (CSV|JSONL lines) itself/);
    }
  });

  it('refuses a missing --since or --format (exit 2)', async () => {
    expect((await runCli(['events', 'export', '--format', 'csv'], { configDir: cfg })).exitCode).toBe(2);
    expect((await runCli(['events', 'export', '--since', '1d'], { configDir: cfg })).exitCode).toBe(2);
  });
});

describe('events prune', () => {
  it('--dry-run counts; without a terminal --yes is needed; --yes deletes what is older', async () => {
    const c = await configWith(ROWS);
    const dry = await runCli(['events', 'prune', '--older-than', '365d', '--dry-run'], { configDir: c });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain('2 events older than');
    expect(dry.stdout).toContain('nothing was deleted');
    const asked = await runCli(['events', 'prune', '--older-than', '365d'], { configDir: c });
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toContain('--yes');
    const done = await runCli(['events', 'prune', '--older-than', '365d', '--yes', '--json'], { configDir: c });
    expect(JSON.parse(done.stdout)).toMatchObject({ deleted: 2 });
    const left = await runCli(['events', 'export', '--since', '1000d', '--format', 'jsonl'], { configDir: c });
    expect(left.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['m-formula', 'm-new']);
  });
});

describe('events tail --history', () => {
  it('shows each stored event received since --since once, however many reads it spans', async () => {
    const c = await configWith([email('t-old', 'delivery', 'a@example.com', 1), { ...email('t-1', 'open', 'a@example.com', 0), receivedAt: NOW - 5000 }, { ...email('t-2', 'click', 'b@example.com', 0), receivedAt: NOW - 2000 }]);
    const vt = virtualTime(NOW);
    const r = await runCli(['events', 'tail', '--history', '--since', '1m', '--for', '30s', '--interval', '5s', '--json'], { configDir: c, clock: vt.clock, fetch: vt.fetch });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ source: 'store', stopped: 'time', count: 2 });
    expect(doc.events.map((e: { messageId: string }) => e.messageId)).toEqual(['t-1', 't-2']);
    expect(vt.slept.length).toBeGreaterThanOrEqual(5);
  });
});

describe('contacts clean --history', () => {
  const sb = useSandbox({ expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert', 'GET /notify/v1/events'] });
  const campaign = campaignApi(sb.get);

  it('takes bounces and complaints from the store, older than the service\'s year; asks the service for none', async () => {
    await campaign.post('/v1/contacts/lists/insert', { name: 'History' });
    const c = await configWith([
      email('c-1', 'bounce', 'Old.Bounce@example.com', 700, { type: 1, code: '550', reason: 'gone' }),
      email('c-2', 'bounce', 'soft@example.com', 600, { type: 0, code: '450', reason: 'later' }),
      email('c-3', 'complaint', 'angry@example.com', 500),
    ]);
    const r = await runCli(['contacts', 'clean', '--group', 'History', '--since', '800d', '--history', '--json'], { configDir: c, sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ source: 'store', applied: false });
    expect(doc.plan.map((p: { address: string; reason: string }) => [p.address, p.reason])).toEqual([['angry@example.com', 'complaint'], ['old.bounce@example.com', 'permanent bounce']]);
    expect(sb.get().sandbox.requests('notify')).toHaveLength(0);
    const refused = await runCli(['contacts', 'clean', '--group', 'History', '--since', '800d'], { configDir: c, sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('add --history');
  });

  it('the service\'s lookup (no --history) says so in --json: source "service"', async () => {
    const r = await runCli(['events', '--since', '1h', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: 'service', logs: [] });
  });
});
