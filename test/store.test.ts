// The event store (src/store): one behaviour over SQLite and PostgreSQL — a repeated event is one
// row, also when two writers insert it at the same moment; a batch is all or nothing (its extra
// copy undone when the commit fails); ranges, filters and paging; pruning by age. The SQLite file
// is read from outside with Python's sqlite3, the PostgreSQL store with psql.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { postgresForTests } from './helpers/postgres.js';
import { openStore } from '../src/store/open.js';
import { storeLocation } from '../src/store/location.js';
import { allRows, type EventStore } from '../src/store/store.js';
import { GroupCommit } from '../src/store/group-commit.js';
import { rowOf, type EventRow } from '../src/store/row.js';

const pg = await postgresForTests();
afterAll(() => pg?.stop());

const DAY = 86_400_000;
const T0 = Date.parse('2024-09-01T00:00:00Z');

function row(id: string, event = 'delivery', o: Partial<EventRow> = {}): EventRow {
  const payload = { event, mail: { id, to: `${id}@example.com`, subject: `Subject ${id}` }, [event]: { timestamp: o.timestamp ?? T0 } };
  return { ...rowOf(payload, { id, event, channel: 'email' }, o.receivedAt ?? T0 + 1000, { name: 'x-service-signature', value: 'ab'.repeat(32) }), ...o };
}

type Backend = { name: string; open: () => Promise<EventStore>; openAgain: (s: EventStore) => Promise<EventStore>; count: (s: EventStore) => number };

const backends: Backend[] = [
  {
    name: 'SQLite',
    open: () => openStore(storeLocation(`sqlite:${path.join(tempDir(), 'events.db')}`, '/nowhere'), { create: true }),
    openAgain: (s) => openStore(storeLocation(s.shown, '/nowhere'), { create: false }),
    count: (s) => Number(python(s.shown.slice('sqlite:'.length), 'SELECT count(*) FROM events')),
  },
];
if (pg) {
  backends.push({
    name: 'PostgreSQL',
    open: () => openStore(storeLocation(pg.database(), '/nowhere'), { create: true }),
    openAgain: (s) => openStore(storeLocation(s.shown, '/nowhere'), { create: false }),
    count: (s) => Number(pg.psql(s.shown, 'SELECT count(*) FROM events')),
  });
}

