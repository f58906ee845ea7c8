// An A/B campaign's result from endpoint 15's rows: version A (TEST_A), version B (TEST_B), and
// which of them won. The service names no winner: its WINNING row is "the best version" sent to
// the rest (spec 000 endpoint 15; section 3 rule 4: "the better version goes to the remaining
// contacts"), with the figures of that send but no A or B. Decisions row P14: the winner is the
// version whose subject the WINNING row carries, when the versions' subjects differ (a subject
// test); otherwise the version with more opens per delivery in the test, the measure the rest of
// mailctl reports, and the reason is always said with it. Equal rates name no winner.
import type { CampaignMetrics } from '../api/campaign-types.js';
import { ratesOf } from './metrics.js';

export type AbLabel = 'A' | 'B';

export interface AbResult {
  a: CampaignMetrics;
  b: CampaignMetrics;
  winning?: CampaignMetrics;
  winner?: AbLabel;
  /** Why that winner (or why none), for a person: "its subject was sent to the rest". */
  basis: string;
}

/** The A/B result of one campaign's rows, or undefined when they hold no TEST_A and TEST_B. */
export function abResult(rows: CampaignMetrics[]): AbResult | undefined {
  const pick = (t: string) => rows.find((r) => r.reportType === t);
  const a = pick('TEST_A');
  const b = pick('TEST_B');
  if (!a || !b) return undefined;
  const winning = pick('WINNING');
  if (!winning) return { a, b, basis: 'the test has not ended: the service gives no WINNING row yet' };
  const sa = a.subject;
  const sb = b.subject;
  if (typeof winning.subject === 'string' && typeof sa === 'string' && typeof sb === 'string' && sa !== sb) {
    if (winning.subject === sa) return { a, b, winning, winner: 'A', basis: "version A's subject is the one the rest received" };
    if (winning.subject === sb) return { a, b, winning, winner: 'B', basis: "version B's subject is the one the rest received" };
  }
  const ra = ratesOf(a).openRate;
  const rb = ratesOf(b).openRate;
  if (!isRate(ra) || !isRate(rb)) return { a, b, winning, basis: 'the test rows give no open rate to compare' };
  if (ra === rb) return { a, b, winning, basis: 'A and B opened alike per delivery in the test' };
  return { a, b, winning, winner: ra > rb ? 'A' : 'B', basis: 'more opens per delivery in the test' };
}

const isRate = (r: number | null): r is number => typeof r === 'number' && Number.isFinite(r);

/** The rows of each campaign, in the order given (report metrics orders them TOTAL, TEST_A, TEST_B, WINNING). */
export function byCampaign(rows: CampaignMetrics[]): Array<{ sn: string; rows: CampaignMetrics[] }> {
  const out = new Map<string, CampaignMetrics[]>();
  for (const r of rows) {
    const list = out.get(r.campaignSn) ?? [];
    list.push(r);
    out.set(r.campaignSn, list);
  }
  return [...out].map(([sn, list]) => ({ sn, rows: list }));
}
