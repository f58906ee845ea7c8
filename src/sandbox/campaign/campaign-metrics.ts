// Plausible, deterministic campaign results. Nothing is really delivered, so each campaign gets
// fixed rates derived from a hash of its code (same numbers on every call and every run), and
// recipients are assigned events by their rank in a per-campaign hash order. Endpoint 15's
// metrics, endpoint 16's CSV files, the groups' open/click rates and the contacts marked as
// bounced/unsubscribed/complained (excludeCnt) all come from this one assignment.
import type { CampaignMetrics } from './types.js';
import { unit } from './common.js';
import type { SbCampaign } from './state.js';

export interface Rates {
  bounce: number;
  open: number;
  /** Share of openers who click. */
  click: number;
  unsubscribe: number;
  complain: number;
}

export type Cohort = 'A' | 'B' | 'W';

export function ratesFor(sn: string, variant: 'A' | 'B' = 'A'): Rates {
  const u = (k: string) => unit(`${sn}:${k}`);
  const open = 0.15 + 0.3 * u('open');
  return {
    bounce: 0.01 + 0.03 * u('bounce'),
    // Version B differs from A by -20 % … +20 % in opens: one of them wins the test.
    open: variant === 'B' ? Math.min(0.95, open * (0.8 + 0.4 * u('b-open'))) : open,
    click: 0.1 + 0.3 * u('click'),
    unsubscribe: 0.002 + 0.006 * u('unsub'),
    complain: 0.0005 + 0.001 * u('complain'),
  };
}

export interface Counts {
  recipientCnt: number;
  delivered: number;
  bounced: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  complained: number;
}

export function countsFor(n: number, r: Rates): Counts {
  const bounced = Math.round(n * r.bounce);
  const delivered = n - bounced;
  const opened = Math.round(delivered * r.open);
  const clicked = Math.round(opened * r.click);
  const unsubscribed = Math.round(delivered * r.unsubscribe);
  const complained = Math.min(delivered - unsubscribed, Math.round(delivered * r.complain));
  return { recipientCnt: n, delivered, bounced, opened, clicked, unsubscribed, complained };
}

/** How a campaign's recipients split: A/B test shares, then the winner's share (W). */
export function cohortSizes(c: SbCampaign, n = c.recipientCnt): Record<Cohort, number> {
  if (!c.ab) return { A: 0, B: 0, W: n };
  const a = Math.ceil(c.testCnt / 2);
  return { A: a, B: c.testCnt - a, W: n - c.testCnt };
}

export function cohortRates(c: SbCampaign, cohort: Cohort): Rates {
  if (cohort === 'W') return ratesFor(c.sn, c.ab ? c.winner ?? 'A' : 'A');
  return ratesFor(c.sn, cohort);
}

/** The better version: more opens per delivery (ties go to A). */
export function pickWinner(sn: string): 'A' | 'B' {
  return ratesFor(sn, 'B').open > ratesFor(sn, 'A').open ? 'B' : 'A';
}

/**
 * Which event a recipient at `index` of its cohort (of `size`) had. Bounces come first, then
 * deliveries; openers are the first deliveries, clickers the first openers; unsubscribes and
 * complaints are taken from the end of the deliveries.
 */
export function eventsAt(index: number, counts: Counts): { bounced: boolean; opened: boolean; clicked: boolean; unsubscribed: boolean; complained: boolean } {
  const d = index - counts.bounced;
  const fromEnd = counts.recipientCnt - 1 - index;
  return {
    bounced: index < counts.bounced,
    opened: d >= 0 && d < counts.opened,
    clicked: d >= 0 && d < counts.clicked,
    unsubscribed: d >= 0 && fromEnd < counts.unsubscribed,
    complained: d >= 0 && fromEnd >= counts.unsubscribed && fromEnd < counts.unsubscribed + counts.complained,
  };
}

/** Spec endpoint 15: "sentStartAt, sentEndAt (UTC, format yyyy/MM/dd HH:mm:ss)". */
export function reportTime(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  const s = new Date(ms).toISOString();
  return `${s.slice(0, 4)}/${s.slice(5, 7)}/${s.slice(8, 10)} ${s.slice(11, 19)}`;
}

function item(c: SbCampaign, reportType: CampaignMetrics['reportType'], counts: Counts, subject: string | undefined, from?: number, to?: number): CampaignMetrics {
  const clickExtra = Math.round(counts.clicked * (0.2 + 0.3 * unit(`${c.sn}:dup`)));
  const m: CampaignMetrics = {
    campaignSn: c.sn, name: c.name, channel: 'MAIL', subject, sentStartAt: reportTime(from), sentEndAt: reportTime(to), reportType,
    recipientCnt: counts.recipientCnt, delivered: counts.delivered, bounced: counts.bounced, opened: counts.opened, clicked: counts.clicked,
    distinctClickCnt: counts.clicked, duplicateClickCnt: clickExtra, complained: counts.complained, unsubscribed: counts.unsubscribed,
  };
  // "transactions, transactionRevenue (… only if integrated and the account has the e-commerce permission)"
  if (c.ecommerce) {
    m.transactions = Math.round(counts.clicked * 0.08);
    m.transactionRevenue = Math.round(m.transactions * (20 + 80 * unit(`${c.sn}:aov`)) * 100) / 100;
  }
  for (const k of ['subject', 'sentStartAt', 'sentEndAt'] as const) if (m[k] === undefined) delete m[k];
  return m;
}

const sum = (xs: Counts[]): Counts =>
  xs.reduce((a, b) => ({
    recipientCnt: a.recipientCnt + b.recipientCnt, delivered: a.delivered + b.delivered, bounced: a.bounced + b.bounced, opened: a.opened + b.opened,
    clicked: a.clicked + b.clicked, unsubscribed: a.unsubscribed + b.unsubscribed, complained: a.complained + b.complained,
  }));

/** Cohort counts of what has gone out so far (everything, once COMPLETE). */
export function cohortCounts(c: SbCampaign): Record<Cohort, Counts> {
  const sizes = cohortSizes(c);
  // While sending, only part of the current cohort has gone out.
  let left = c.sentCnt;
  const take = (n: number) => {
    const t = Math.min(n, left);
    left -= t;
    return t;
  };
  const a = take(sizes.A);
  const b = take(sizes.B);
  const w = take(sizes.W);
  return { A: countsFor(a, cohortRates(c, 'A')), B: countsFor(b, cohortRates(c, 'B')), W: countsFor(w, cohortRates(c, 'W')) };
}

/** Spec endpoint 15: "One campaign yields one TOTAL item; A/B campaigns add TEST_A, TEST_B, WINNING items." */
export function metricsFor(c: SbCampaign): CampaignMetrics[] {
  const k = cohortCounts(c);
  const s = c.content;
  const end = c.sentEndAt;
  if (!c.ab) return [item(c, 'TOTAL', k.W, s.subject, c.sentBeginAt, end)];
  const subj = (v: 'A' | 'B') => (s.testingOn === 1 ? (v === 'A' ? s.subjectA : s.subjectB) : s.subject);
  const total = item(c, 'TOTAL', sum([k.A, k.B, k.W]), s.subject ?? subj('A'), c.sentBeginAt, end);
  if (c.testEndAt === undefined) return [total];
  return [
    total,
    item(c, 'TEST_A', k.A, subj('A'), c.sentBeginAt, c.testEndAt),
    item(c, 'TEST_B', k.B, subj('B'), c.sentBeginAt, c.testEndAt),
    item(c, 'WINNING', k.W, subj(c.winner ?? 'A'), c.testEndAt, end),
  ];
}
