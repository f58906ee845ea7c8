// `report metrics` as bars on a terminal (issue 22.2): delivered / opened / clicked / bounced
// rates drawn in Unicode blocks under the table, an A/B test's versions side by side with the
// winner named and why (src/report/ab.ts, decisions row P14); nothing of it when piped, in
// --json or CSV, and no colour under NO_COLOR. Figures come from a loopback server answering
// exactly what each test needs.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { reply, useHostileServer, HOSTILE_TEXT, TERMINAL_UNSAFE } from './helpers/hostile-server.js';
import { bar, metricChart } from '../src/report/chart.js';
import { abResult } from '../src/report/ab.js';
import { metricColumns } from '../src/report/metrics.js';
import type { CampaignMetrics } from '../src/api/campaign-types.js';

const hs = useHostileServer();

function row(reportType: string, o: Partial<CampaignMetrics> = {}): CampaignMetrics {
  return { campaignSn: 'CP1', name: 'Spring', channel: 'MAIL', reportType, recipientCnt: 200, delivered: 200, opened: 100, clicked: 50, bounced: 0, complained: 0, unsubscribed: 0, ...o } as CampaignMetrics;
}
const plain = { width: 80, paint: (_s: string, t: string) => t };
const BLOCKS = /[█▏▎▍▌▋▊▉]/g;
/** The bar of a chart line: its block characters. */
const barOf = (line: string) => (line.match(BLOCKS) ?? []).join('');

describe('the bars', () => {
  it('are as long as the rate, in eighths of a character, and always the full width', () => {
    expect(bar(0.5, 40)).toBe('█'.repeat(20) + ' '.repeat(20));
    expect(bar(1 / 16, 4)).toBe('▎   '); // 1/4 of a character: 2 eighths
    expect(bar(0, 10)).toBe(' '.repeat(10));
    expect(bar(1.7, 10)).toBe('█'.repeat(10)); // over 100 % (a service counting oddly) is drawn full, not past the column
    for (const f of [0, 0.01, 0.33, 0.999, 1]) expect(bar(f, 23)).toHaveLength(23);
  });

  it('one campaign: a bar per rate, its length the rate of the bar column', () => {
    const lines = metricChart([row('TOTAL', { delivered: 180, bounced: 20, opened: 90, clicked: 45 })], plain);
    const of = (label: string) => lines.find((l) => l.trimStart().startsWith(label))!;
    const width = of('delivered').length - 13 - 7; // "  delivered  " + the bar + " 100.0%"
    expect(width).toBe(50);
    expect(barOf(of('delivered'))).toBe(bar(0.9, width).trim()); // 180 of 200 recipients
    expect(barOf(of('opened'))).toBe(bar(0.5, width).trim()); // 90 of 180 delivered
    expect(barOf(of('clicked'))).toBe(bar(0.25, width).trim());
    expect(barOf(of('bounced'))).toBe(bar(0.1, width).trim());
    expect(of('opened')).toMatch(/ 50\.0%$/);
  });

  it('a rate the figures cannot give (nothing delivered) is n/a with an empty bar, not 0 %', () => {
    const lines = metricChart([row('TOTAL', { recipientCnt: 0, delivered: 0, opened: 0 })], plain);
    expect(lines.find((l) => l.trimStart().startsWith('opened'))).toMatch(/^ {2}opened {5} {50} {4}n\/a$/);
  });

  it('the table beside it says n/a too, not "0 ()" (a rate nothing can be divided by)', () => {
    const m = row('TOTAL', { recipientCnt: 10, delivered: 0, opened: 0, clicked: 0, bounced: 10 });
    const cells = { count: (v: unknown) => String(v), rate: (v: unknown) => `${(Number(v) * 100).toFixed(1)}%` };
    const cell = (header: string) => metricColumns([m]).find((c) => c.header === header && c.only === 'table')!.value(m, cells);
    expect([cell('DELIVERED'), cell('OPENED'), cell('CLICKED'), cell('BOUNCED')]).toEqual(['0 (0.0%)', '0 (n/a)', '0 (n/a)', '10 (100.0%)']);
  });

  it('a campaign name full of escapes reaches the terminal made visible', () => {
    const lines = metricChart([row('TOTAL', { name: HOSTILE_TEXT.osc, campaignSn: HOSTILE_TEXT.clear })], plain);
    expect(lines.join('\n')).not.toMatch(TERMINAL_UNSAFE);
  });
});

