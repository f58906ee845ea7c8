// Endpoints 7–13: create (groups, once, A/B, A/B once), delete, pause, status.
// Decisions where the spec is silent:
//   - Endpoint 13 for an unknown code: 200 [] (the body is an array of matches).
//   - Endpoint 12 (pause): unknown code → 400 {code "40007"}; a campaign that is not scheduled
//     and waiting (PREPARE) → 400 {code "40015"}. A paused campaign stays STOP (no resume in the API).
//   - Endpoint 11: DRAFT and every end state (COMPLETE, STOP, OVER_LIMIT, EMPTY_RECIPIENT, …)
//     are deletable; PREPARE_TO_SENT, SENDING and TESTING go to sendingCampaign; unknown or
//     already deleted codes to badCampaigns. Deleted campaigns disappear from reports too.
//   - Fields with no value yet (scheduledDate of a send-now campaign, sentBeginDate before
//     sending) are left out of the status object rather than sent as null.
import fs from 'node:fs';
import type { Campaign } from './types.js';
import type { Route, SbContext, SbResponse } from '../types.js';
import { campaignError, isObj, iso } from './common.js';
import { IN_FLIGHT, availableBalance } from './campaign-send.js';
import { validateCampaign, type CampaignInput } from './campaign-validate.js';
import { recipientCount } from './recipients.js';
import type { SbCampaign } from './state.js';

export function campaignView(c: SbCampaign): Campaign {
  return {
    sn: c.sn, name: c.name,
    // "hasContent: array of boolean": one entry per version of the content.
    hasContent: c.ab && c.content.testingOn === 3 ? [true, true] : [true],
    status: c.status, channel: 0, sendTimeType: c.scheduleType === 1 ? 'SCHEDULED' : 'NOW', type: c.ab ? 'A_B_TEST' : 'REGULAR',
    proportion: c.ab ? c.proportion : 0,
    ...(c.scheduledAt !== undefined ? { scheduledDate: iso(c.scheduledAt) } : {}),
    ...(c.sentBeginAt !== undefined ? { sentBeginDate: iso(c.sentBeginAt) } : {}),
    ...(c.sentEndAt !== undefined ? { sentEndDate: iso(c.sentEndAt) } : {}),
    updateDate: iso(c.updatedAt),
  };
}

function create(ctx: SbContext, input: CampaignInput, audience: SbCampaign['audience'], ab: boolean): SbCampaign {
  const now = ctx.now;
  const c: SbCampaign = {
    sn: ctx.newId('CP'), name: input.name, audience, ab, status: 'DRAFT', content: input.content,
    selectedLists: input.selectedLists, excludeLists: input.excludeLists, scheduleType: input.scheduleType, timezone: input.timezone,
    scheduledAt: input.scheduledAt, ecommerce: input.ecommerce, proportion: input.proportion, testTime: input.testTime, testUnit: input.testUnit,
    createdAt: now, updatedAt: now, recipientCnt: 0, testCnt: 0, sentCnt: 0,
  };
  if (input.scheduleType === 1) c.status = 'PREPARE';
  else if (audience === 'list') Object.assign(c, { status: 'PREPARE_TO_SENT', phaseStart: now, phaseUntil: now + ctx.opts.delays.campaignPrepare });
  if (audience === 'once') {
    const url = ctx.uploadUrl('once-campaign', c.sn);
    c.uploadToken = url.slice(url.lastIndexOf('/') + 1);
  }
  ctx.state.campaign.campaigns.push(c);
  return c;
}

