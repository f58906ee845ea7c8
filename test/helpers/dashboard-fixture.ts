// A service for the dashboard tests (test/report-dashboard.test.ts, test/browser-pages.test.ts):
// on the loopback hostile server, three finished campaigns — CP1 (regular), AB1 (a subject test
// that B won), EVIL (a name holding markup) — whose opens a test moves between sync runs, as a
// service's figures move while opens come in; and a clock the test moves between runs.
import type { HostileServer, Seen } from './hostile-server.js';
import { reply } from './hostile-server.js';
import { runCli } from './cli.js';
import { TYPES } from './report-sync.js';
import type { Clock } from '../../src/core/clock.js';

const FINISHED = '2026-01-01T10:00:00Z';

export interface Fixture {
  /** Opened count per campaign, changed by a test between runs. */
  opened: Record<string, number>;
  /** Answer the metrics request with this status instead. */
  metricsStatus?: number;
}

/** CP1 (regular), AB1 (a subject test B won), and a hostile name; files hold their code. */
export function serve(h: HostileServer, f: Fixture): void {
  const names: Record<string, string> = { CP1: 'Spring news', AB1: 'Subject test', EVIL: '<img src=x onerror=alert(1)>' };
  h.on('GET', '/campaign/v1/report/campaigns', reply.json(Object.entries(names).map(([sn, name]) => ({ sn, name, sentBeginDate: '2026-01-01T09:00:00Z', sentEndDate: FINISHED }))));
  h.on('POST', /^\/campaign\/v1\/report\/[^/]+\/export$/, reply.json({ message: 'success' }));
  h.on('GET', /^\/campaign\/v1\/report\/[^/]+\/link$/, (res, seen) => {
    const sn = seen.path.split('/')[4];
    reply.json({ Reports: TYPES.map((t) => ({ reportType: t, link: `${h.url}/files/${sn}/${t}.csv`, createdDate: FINISHED })) })(res, seen, undefined as never);
  });
  h.on('GET', /^\/files\//, (res, seen) => reply.text(`email,code\nann@example.com,${seen.path.split('/')[2]}\n`)(res, seen, undefined as never));
  h.on('POST', '/campaign/v1/report/campaigns/metrics', (res, seen: Seen) => {
    if (f.metricsStatus) return reply.json({ message: 'unavailable' }, f.metricsStatus)(res, seen, undefined as never);
    const row = (sn: string, reportType: string, o: Record<string, unknown> = {}) => ({ campaignSn: sn, name: names[sn], channel: 'MAIL', reportType, recipientCnt: 100, delivered: 100, bounced: 0, opened: f.opened[sn] ?? 10, clicked: 5, complained: 0, unsubscribed: 0, ...o });
    const asked = JSON.parse(seen.body).campaignSns as string[];
    reply.json(asked.flatMap((sn) => sn === 'AB1'
      ? [row(sn, 'TOTAL'), row(sn, 'TEST_A', { subject: 'Hi', opened: 20, recipientCnt: 50, delivered: 50 }), row(sn, 'TEST_B', { subject: 'Hello', opened: 30, recipientCnt: 50, delivered: 50 }), row(sn, 'WINNING', { subject: 'Hello' })]
      : [row(sn, 'TOTAL')]))(res, seen, undefined as never);
  });
}

/** A clock a test moves between runs; a wait inside a run (export pacing) moves it too, at once. */
export function movableClock(start: number): { clock: Clock; advance(ms: number): void } {
  let t = start;
  return { clock: { now: () => t, sleep: async (ms) => void (t += Math.max(0, ms)) }, advance: (ms) => void (t += ms) };
}

export async function syncRun(h: HostileServer, dir: string, clock: ReturnType<typeof movableClock>, extra: string[] = []) {
  return runCli(['report', 'sync', '--out-dir', dir, '--since', '2025-12-01', ...extra], { env: h.env, clock: clock.clock });
}
