// Endpoint 15's numbers with the rates people ask for, as table columns, JSON, TSV or CSV.
// Rates follow the spec's own definitions where it gives one (section 2, Group: "total opens /
// total deliveries"): opens and clicks over delivered; bounces over recipients.
import type { CampaignMetrics } from '../api/campaign-types.js';
import type { Column } from '../run/output/format.js';
import { abResult, byCampaign } from './ab.js';

export interface Rates {
  deliveryRate: number | null;
  openRate: number | null;
  clickRate: number | null;
  bounceRate: number | null;
  unsubscribeRate: number | null;
  complaintRate: number | null;
}

const ratio = (a: number | undefined, b: number | undefined): number | null => (b ? Number(a ?? 0) / Number(b) : null);

export function ratesOf(m: CampaignMetrics): Rates {
  return {
    deliveryRate: ratio(m.delivered, m.recipientCnt),
    openRate: ratio(m.opened, m.delivered),
    clickRate: ratio(m.clicked, m.delivered),
    bounceRate: ratio(m.bounced, m.recipientCnt),
    unsubscribeRate: ratio(m.unsubscribed, m.delivered),
    complaintRate: ratio(m.complained, m.delivered),
  };
}

/** TOTAL first, then TEST_A, TEST_B, WINNING (spec endpoint 15), per campaign in the order asked. */
export function orderRows(rows: CampaignMetrics[], sns: string[]): CampaignMetrics[] {
  // Maps: the service's word is a key like any other (`constructor` finds nothing, not Object's).
  const rank = new Map([['TOTAL', 0], ['TEST_A', 1], ['TEST_B', 2], ['WINNING', 3]]);
  const pos = (sn: string) => (sns.indexOf(sn) < 0 ? sns.length : sns.indexOf(sn));
  return [...rows].sort((a, b) => pos(a.campaignSn) - pos(b.campaignSn) || (rank.get(a.reportType) ?? 9) - (rank.get(b.reportType) ?? 9));
}

/**
 * The winner of each A/B campaign among these rows (src/report/ab.ts, decisions row P14: the
 * rule the chart and the dashboard use), with why; null when the rows name none.
 */
function winners(rows: CampaignMetrics[]): Map<string, { winner: 'A' | 'B' | null; basis: string }> {
  const out = new Map<string, { winner: 'A' | 'B' | null; basis: string }>();
  for (const { sn, rows: own } of byCampaign(rows)) {
    const ab = abResult(own);
    if (ab) out.set(sn, { winner: ab.winner ?? null, basis: ab.basis });
  }
  return out;
}

/** The --json items: the service's own, with the rates (fractions 0–1) and, for A/B campaigns, the winner and why. */
export function metricsJson(rows: CampaignMetrics[]) {
  const won = winners(rows);
  return rows.map((m) => {
    const w = won.get(m.campaignSn);
    return { ...m, rates: ratesOf(m), ...(w ? { winner: w.winner, winnerBasis: w.basis } : {}) };
  });
}

const VERSION = new Map([['TOTAL', 'total'], ['TEST_A', 'A'], ['TEST_B', 'B'], ['WINNING', 'winner']]);
const version = (m: CampaignMetrics) => VERSION.get(m.reportType) ?? m.reportType;

/**
 * The columns of `report metrics`. A table shows each count with its rate ("1,204 (92.1%)") and
 * the winning version named ("winner: B"; the chart under it says why); TSV and CSV carry every field of the service and the
 * rates as separate columns (fractions), in snake_case (code, sent_from: the names every other
 * list gives these), so a spreadsheet can format them; --json keeps the service's own names.
 */
export function metricColumns(rows: CampaignMetrics[]): Column<CampaignMetrics>[] {
  const won = winners(rows);
  const winner = (m: CampaignMetrics) => won.get(m.campaignSn)?.winner ?? '';
  const withRate = (header: string, n: (m: CampaignMetrics) => unknown, r: (x: Rates) => number | null): Column<CampaignMetrics> =>
    // A rate with nothing to divide by (nothing delivered) is n/a, as the chart says, never "()".
    ({ header, only: 'table', value: (m, f) => {
      const rate = r(ratesOf(m));
      return `${f.count(n(m))} (${rate === null ? 'n/a' : f.rate(rate)})`;
    } });
  const data = (header: string, value: (m: CampaignMetrics, r: Rates) => unknown, kind?: Column<CampaignMetrics>['kind']): Column<CampaignMetrics> =>
    ({ header, only: 'data', kind, value: (m) => value(m, ratesOf(m)) });
  return [
    { header: 'CODE', value: (m) => m.campaignSn },
    { header: 'NAME', value: (m) => m.name },
    { header: 'VERSION', only: 'table', value: (m) => (m.reportType === 'WINNING' ? `winner${winner(m) ? `: ${winner(m)}` : ''}` : version(m)) },
    data('VERSION', (m) => version(m)),
    data('WINNER', (m) => winner(m)),
    data('CHANNEL', (m) => m.channel),
    data('SUBJECT', (m) => m.subject),
    data('SENT FROM', (m) => m.sentStartAt, 'date'),
    data('SENT UNTIL', (m) => m.sentEndAt, 'date'),
    { header: 'RECIPIENTS', kind: 'count', value: (m) => m.recipientCnt },
    withRate('DELIVERED', (m) => m.delivered, (r) => r.deliveryRate),
    withRate('OPENED', (m) => m.opened, (r) => r.openRate),
    withRate('CLICKED', (m) => m.clicked, (r) => r.clickRate),
    withRate('BOUNCED', (m) => m.bounced, (r) => r.bounceRate),
    data('DELIVERED', (m) => m.delivered, 'count'),
    data('BOUNCED', (m) => m.bounced, 'count'),
    data('OPENED', (m) => m.opened, 'count'),
    data('CLICKED', (m) => m.clicked, 'count'),
    data('DISTINCT CLICKS', (m) => m.distinctClickCnt, 'count'),
    data('DUPLICATE CLICKS', (m) => m.duplicateClickCnt, 'count'),
    { header: 'UNSUBSCRIBED', kind: 'count', value: (m) => m.unsubscribed },
    { header: 'COMPLAINED', kind: 'count', value: (m) => m.complained },
    data('TRANSACTIONS', (m) => m.transactions, 'count'),
    data('TRANSACTION REVENUE', (m) => m.transactionRevenue),
    data('DELIVERY RATE', (_m, r) => r.deliveryRate, 'rate'),
    data('OPEN RATE', (_m, r) => r.openRate, 'rate'),
    data('CLICK RATE', (_m, r) => r.clickRate, 'rate'),
    data('BOUNCE RATE', (_m, r) => r.bounceRate, 'rate'),
    data('UNSUBSCRIBE RATE', (_m, r) => r.unsubscribeRate, 'rate'),
    data('COMPLAINT RATE', (_m, r) => r.complaintRate, 'rate'),
  ];
}
