// The six detail files of endpoint 16 (delivery, open, click, bounce, unsubscribe, complain),
// written as CSV from the same event assignment as the metrics (campaign-metrics.ts), so a
// campaign's open file has as many rows as its `opened` count. Column layouts are the
// sandbox's own (the spec shows none). Bound: at most REPORT_ROWS recipients are listed; a
// bigger campaign's files hold its first REPORT_ROWS recipients only.
import fs from 'node:fs';
import { once } from 'node:events';
import { csvLine } from './import-csv.js';
import { cohortCounts, cohortSizes, eventsAt, type Cohort } from './campaign-metrics.js';
import { unit } from './common.js';
import { placeholder, ranked, readList, type Recipient } from './recipients.js';
import type { SbCampaign } from './state.js';

export const REPORT_TYPES = ['delivery', 'open', 'click', 'bounce', 'unsubscribe', 'complain'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_ROWS = 50_000;

const HEADERS: Record<ReportType, string[]> = {
  delivery: ['EMAIL', 'NAME', 'VERSION', 'SENT_AT', 'STATUS'],
  open: ['EMAIL', 'NAME', 'VERSION', 'OPENED_AT', 'DEVICE'],
  click: ['EMAIL', 'NAME', 'VERSION', 'CLICKED_AT', 'LINK_URL'],
  bounce: ['EMAIL', 'NAME', 'VERSION', 'BOUNCED_AT', 'BOUNCE_TYPE', 'REASON'],
  unsubscribe: ['EMAIL', 'NAME', 'VERSION', 'UNSUBSCRIBED_AT'],
  complain: ['EMAIL', 'NAME', 'VERSION', 'COMPLAINED_AT'],
};
const DEVICES = ['desktop', 'mobile', 'tablet'];

/**
 * Who the campaign went to, in rank order: group campaigns use the current members (made-up
 * addresses fill in members the store could not keep); once-campaigns read the uploaded list.
 */
export async function campaignAudience(c: SbCampaign, members: Recipient[], listPath?: string): Promise<Recipient[]> {
  const n = Math.min(c.recipientCnt, REPORT_ROWS);
  let people: Recipient[] = c.audience === 'once' && listPath ? (await readList(listPath, n)).first : ranked(c.sn, members);
  people = people.slice(0, n);
  for (let i = people.length; i < n; i++) people.push(placeholder(c.sn, i));
  return people;
}

/** Writes the six files; returns the written file paths by report type. */
export async function writeReportFiles(c: SbCampaign, people: Recipient[], now: number, pathFor: (t: ReportType) => string): Promise<Record<ReportType, string>> {
  const streams = Object.fromEntries(REPORT_TYPES.map((t) => [t, fs.createWriteStream(pathFor(t))])) as Record<ReportType, fs.WriteStream>;
  let failed: Error | undefined;
  for (const s of Object.values(streams)) s.on('error', (e) => (failed ??= e));
  const write = async (t: ReportType, cells: Array<string | number>) => {
    if (failed) throw failed;
    if (!streams[t].write(csvLine(cells))) await once(streams[t], 'drain');
  };
  for (const t of REPORT_TYPES) await write(t, HEADERS[t]);
  const counts = cohortCounts(c);
  const sizes = cohortSizes(c);
  const order: Cohort[] = ['A', 'B', 'W'];
  const begin = c.sentBeginAt ?? c.updatedAt;
  const testEnd = c.testEndAt ?? begin;
  const at = (base: number, key: string, spanMs: number) => new Date(base + Math.floor(unit(key) * spanMs)).toISOString();
  // Events happen between the send and now (at most two days later): never in the future.
  const spanFrom = (sent: number) => Math.max(60_000, Math.min(48 * 3_600_000, now - sent));
  let cohort = 0;
  let start = 0;
  for (let i = 0; i < people.length; i++) {
    while (cohort < 2 && i >= start + sizes[order[cohort]]) start += sizes[order[cohort++]];
    const k = order[cohort];
    const version = c.ab ? (k === 'W' ? `WINNING (${c.winner ?? 'A'})` : k) : '';
    const p = people[i];
    const e = eventsAt(i - start, counts[k]);
    const key = `${c.sn}:${p.email}`;
    const sent = (k === 'W' && c.ab ? testEnd : begin) + Math.floor(unit(`${key}:sent`) * 60_000);
    await write('delivery', [p.email, p.name, version, new Date(sent).toISOString(), e.bounced ? 'BOUNCED' : 'DELIVERED']);
    const span = spanFrom(sent);
    if (e.bounced) {
      const hard = i % 2 === 0; // as campaign-send.ts marks them
      await write('bounce', [p.email, p.name, version, at(sent, `${key}:b`, Math.min(span, 600_000)), hard ? 'HARD' : 'SOFT', hard ? '550 5.1.1 mailbox does not exist' : '452 4.2.2 mailbox full']);
      continue;
    }
    const opened = sent + Math.floor(unit(`${key}:o`) * span * 0.8);
    if (e.opened) await write('open', [p.email, p.name, version, new Date(opened).toISOString(), DEVICES[Math.floor(unit(`${key}:d`) * 3)]]);
    if (e.clicked) await write('click', [p.email, p.name, version, at(opened, `${key}:c`, span * 0.2), `https://www.example.com/offer?utm_source=newsletter&r=${i + 1}`]);
    if (e.unsubscribed) await write('unsubscribe', [p.email, p.name, version, at(sent, `${key}:u`, span)]);
    if (e.complained) await write('complain', [p.email, p.name, version, at(sent, `${key}:k`, span)]);
  }
  await Promise.all(REPORT_TYPES.map((t) => new Promise<void>((r) => streams[t].end(() => r()))));
  if (failed) throw failed;
  return Object.fromEntries(REPORT_TYPES.map((t) => [t, pathFor(t)])) as Record<ReportType, string>;
}
