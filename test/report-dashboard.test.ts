// `report sync` also writes DIR/index.html (issue 22.3): every synced campaign with its metrics,
// rates over time as inline SVG, A/B versions with the winner, relative links to its CSV files;
// one static page (no script, nothing fetched), rewritten atomically at the end of each run.
// Runs against a loopback server whose figures move between runs, as a service's do while opens
// come in; the page is read back with an HTML parser.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { useHostileServer } from './helpers/hostile-server.js';
import { serve as serveOn, syncRun as syncOn, movableClock, type Fixture } from './helpers/dashboard-fixture.js';
import { findAll, findOne, hasClass, parseHtml, textOf, type El } from './helpers/html.js';
import { addSnapshot, MAX_SNAPSHOTS, type MetricSnapshot } from '../src/report/sync/history.js';

const hs = useHostileServer();
const serve = (f: Fixture) => serveOn(hs.get(), f);
const syncRun = (dir: string, clock: ReturnType<typeof movableClock>, extra: string[] = []) => syncOn(hs.get(), dir, clock, extra);
const page = (dir: string) => parseHtml(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'));
const sectionOf = (p: El, sn: string) => findOne(p, (e) => e.tag === 'section' && e.attrs['data-sn'] === sn);
const points = (s: El, series: string) => findAll(s, (e) => e.tag === 'circle' && e.attrs['data-series'] === series);

describe('report sync: the dashboard', () => {
  it('each run adds the changed figures; the page draws one point per reading, the A/B winner and links to the files', async () => {
    const fx: Fixture = { opened: { CP1: 10, AB1: 10, EVIL: 10 } };
    serve(fx);
    const dir = tempDir('mailctl-dash-');
    const clock = movableClock(Date.parse('2026-01-02T00:00:00Z'));
    expect((await syncRun(dir, clock)).exitCode).toBe(0);
    clock.advance(3_600_000);
    fx.opened.CP1 = 30; // opens came in for CP1 only
    const r = await syncRun(dir, clock, ['--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ metrics: { asked: 3, changed: 1 }, dashboard: path.join(dir, 'index.html') });

    const p = page(dir);
    // The summary: a row per campaign with its latest rates.
    const cp1 = findOne(findOne(p, 'tbody'), (e) => e.tag === 'tr' && e.attrs['data-sn'] === 'CP1');
    expect(findAll(cp1, 'td').map(textOf).slice(3, 8)).toEqual(['100', '100.0%', '30.0%', '5.0%', '0.0%']);
    // Rates over time: CP1 changed once, so two readings; the others kept one.
    expect(points(sectionOf(p, 'CP1'), 'opened')).toHaveLength(2);
    expect(findAll(sectionOf(p, 'CP1'), (e) => e.tag === 'polyline' && e.attrs['data-series'] === 'opened')).toHaveLength(1);
    expect(points(sectionOf(p, 'AB1'), 'opened')).toHaveLength(1);
    const [older, newer] = points(sectionOf(p, 'CP1'), 'opened').map((c) => Number(c.attrs.cy));
    expect(newer).toBeLessThan(older); // a higher rate is drawn higher up
    // A/B: both versions' bars, the winner named from the WINNING row's subject.
    const ab = sectionOf(p, 'AB1');
    expect(findAll(ab, hasClass('ab-bar')).map((b) => b.attrs['data-version'])).toEqual(['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B']);
    expect(findOne(ab, hasClass('winner')).attrs['data-winner']).toBe('B');
    expect(findAll(sectionOf(p, 'CP1'), hasClass('ab-bar'))).toEqual([]);
    // Links: relative, and each one names a file that is there.
    const links = findAll(sectionOf(p, 'CP1'), hasClass('file')).map((a) => a.attrs.href);
    expect(links).toHaveLength(6);
    for (const l of links) {
      expect(l).not.toMatch(/^[a-z]+:|^\//i);
      expect(fs.existsSync(path.join(dir, decodeURIComponent(l)))).toBe(true);
    }
  });

  it('a hostile campaign name is text on the page: no element, no script anywhere', async () => {
    serve({ opened: {} });
    const dir = tempDir('mailctl-dash-');
    expect((await syncRun(dir, movableClock(Date.parse('2026-01-02T00:00:00Z')))).exitCode).toBe(0);
    const p = page(dir);
    expect(findAll(p, 'img')).toEqual([]);
    expect(findAll(p, 'script')).toEqual([]);
    expect(textOf(findOne(sectionOf(p, 'EVIL'), 'h2'))).toContain('<img src=x onerror=alert(1)>');
  });

  it('the metrics cannot be read: the files still sync, the page says its figures may be old, exit 5', async () => {
    const fx: Fixture = { opened: {} };
    serve(fx);
    const dir = tempDir('mailctl-dash-');
    const clock = movableClock(Date.parse('2026-01-02T00:00:00Z'));
    expect((await syncRun(dir, clock)).exitCode).toBe(0);
    fx.metricsStatus = 400;
    clock.advance(3_600_000);
    const r = await syncRun(dir, clock);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/metrics not read \(.*HTTP 400\): unavailable; index\.html shows the last ones read\)/);
    const p = page(dir);
    expect(findAll(p, (e) => e.attrs.id === 'metrics-error')).toHaveLength(1);
    expect(points(sectionOf(p, 'CP1'), 'opened')).toHaveLength(1); // the earlier reading is kept
  });

  it('is rewritten whole: no temporary file left beside it, and a leftover of a killed run is cleared', async () => {
    serve({ opened: {} });
    const dir = tempDir('mailctl-dash-');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.index.html.0123456789ab.part'), 'half a page');
    expect((await syncRun(dir, movableClock(Date.parse('2026-01-02T00:00:00Z')))).exitCode).toBe(0);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.index.html'))).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
  });
});

describe('metric snapshots', () => {
  const snap = (i: number): MetricSnapshot => ({ at: new Date(i * 1000).toISOString(), rows: [{ reportType: 'TOTAL', recipientCnt: 100, delivered: 100, opened: i, clicked: 0, bounced: 0, unsubscribed: 0, complained: 0 }] });

  it('the same figures again add nothing; the first reading and the newest are kept past the bound', () => {
    const h: MetricSnapshot[] = [];
    expect(addSnapshot(h, snap(0))).toBe(true);
    expect(addSnapshot(h, { ...snap(0), at: 'later' })).toBe(false);
    for (let i = 1; i < MAX_SNAPSHOTS + 10; i++) addSnapshot(h, snap(i));
    expect(h).toHaveLength(MAX_SNAPSHOTS);
    expect(h[0].rows[0].opened).toBe(0);
    expect(h.at(-1)!.rows[0].opened).toBe(MAX_SNAPSHOTS + 9);
  });
});