function submitRoute(path: string, audience: SbCampaign['audience'], ab: boolean): Route {
  return {
    service: 'campaign', method: 'POST', path,
    handler: async (req, ctx): Promise<SbResponse> => {
      const v = validateCampaign(await req.json(), ctx, { ab, once: audience === 'once' });
      if (!v.ok) return v.res;
      if (audience === 'list') {
        // Spec section 7: "40012, 40013, 40017 apply only to endpoints 7 and 9".
        const n = recipientCount(ctx.state.campaign, v.input);
        const balance = availableBalance(ctx.state.campaign);
        if (n === 0) return campaignError(ctx.opts.shapes, '40013', 'form.selectedLists');
        if (ab && balance < Math.floor((n * v.input.proportion) / 100)) return campaignError(ctx.opts.shapes, '40017', 'content.testing.proportion');
        if (balance < n) return campaignError(ctx.opts.shapes, '40012', 'form.selectedLists');
      }
      const c = create(ctx, v.input, audience, ab);
      if (audience === 'list') return { status: 200, json: { sn: c.sn } };
      return { status: 200, json: { sn: c.sn, preSignedUrl: `${ctx.opts.publicBase}/files/u/${c.uploadToken}` } };
    },
  };
}

function forget(ctx: SbContext, c: SbCampaign): void {
  if (c.uploadToken) delete ctx.state.uploads[c.uploadToken];
  if (c.listFile) fs.rmSync(ctx.filePath(c.listFile), { force: true });
}

export const campaignRoutes: Route[] = [
  submitRoute('/v1/campaign/normal/submit', 'list', false), // 7
  submitRoute('/v1/campaign/normal/once', 'once', false), // 8
  submitRoute('/v1/campaign/testing/submit', 'list', true), // 9
  submitRoute('/v1/campaign/testing/once', 'once', true), // 10
  {
    // 11. DELETE /v1/campaign/normal, body campaignSnList* → {success, sendingCampaign, badCampaigns}
    service: 'campaign', method: 'DELETE', path: '/v1/campaign/normal',
    handler: async (req, ctx) => {
      const body = await req.json();
      if (!isObj(body) || !Array.isArray(body.campaignSnList)) return campaignError(ctx.opts.shapes, '40001', 'campaignSnList');
      const st = ctx.state.campaign;
      const out = { success: [] as string[], sendingCampaign: [] as string[], badCampaigns: [] as string[] };
      for (const sn of body.campaignSnList) {
        const c = typeof sn === 'string' ? st.campaigns.find((x) => x.sn === sn) : undefined;
        if (!c) out.badCampaigns.push(String(sn));
        else if (IN_FLIGHT.has(c.status)) out.sendingCampaign.push(c.sn);
        else {
          forget(ctx, c);
          st.campaigns = st.campaigns.filter((x) => x !== c);
          out.success.push(c.sn);
        }
      }
      return { status: 200, json: out };
    },
  },
  {
    // 12. PATCH /v1/campaign/normal/{campaign_sn}: "pauses a scheduled campaign. 204 on success."
    // The vendor's troubleshooting page (decisions row 32) says it works on a SENDING campaign
    // too; any other status is refused (400 with a code, as the spec says; which code: not shown).
    service: 'campaign', method: 'PATCH', path: '/v1/campaign/normal/:sn',
    handler: (_req, ctx, p): SbResponse => {
      const c = ctx.state.campaign.campaigns.find((x) => x.sn === p.sn);
      if (!c) return { status: 400, json: { code: '40007' } };
      if (c.status !== 'PREPARE' && c.status !== 'SENDING') return { status: 400, json: { code: '40015' } };
      Object.assign(c, { status: 'STOP', updatedAt: ctx.now });
      return { status: 204, body: '' };
    },
  },
  {
    // 13. GET /v1/campaign/normal/{campaign_sn} → array of campaign objects (section 2); the
    // official CLI's stub answers the one object (shapes.ts campaign-status=object), and a code
    // with no campaign then as an invalid sn.
    service: 'campaign', method: 'GET', path: '/v1/campaign/normal/:sn',
    handler: (_req, ctx, p) => {
      const found = ctx.state.campaign.campaigns.filter((c) => c.sn === p.sn).map(campaignView);
      if (ctx.opts.shapes.campaignStatus === 'object') return found.length ? { status: 200, json: found[0] } : { status: 400, json: { code: '40007' } };
      return { status: 200, json: found };
    },
  },
];