describe('A/B: versions side by side, the winner named', () => {
  const ab = (o: { a?: Partial<CampaignMetrics>; b?: Partial<CampaignMetrics>; w?: Partial<CampaignMetrics> | null } = {}) => [
    row('TOTAL'),
    row('TEST_A', { subject: 'Hi', opened: 60, ...o.a }),
    row('TEST_B', { subject: 'Hello', opened: 80, ...o.b }),
    ...(o.w === null ? [] : [row('WINNING', { subject: 'Hello', ...o.w })]),
  ];

  it('the winner is the version whose subject the rest received', () => {
    expect(abResult(ab())).toMatchObject({ winner: 'B', basis: "version B's subject is the one the rest received" });
    expect(abResult(ab({ w: { subject: 'Hi' } }))).toMatchObject({ winner: 'A' }); // even with fewer opens
  });

  it('without a telling subject: the version with more opens per delivery in the test, said so', () => {
    expect(abResult(ab({ a: { subject: 'Same' }, b: { subject: 'Same' }, w: { subject: 'Same' } }))).toMatchObject({ winner: 'B', basis: 'more opens per delivery in the test' });
    expect(abResult(ab({ a: { subject: 'S', opened: 80 }, b: { subject: 'S' }, w: { subject: 'S' } }))?.winner).toBeUndefined(); // a tie names none
  });

  it('no WINNING row yet: no winner named', () => {
    const r = abResult(ab({ w: null }))!;
    expect(r.winner).toBeUndefined();
    expect(r.basis).toMatch(/has not ended/);
  });

  it('draws A and B in two columns on each rate line, the winner marked', () => {
    const lines = metricChart(ab(), { ...plain, width: 100 });
    expect(lines.find((l) => l.includes('A/B test'))).toMatch(/A\/B test: winner B \(version B's subject is the one the rest received\)/);
    expect(lines.find((l) => /^\s+A\s+B ★ winner$/.test(l))).toBeDefined();
    const opened = lines.find((l) => l.trimStart().startsWith('opened'))!;
    expect(opened.match(/\d+\.\d%/g)).toEqual(['30.0%', '40.0%']); // 60 and 80 of 200 delivered
    expect(barOf(opened.split('30.0%')[1]).length).toBeGreaterThan(barOf(opened.split('30.0%')[0]).length);
  });
});

describe('report metrics: where the chart is drawn', () => {
  const answer = [row('TOTAL', { campaignSn: 'CP1' }), row('TOTAL', { campaignSn: 'CP2', name: 'Test' }), row('TEST_A', { campaignSn: 'CP2', subject: 'A', opened: 40 }), row('TEST_B', { campaignSn: 'CP2', subject: 'B', opened: 90 }), row('WINNING', { campaignSn: 'CP2', subject: 'B' })];
  const metrics = (args: string[], o: { tty?: boolean; env?: Record<string, string> } = {}) => {
    hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json(answer));
    return runCli(['report', 'metrics', 'CP1', 'CP2', ...args], { tty: o.tty, env: { ...hs.get().env, ...o.env } });
  };

  it('on a terminal: the table, then the bars in colour, the A/B test side by side', async () => {
    const r = await metrics([], { tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/CODE[\s\S]*\n\n[\s\S]*Rates: delivered and bounced per recipient/); // after the table and a blank line
    expect(r.stdout).toMatch(/ winner: B /); // the table names the winner by the same rule (src/report/ab.ts)
    expect(r.stdout).toMatch(BLOCKS);
    expect(r.stdout).toContain('A/B test: winner');
    expect(r.stdout).toMatch(/\u001b\[36m█+/); // opened in cyan
  });

  it('NO_COLOR: the same bars without a colour code', async () => {
    const r = await metrics([], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.stdout).toMatch(BLOCKS);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('a code with no metrics beside ones with: the others printed, a warning naming it, exit 5', async () => {
    hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json([row('TOTAL')]));
    const r = await runCli(['report', 'metrics', 'CP1', 'CP9', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr).toContain('No metrics for CP9: no such campaign, or it has not been sent yet.');
  });

  it('piped, --json and --csv: the data as before, no bar', async () => {
    for (const args of [[], ['--json'], ['--csv']]) {
      const r = await metrics(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(BLOCKS);
      expect(r.stdout).not.toContain('Rates:');
    }
    const json = JSON.parse((await metrics(['--json'], { tty: true })).stdout);
    expect(json).toHaveLength(5); // --json on a terminal: still the one document
  });
});
