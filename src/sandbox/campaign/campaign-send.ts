// How campaigns move with time (spec section 3 names the states; transitions are "not shown",
// so these are the sandbox's):
//
//   send now, groups:  PREPARE_TO_SENT ─prepare─▶ SENDING ─sending─▶ COMPLETE
//   scheduled:         PREPARE ─scheduleDate─▶ PREPARE_TO_SENT ─▶ …      (pause: PREPARE → STOP)
//   send now, once:    DRAFT ─list uploaded─▶ PREPARE_TO_SENT ─▶ …
//   A/B:               PREPARE_TO_SENT ─▶ TESTING ─test window─▶ SENDING (winner to the rest) ─▶ COMPLETE
//
// At the end of PREPARE_TO_SENT ("list being converted to recipients") the recipients are counted
// again and the campaign may stop instead:
//   UNAUTHENTICATED_SENDER  a sender address is no longer verified (sandbox option changed);
//   EMPTY_RECIPIENT         no recipients (also a scheduled once-campaign whose list never came);
//   INSUFFICIENT_RECIPIENT_FOR_TESTING  the test share floor(n × proportion / 100) is below 2,
//                           too few for one contact per version;
//   OVER_LIMIT              the email balance, less what campaigns already sending still need,
//                           is below the recipient count.
// Durations: delays.campaignPrepare and delays.campaignSending. Sandbox time scale for A/B
// tests: one test hour lasts delays.campaignSending ms (a test day 24 of those), so a 1-hour
// test takes seconds, not an hour. The balance goes down as mail goes out (pro rata over the
// sending phase).
import fs from 'node:fs';
import type { SbContext } from '../types.js';
import { contactKey, recountGroups } from './contacts.js';
import { cohortCounts, cohortSizes, eventsAt, pickWinner, type Cohort } from './campaign-metrics.js';
import { isVerifiedSender, senderFields } from './campaign-validate.js';
import { finished, forgetJob } from './jobs.js';
import { listRecipients, ranked, readList, recipientCount } from './recipients.js';
import type { CampaignState, SbCampaign, SbCampaignStatus } from './state.js';
import type { UploadTarget } from '../types.js';

/** Statuses in which mail is going out: not deletable (spec rule 2), and they hold balance. */
export const IN_FLIGHT: ReadonlySet<SbCampaignStatus> = new Set(['PREPARE_TO_SENT', 'SENDING', 'TESTING']);

export function testWindowMs(ctx: SbContext, c: SbCampaign): number {
  return c.testTime * (c.testUnit === 1 ? 24 : 1) * ctx.opts.delays.campaignSending;
}

/** Email balance not yet promised to campaigns that are sending. */
export function availableBalance(st: CampaignState, except?: SbCampaign): number {
  const promised = st.campaigns
    .filter((c) => c !== except && (c.status === 'SENDING' || c.status === 'TESTING'))
    .reduce((n, c) => n + Math.max(0, c.recipientCnt - c.sentCnt), 0);
  return st.balance.email - promised;
}

function sendUpTo(st: CampaignState, c: SbCampaign, target: number): void {
  const d = Math.min(target, c.recipientCnt) - c.sentCnt;
  if (d <= 0) return;
  c.sentCnt += d;
  st.balance.email = Math.max(0, st.balance.email - d);
}

function stop(c: SbCampaign, status: SbCampaignStatus, at: number): boolean {
  c.status = status;
  c.updatedAt = at;
  delete c.phaseStart;
  delete c.phaseUntil;
  return true;
}

/**
 * Once-campaigns: the uploaded list's row count, asked for when preparing ends by the clock; the
 * request that finds it due waits for the count (jobs.ts: time, not processes, moves a campaign).
 */
async function listRows(ctx: SbContext, c: SbCampaign): Promise<number> {
  if (c.listRows !== undefined) return c.listRows;
  if (!c.listFile) return 0;
  const file = ctx.filePath(c.listFile);
  const job = await finished(ctx.state.campaign, `count:${c.sn}`, () => readList(file));
  forgetJob(ctx.state.campaign, `count:${c.sn}`);
  c.listRows = job.result?.rows ?? 0;
  return c.listRows;
}

