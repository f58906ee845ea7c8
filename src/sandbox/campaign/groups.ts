// Endpoints 1 (create group) and 2 (list groups).
import type { Group } from './types.js';
import type { Route } from '../types.js';
import { campaignError, isObj, iso } from './common.js';
import type { CampaignState, SbGroup } from './state.js';

/**
 * Spec endpoint 2: "Default page size: not shown." The sandbox uses 20 rows; `size` and `page`
 * that are not non-negative integers fall back to the defaults (20, page 0).
 */
export const DEFAULT_PAGE_SIZE = 20;

/** The group as the spec's section 2 shows it (no sandbox bookkeeping). */
export function groupView(g: SbGroup): Group {
  const { sn, name, type, status, subscribedCnt, excludeCnt, openedRate, clickedRate, segVersion, createDate, updateDate } = g;
  return { sn, name, type, status, subscribedCnt, excludeCnt, openedRate, clickedRate, segVersion, createDate, updateDate };
}

/** Spec section 3: a group is PROCESSING while an import into it runs (UPLOADING is not running yet). */
export function refreshGroupStatuses(state: CampaignState): void {
  const busy = new Set(state.imports.filter((i) => i.status === 'PROCESSING').map((i) => i.listSn));
  for (const g of state.groups) g.status = busy.has(g.sn) ? 'PROCESSING' : 'GENERAL';
}

function intParam(v: string | null, fallback: number, min: number): number {
  if (v === null || !/^\d+$/.test(v.trim())) return fallback;
  return Math.max(min, Number(v));
}

export const groupRoutes: Route[] = [
  {
    // 1. POST /v1/contacts/lists/insert: body name* → 200 {sn}. The spec shows no error body;
    // a missing name gets the campaign service's field-error shape.
    service: 'campaign', method: 'POST', path: '/v1/contacts/lists/insert',
    handler: async (req, ctx) => {
      const body = await req.json();
      if (!isObj(body) || typeof body.name !== 'string' || !body.name.trim()) return campaignError(ctx.opts.shapes, '40001', 'name');
      const at = iso(ctx.now);
      const g: SbGroup = {
        sn: ctx.newId('LS'), name: body.name.trim(), type: 0, status: 'GENERAL', subscribedCnt: 0, excludeCnt: 0,
        openedRate: 0, clickedRate: 0, segVersion: 0, createDate: at, updateDate: at, unstored: 0, delivered: 0, opened: 0, clicked: 0,
      };
      ctx.state.campaign.groups.push(g);
      return { status: 200, json: { sn: g.sn } };
    },
  },
  {
    // 2. GET /v1/contacts/lists?size=&page=: page is zero-based; oldest group first.
    service: 'campaign', method: 'GET', path: '/v1/contacts/lists',
    handler: (req, ctx) => {
      const size = intParam(req.query.get('size'), DEFAULT_PAGE_SIZE, 1);
      const page = intParam(req.query.get('page'), 0, 0);
      const groups = ctx.state.campaign.groups.slice(page * size, page * size + size).map(groupView);
      // The official CLI's stub wraps the page (shapes.ts groups-list=groups).
      if (ctx.opts.shapes.groupsList === 'groups') return { status: 200, json: { groups, pageInfo: { total: ctx.state.campaign.groups.length, page, size } } };
      return { status: 200, json: groups };
    },
  },
];
