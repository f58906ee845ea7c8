// Endpoints 18, 19 (templates, seeded) and 21 (balance), and the back office's top-up, which
// the API does not offer: PUT /campaign/_sandbox/balance {email?, sms?} sets the balance (not
// part of the spec; under /_sandbox/ like the field route, and it needs the campaign key).
import type { Route, SbResponse } from '../types.js';
import { isObj } from './common.js';
import { renameKey } from '../shapes.js';

export const accountRoutes: Route[] = [
  {
    // 18. GET /v1/templates → {capacity, templates}
    service: 'campaign', method: 'GET', path: '/v1/templates',
    // The official CLI's stub: a bare array, no capacity (shapes.ts template-list=array).
    handler: (_req, ctx) => ({ status: 200, json: ctx.opts.shapes.templateList === 'array' ? ctx.state.campaign.templates : { capacity: ctx.state.campaign.capacity, templates: ctx.state.campaign.templates } }),
  },
  {
    // 19. GET /v1/templates/{template_id} → template; 400 code "40007" (invalid template code).
    service: 'campaign', method: 'GET', path: '/v1/templates/:id',
    handler: (_req, ctx, p) => {
      const t = ctx.state.campaign.templates.find((x) => x.id === p.id);
      if (!t) return { status: 400, json: { code: '40007', message: 'invalid sn' } };
      // The official CLI's stub names the html "html" (shapes.ts template-html=html).
      return { status: 200, json: ctx.opts.shapes.templateHtml === 'html' ? renameKey(t, 'template', 'html') : t };
    },
  },
  {
    // 21. GET /v1/balance → {email, sms}; email goes down as campaigns send (campaign-send.ts).
    service: 'campaign', method: 'GET', path: '/v1/balance',
    handler: (_req, ctx) => ({ status: 200, json: { ...ctx.state.campaign.balance } }),
  },
  {
    service: 'campaign', method: 'PUT', path: '/_sandbox/balance',
    handler: async (req, ctx): Promise<SbResponse> => {
      const body = await req.json();
      const ok = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
      if (!isObj(body) || (body.email === undefined && body.sms === undefined) || !ok(body.email) || !ok(body.sms)) {
        return { status: 400, json: { message: 'body must be {"email": N, "sms": N} with whole numbers of 0 or more (either may be left out)' } };
      }
      const b = ctx.state.campaign.balance;
      if (body.email !== undefined) b.email = body.email as number;
      if (body.sms !== undefined) b.sms = body.sms as number;
      return { status: 200, json: { ...b } };
    },
  },
];
