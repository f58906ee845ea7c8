// Endpoints 18, 19 (templates, seeded) and 21 (balance).
import type { Route } from '../types.js';

export const accountRoutes: Route[] = [
  {
    // 18. GET /v1/templates → {capacity, templates}
    service: 'campaign', method: 'GET', path: '/v1/templates',
    handler: (_req, ctx) => ({ status: 200, json: { capacity: ctx.state.campaign.capacity, templates: ctx.state.campaign.templates } }),
  },
  {
    // 19. GET /v1/templates/{template_id} → template; 400 code "40007" (invalid template code).
    service: 'campaign', method: 'GET', path: '/v1/templates/:id',
    handler: (_req, ctx, p) => {
      const t = ctx.state.campaign.templates.find((x) => x.id === p.id);
      return t ? { status: 200, json: t } : { status: 400, json: { code: '40007', message: 'invalid sn' } };
    },
  },
  {
    // 21. GET /v1/balance → {email, sms}; email goes down as campaigns send (campaign-send.ts).
    service: 'campaign', method: 'GET', path: '/v1/balance',
    handler: (_req, ctx) => ({ status: 200, json: { ...ctx.state.campaign.balance } }),
  },
];
