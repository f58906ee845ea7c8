// Endpoint 20: POST /v1/automation/event starts (TRIGGER) or ends (TERMINATE) recipients in a
// workflow made in the back office. The sandbox has no workflows to look up, so any non-empty
// workflow id is accepted. Per-recipient failures use the spec's two reasons verbatim; the
// spec's other variable rules (no mathematical expressions, must not start with a digit) have
// no documented failure reason, so the sandbox does not enforce them. A recipient without
// `name` is accepted ("The payload description requires only address").
// Body errors: 400 {message: "Invalid request body", errors: "..."}.
import type { Route, SbResponse } from '../types.js';
import { isEmail, isObj } from './common.js';

export const MAX_RECIPIENTS = 100;
export const MAX_VARIABLE = 100;
export const REASON_EMAIL = 'Invalid: address is not a valid email format';
export const REASON_VARIABLES = 'Invalid: the value of recipient variables should under 100 characters';

const invalid = (errors: string): SbResponse => ({ status: 400, json: { message: 'Invalid request body', errors } });

export const automationRoutes: Route[] = [
  {
    service: 'campaign', method: 'POST', path: '/v1/automation/event',
    handler: async (req, ctx): Promise<SbResponse> => {
      const body = await req.json();
      if (!isObj(body)) return invalid('body must be an object with workflow, event and recipients');
      if (typeof body.workflow !== 'string' || !body.workflow.trim()) return invalid('workflow is required');
      if (body.event !== 'TRIGGER' && body.event !== 'TERMINATE') return invalid('event must be TRIGGER or TERMINATE');
      if (!Array.isArray(body.recipients) || body.recipients.length === 0) return invalid('recipients must be a non-empty array');
      if (body.recipients.length > MAX_RECIPIENTS) return invalid(`recipients: array size ${body.recipients.length} is over ${MAX_RECIPIENTS}`);
      const success: string[] = [];
      const failure: Record<string, string> = {};
      for (const r of body.recipients) {
        const address = isObj(r) && typeof r.address === 'string' ? r.address : '';
        if (!isEmail(address.trim())) {
          failure[address] = REASON_EMAIL;
          continue;
        }
        const vars = isObj(r) && isObj(r.variables) ? r.variables : {};
        if (Object.values(vars).some((v) => String(v ?? '').length > MAX_VARIABLE)) {
          failure[address] = REASON_VARIABLES;
          continue;
        }
        success.push(address);
      }
      // The official CLI's stub names nobody (shapes.ts automation-answer=triggered).
      return { status: 200, json: ctx.opts.shapes.automationAnswer === 'triggered' ? { status: 'triggered' } : { success, failure } };
    },
  },
];
