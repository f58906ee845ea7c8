// Endpoint 15's numbers with the rates people ask for, as table columns, JSON or CSV.
// Rates follow the spec's own definitions where it gives one (section 2, Group: "total opens /
// total deliveries"): opens and clicks over delivered; bounces over recipients.
import type { CampaignMetrics } from '../api/campaign-types.js';
import type { Column, CsvColumn } from '../output/format.js';

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

const pct = (r: number | null) => (r === null ? '' : `${(r * 100).toFixed(1)}%`);

/** TOTAL first, then TEST_A, TEST_B, WINNING (spec endpoint 15), per campaign in the order asked. */
export function orderRows(rows: CampaignMetrics[], sns: string[]): CampaignMetrics[] {
  // Maps: the service's word is a key like any other (`constructor` finds nothing, not Object's).
  const rank = new Map([['TOTAL', 0], ['TEST_A', 1], ['TEST_B', 2], ['WINNING', 3]]);
  const pos = (sn: string) => (sns.indexOf(sn) < 0 ? sns.length : sns.indexOf(sn));
  return [...rows].sort((a, b) => pos(a.campaignSn) - pos(b.campaignSn) || (rank.get(a.reportType) ?? 9) - (rank.get(b.reportType) ?? 9));
}

const VERSION_WORDS = new Map([['TOTAL', 'total'], ['TEST_A', 'test A'], ['TEST_B', 'test B'], ['WINNING', 'winner']]);

export const METRIC_COLUMNS: Column<CampaignMetrics>[] = [
  { header: 'CAMPAIGN', value: (m) => m.campaignSn },
  { header: 'NAME', value: (m) => m.name },
  { header: 'ROWS', value: (m) => VERSION_WORDS.get(m.reportType) ?? m.reportType },
  { header: 'RECIPIENTS', value: (m) => m.recipientCnt, count: true },
  { header: 'DELIVERED', value: (m, n) => `${n(m.delivered)} (${pct(ratesOf(m).deliveryRate)})` },
  { header: 'OPENED', value: (m, n) => `${n(m.opened)} (${pct(ratesOf(m).openRate)})` },
  { header: 'CLICKED', value: (m, n) => `${n(m.clicked)} (${pct(ratesOf(m).clickRate)})` },
  { header: 'BOUNCED', value: (m, n) => `${n(m.bounced)} (${pct(ratesOf(m).bounceRate)})` },
  { header: 'UNSUBSCRIBED', value: (m) => m.unsubscribed, count: true },
  { header: 'COMPLAINED', value: (m) => m.complained, count: true },
];

const CSV_FIELDS: Array<[string, (m: CampaignMetrics, r: Rates) => unknown]> = [
  ['campaign_sn', (m) => m.campaignSn], ['name', (m) => m.name], ['report_type', (m) => m.reportType], ['channel', (m) => m.channel],
  ['subject', (m) => m.subject], ['sent_start_at', (m) => m.sentStartAt], ['sent_end_at', (m) => m.sentEndAt],
  ['recipient_cnt', (m) => m.recipientCnt], ['delivered', (m) => m.delivered], ['bounced', (m) => m.bounced],
  ['opened', (m) => m.opened], ['clicked', (m) => m.clicked], ['distinct_click_cnt', (m) => m.distinctClickCnt],
  ['duplicate_click_cnt', (m) => m.duplicateClickCnt], ['complained', (m) => m.complained], ['unsubscribed', (m) => m.unsubscribed],
  ['transactions', (m) => m.transactions], ['transaction_revenue', (m) => m.transactionRevenue],
  ['delivery_rate', (_m, r) => r.deliveryRate], ['open_rate', (_m, r) => r.openRate], ['click_rate', (_m, r) => r.clickRate],
  ['bounce_rate', (_m, r) => r.bounceRate], ['unsubscribe_rate', (_m, r) => r.unsubscribeRate], ['complaint_rate', (_m, r) => r.complaintRate],
];

/**
 * The spreadsheet form (--csv, through src/output/csv.ts: a campaign name or subject that starts
 * like a formula is written as text): every field of the service, then the rates as fractions
 * (0.1234) so spreadsheets can format them. Headers are snake_case like every CSV of mailctl
 * (the service's field names, campaignSn → campaign_sn); --json keeps the service's own names.
 */
export const METRIC_CSV: CsvColumn<CampaignMetrics>[] = CSV_FIELDS.map(([header, f]) => ({
  header,
  value: (m) => {
    const v = f(m, ratesOf(m));
    return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(4)) : v;
  },
}));
