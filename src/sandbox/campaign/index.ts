// The campaign service emulator (spec 000).
import type { Group } from '../../api/campaign-types.js';
import type { Route, ServiceModule } from '../types.js';
import type { CampaignState } from './state.js';
import { SEED_TEMPLATES } from './seed.js';

const routes: Route[] = [
  {
    service: 'campaign', method: 'POST', path: '/v1/contacts/lists/insert',
    handler: async (req, ctx) => {
      const body = await req.json<{ name?: unknown }>();
      if (!body || typeof body.name !== 'string' || !body.name.trim()) return { status: 400, json: { code: '40001', invalidFields: 'name' } };
      const now = new Date(ctx.now).toISOString();
      const g: Group = { sn: ctx.newId('LS'), name: body.name, type: 0, status: 'GENERAL', subscribedCnt: 0, excludeCnt: 0, openedRate: 0, clickedRate: 0, segVersion: 0, createDate: now, updateDate: now };
      ctx.state.campaign.groups.push(g);
      return { status: 200, json: { sn: g.sn } };
    },
  },
  {
    service: 'campaign', method: 'GET', path: '/v1/contacts/lists',
    handler: (req, ctx) => {
      const size = Number(req.query.get('size') ?? 20) || 20;
      const page = Number(req.query.get('page') ?? 0) || 0;
      return { status: 200, json: ctx.state.campaign.groups.slice(page * size, page * size + size) };
    },
  },
  {
    service: 'campaign', method: 'GET', path: '/v1/templates',
    handler: (_req, ctx) => ({ status: 200, json: { capacity: ctx.state.campaign.capacity, templates: ctx.state.campaign.templates } }),
  },
  {
    service: 'campaign', method: 'GET', path: '/v1/templates/:id',
    handler: (_req, ctx, p) => {
      const t = ctx.state.campaign.templates.find((x) => x.id === p.id);
      return t ? { status: 200, json: t } : { status: 400, json: { code: '40007', message: 'invalid sn' } };
    },
  },
  {
    service: 'campaign', method: 'GET', path: '/v1/balance',
    handler: (_req, ctx) => ({ status: 200, json: { ...ctx.state.campaign.balance } }),
  },
];

export const campaignModule: ServiceModule<CampaignState> = {
  initialState: () => ({ groups: [], balance: { email: 10_000, sms: 500 }, templates: structuredClone(SEED_TEMPLATES), capacity: 50 }),
  routes,
};