function python(file: string, sql: string): string {
  const r = spawnSync('python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print("\\n".join("|".join(map(str,r)) for r in c.execute(sys.argv[2])))', file, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 sqlite3: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

describe.each(backends)('the event store on $name', (b) => {
  it('stores an event once: a repeat (same channel, message id, event) is left out, another event of the message is new', async () => {
    const s = await b.open();
    expect(await s.insert([row('m1'), row('m2')])).toEqual([true, true]);
    expect(await s.insert([row('m1', 'delivery', { receivedAt: T0 + 5000 }), row('m1', 'open'), row('m2')])).toEqual([false, true, false]);
    expect(b.count(s)).toBe(3);
    // The same id on the other channel is another event.
    expect(await s.insert([{ ...row('m1'), channel: 'sms' }])).toEqual([true]);
    await s.close();
  });

  it('two writers inserting the same events at the same moment store each once, and between them report each as new exactly once', async () => {
    const a = await b.open();
    const c = await b.openAgain(a);
    const batch = (from: number) => Array.from({ length: 200 }, (_, i) => row(`m${(from + i) % 300}`));
    const [x, y] = await Promise.all([a.insert(batch(0)), c.insert(batch(100))]);
    expect(b.count(a)).toBe(300);
    // m100..m199 were in both batches: each is new in exactly one of them.
    const newIn = (res: boolean[], from: number, id: number) => res[(id - from + 300) % 300];
    for (let id = 100; id < 200; id++) expect(Number(newIn(x, 0, id)) + Number(newIn(y, 100, id))).toBe(1);
    await a.close();
    await c.close();
  });

  it('a batch whose extra copy fails is rolled back whole; a failed commit undoes the copy', async () => {
    const s = await b.open();
    await expect(s.insert([row('r1'), row('r2')], () => {
      throw new Error('disk full');
    })).rejects.toThrow('disk full');
    expect(b.count(s)).toBe(0);
    const seen: boolean[][] = [];
    expect(await s.insert([row('r1')], (ins) => void seen.push(ins))).toEqual([true]);
    expect(seen).toEqual([[true]]);
    await s.close();
  });

  it('answers by range, channel, id, recipient (any case) and events, in time order, a page at a time', async () => {
    const s = await b.open();
    const rows = Array.from({ length: 25 }, (_, i) => row(`q${i}`, i % 2 ? 'bounce' : 'delivery', { timestamp: T0 + i * DAY }));
    // One without a timestamp: its receipt is its time.
    rows.push(row('q-none', 'delivery', { timestamp: null, receivedAt: T0 + 3.5 * DAY }));
    await s.insert(rows);
    const got = [];
    for await (const r of allRows(s, { by: 'event', since: T0 + 2 * DAY, until: T0 + 10 * DAY, channel: 'email' }, 3)) got.push(r.messageId);
    expect(got).toEqual(['q2', 'q3', 'q-none', 'q4', 'q5', 'q6', 'q7', 'q8', 'q9', 'q10']);
    const bounces = [];
    for await (const r of allRows(s, { by: 'event', events: ['bounce'], since: T0, until: T0 + 6 * DAY }, 2)) bounces.push(r.messageId);
    expect(bounces).toEqual(['q1', 'q3', 'q5']);
    const one = await s.page({ by: 'event', recipient: 'Q7@EXAMPLE.COM' }, undefined, 10);
    expect(one.map((r) => [r.messageId, r.event, r.subject])).toEqual([['q7', 'bounce', 'Subject q7']]);
    expect(JSON.parse(one[0].payload)).toMatchObject({ mail: { id: 'q7' } });
    expect((await s.page({ by: 'event', id: 'q3' }, undefined, 10)).map((r) => r.event)).toEqual(['bounce']);
    await s.close();
  });

  it('keeps hostile text exactly: NUL, lone surrogates, quotes, a very long subject', async () => {
    const s = await b.open();
    const nasty = 'a\u0000b\ud800c"\'; DROP TABLE events; --' + 'x'.repeat(100_000);
    const payload = { event: 'click', mail: { id: 'h1', to: nasty, subject: nasty }, click: { timestamp: T0, link_url: nasty } };
    expect(await s.insert([rowOf(payload, { id: 'h1', event: 'click', channel: 'email' }, T0)])).toEqual([true]);
    const [r] = await s.page({ by: 'event', id: 'h1' }, undefined, 1);
    expect(JSON.parse(r.payload)).toEqual(JSON.parse(JSON.stringify(payload)));
    expect(b.count(s)).toBe(1);
    await s.close();
  });

  it('counts and prunes events older than a time (the event\'s own time, else its receipt)', async () => {
    const s = await b.open();
    await s.insert([row('p1', 'delivery', { timestamp: T0 - 500 * DAY }), row('p2', 'delivery', { timestamp: null, receivedAt: T0 - 450 * DAY }), row('p3', 'delivery', { timestamp: T0 })]);
    expect(await s.countOlder(T0 - 400 * DAY)).toBe(2);
    expect(await s.pruneOlder(T0 - 400 * DAY)).toBe(2);
    expect((await s.page({ by: 'event' }, undefined, 10)).map((r) => r.messageId)).toEqual(['p3']);
    await s.close();
  });

  it('group commit: events added together go in one transaction; repeats within it resolve as duplicates', async () => {
    const s = await b.open();
    const g = new GroupCommit(s, { maxBatch: 500 });
    const outcomes = await Promise.all([...Array.from({ length: 100 }, (_, i) => g.add(row(`g${i}`))), g.add(row('g5')), g.add(row('g7', 'delivery', { receivedAt: 1 }))]);
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(100);
    expect(outcomes.slice(100)).toEqual(['duplicate', 'duplicate']);
    expect(g.counts.batches).toBe(1);
    expect(b.count(s)).toBe(100);
    await s.close();
  });
});

describe('the SQLite store file', () => {
  it('is created private (0600) in the config folder by default, which is made 0700', async () => {
    const cfg = path.join(tempDir(), 'cfg');
    const s = await openStore(storeLocation(undefined, cfg), { create: true, configDir: cfg });
    await s.insert([row('f1')]);
    expect(fs.statSync(path.join(cfg, 'events.db')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cfg).mode & 0o777).toBe(0o700);
    await s.close();
  });

  it('a reader refuses a missing store, a file that is not SQLite and a symbolic link, each in one sentence', async () => {
    const dir = tempDir();
    await expect(openStore(storeLocation(`sqlite:${dir}/none.db`, dir), { create: false })).rejects.toThrow(/There is no event store at .*none\.db yet/);
    fs.writeFileSync(path.join(dir, 'text.db'), 'hello, this is not a database at all, just some text of some length to fill a page');
    await expect(openStore(storeLocation(`sqlite:${dir}/text.db`, dir), { create: true })).rejects.toThrow(/is not an SQLite database/);
    fs.symlinkSync(path.join(dir, 'text.db'), path.join(dir, 'link.db'));
    await expect(openStore(storeLocation(`sqlite:${dir}/link.db`, dir), { create: true })).rejects.toThrow(/symbolic link/);
  });
});

describe('--store values', () => {
  it('takes sqlite:PATH and postgres URLs, never shows a password, refuses anything else', () => {
    expect(storeLocation('sqlite:rel.db', '/c')).toMatchObject({ kind: 'sqlite', path: path.resolve('rel.db') });
    expect(storeLocation(undefined, '/c')).toMatchObject({ kind: 'sqlite', path: '/c/events.db' });
    expect(storeLocation('postgres://u:s3cret@db.example.com/m', '/c')).toMatchObject({ kind: 'postgres', shown: 'postgres://u:***@db.example.com/m' });
    expect(() => storeLocation('mysql://u:s3cret@h/m', '/c')).toThrow(/takes sqlite:PATH or a postgres:\/\/… URL; got "mysql:\/\/u:\*\*\*@h\/m"/);
    expect(() => storeLocation('sqlite:', '/c')).toThrow(/needs a file/);
  });
});