/** One transition if one is due; true when something changed (call again). */
async function step(ctx: SbContext, c: SbCampaign): Promise<boolean> {
  const st = ctx.state.campaign;
  const { campaignPrepare, campaignSending } = ctx.opts.delays;
  const now = ctx.now;
  switch (c.status) {
    case 'PREPARE': {
      if (c.scheduledAt === undefined || now < c.scheduledAt) return false;
      if (c.audience === 'once' && !c.listFile) return stop(c, 'EMPTY_RECIPIENT', c.scheduledAt);
      Object.assign(c, { status: 'PREPARE_TO_SENT', phaseStart: c.scheduledAt, phaseUntil: c.scheduledAt + campaignPrepare, updatedAt: c.scheduledAt });
      return true;
    }
    case 'PREPARE_TO_SENT': {
      if (now < (c.phaseUntil ?? 0)) return false;
      const n = c.audience === 'once' ? await listRows(ctx, c) : recipientCount(st, c);
      // A state saved by an older sandbox may still carry this mark of a count that outlasted its phase.
      delete c.waitedForList;
      const t = c.phaseUntil ?? now;
      if (senderFields(c.content).some((f) => !isVerifiedSender(ctx, String(c.content[f])))) return stop(c, 'UNAUTHENTICATED_SENDER', t);
      if (n === 0) return stop(c, 'EMPTY_RECIPIENT', t);
      if (c.ab) {
        c.testCnt = Math.floor((n * c.proportion) / 100);
        if (c.testCnt < 2) return stop(c, 'INSUFFICIENT_RECIPIENT_FOR_TESTING', t);
      }
      if (availableBalance(st, c) < n) return stop(c, 'OVER_LIMIT', t);
      Object.assign(c, { recipientCnt: n, sentBeginAt: t, phaseStart: t, updatedAt: t });
      if (c.ab) Object.assign(c, { status: 'TESTING', phaseUntil: t + testWindowMs(ctx, c) });
      else Object.assign(c, { status: 'SENDING', phaseUntil: t + campaignSending });
      return true;
    }
    case 'TESTING': {
      if (now < (c.phaseUntil ?? 0)) return false;
      const t = c.phaseUntil ?? now;
      sendUpTo(st, c, c.testCnt);
      Object.assign(c, { winner: pickWinner(c.sn), testEndAt: t, updatedAt: t });
      if (c.recipientCnt === c.testCnt) return complete(ctx, c, t);
      Object.assign(c, { status: 'SENDING', phaseStart: t, phaseUntil: t + campaignSending });
      return true;
    }
    case 'SENDING': {
      if (now < (c.phaseUntil ?? 0)) return false;
      return complete(ctx, c, c.phaseUntil ?? now);
    }
    default:
      return false;
  }
}

/** Mail going out during TESTING and SENDING, pro rata. */
function progress(ctx: SbContext, c: SbCampaign): void {
  const st = ctx.state.campaign;
  const elapsed = ctx.now - (c.phaseStart ?? ctx.now);
  if (c.status === 'TESTING') {
    const span = Math.max(1, Math.min(testWindowMs(ctx, c), ctx.opts.delays.campaignSending));
    sendUpTo(st, c, Math.floor(c.testCnt * Math.min(1, elapsed / span)));
  } else if (c.status === 'SENDING') {
    const base = c.ab ? c.testCnt : 0;
    const span = Math.max(1, (c.phaseUntil ?? 0) - (c.phaseStart ?? 0));
    sendUpTo(st, c, base + Math.floor((c.recipientCnt - base) * Math.min(1, elapsed / span)));
  }
}

function complete(ctx: SbContext, c: SbCampaign, at: number): boolean {
  const st = ctx.state.campaign;
  sendUpTo(st, c, c.recipientCnt);
  Object.assign(c, { status: 'COMPLETE', sentEndAt: at, updatedAt: at });
  delete c.phaseStart;
  delete c.phaseUntil;
  if (c.audience === 'list') recordOutcomes(st, c, ctx.now);
  return true;
}

/**
 * Writes the campaign's results back into the contacts and groups: hard bounces (half the
 * bounces), unsubscribes and complaints become invalid members (excludeCnt, never sent to
 * again), and the groups' delivery/open/click totals grow (openedRate, clickedRate).
 */
function recordOutcomes(st: CampaignState, c: SbCampaign, now: number): void {
  const counts = cohortCounts(c);
  const sizes = cohortSizes(c);
  const order: Cohort[] = ['A', 'B', 'W'];
  const people = ranked(c.sn, listRecipients(st, c)).slice(0, c.recipientCnt);
  let cohort = 0;
  let start = 0;
  people.forEach((p, i) => {
    while (cohort < 2 && i >= start + sizes[order[cohort]]) start += sizes[order[cohort++]];
    const e = eventsAt(i - start, counts[order[cohort]]);
    const contact = st.contacts[contactKey(p.email)];
    if (!contact) return;
    if (e.bounced && i % 2 === 0) contact.suppressed = 'BOUNCE';
    else if (e.unsubscribed) contact.suppressed = 'UNSUBSCRIBE';
    else if (e.complained) contact.suppressed = 'COMPLAINT';
    for (const g of st.groups) {
      if (!c.selectedLists.includes(g.sn) || !contact.lists.includes(g.sn)) continue;
      if (!e.bounced) g.delivered += 1;
      if (e.opened) g.opened += 1;
      if (e.clicked) g.clicked += 1;
    }
  });
  recountGroups(st, now, c.selectedLists);
}

export async function advanceCampaigns(ctx: SbContext): Promise<void> {
  for (const c of ctx.state.campaign.campaigns) {
    for (let i = 0; i < 8 && (await step(ctx, c)); i++);
    progress(ctx, c);
  }
}

/** The list file of a once-campaign arrived (endpoints 8, 10). */
export function onceListUploaded(ctx: SbContext, target: UploadTarget): void {
  const c = ctx.state.campaign.campaigns.find((x) => x.sn === target.ref);
  if (!target.file) return;
  // The list can be given (or replaced) until the campaign starts preparing to send.
  if (!c || (c.status !== 'DRAFT' && c.status !== 'PREPARE')) {
    fs.rmSync(ctx.filePath(target.file), { force: true });
    return;
  }
  c.listFile = `once-${c.sn}.csv`;
  fs.renameSync(ctx.filePath(target.file), ctx.filePath(c.listFile));
  target.file = c.listFile;
  delete c.listRows;
  forgetJob(ctx.state.campaign, `count:${c.sn}`);
  c.updatedAt = ctx.now;
  if (c.status === 'DRAFT') Object.assign(c, { status: 'PREPARE_TO_SENT', phaseStart: ctx.now, phaseUntil: ctx.now + ctx.opts.delays.campaignPrepare });
}
