// POST /v1/messages: transactional email to one or many recipients (spec section 4).
import type { Route, SbContext, SbResponse } from '../types.js';
import type { EmailRecord } from './state.js';
import { emailTimeline } from './outcomes.js';
import { isDomainVerified } from './domains.js';
import { startUnfolding } from './unfold.js';
import { MAX_RECIPIENTS, REASON_BAD_ADDRESS, checkVariables, isEmail, isObject, rejected, render } from './validate.js';

async function sendEmail(req: Parameters<Route['handler']>[0], ctx: SbContext): Promise<SbResponse> {
  const b = await req.json();
  if (!isObject(b)) return rejected('The request body must be a JSON object with subject, fromAddress, content and recipients.');
  const missing = (['subject', 'fromAddress', 'content'] as const).filter((k) => typeof b[k] !== 'string' || !(b[k] as string).trim());
  if (missing.length) return rejected(`Required field${missing.length > 1 ? 's' : ''} missing or empty: ${missing.join(', ')}.`);
  if (b.fromName !== undefined && typeof b.fromName !== 'string') return rejected('fromName must be a string.');
  if (b.unsubscribedLink !== undefined && typeof b.unsubscribedLink !== 'string') return rejected('unsubscribedLink must be a string.');
  const recipients = b.recipients;
  if (!Array.isArray(recipients) || !recipients.length) return rejected('recipients must be a non-empty array.');
  if (recipients.length > MAX_RECIPIENTS) return rejected(`At most ${MAX_RECIPIENTS} recipients per request; this one has ${recipients.length}.`);
  const fromAddress = (b.fromAddress as string).trim();
  if (!isEmail(fromAddress)) return rejected(`fromAddress "${fromAddress}" is not a valid email address.`);
  const domain = fromAddress.split('@')[1].toLowerCase();
  if (!isDomainVerified(ctx, domain)) return rejected(`The sender domain ${domain} is not verified. Verify it before sending from it.`);

  // Spec: "if absent, the local part of fromAddress is used".
  const fromName = typeof b.fromName === 'string' && b.fromName.trim() ? b.fromName : fromAddress.split('@')[0];
  const requestId = ctx.newId('req');
  const success: Array<{ id: string; address: string }> = [];
  const failure: Record<string, string> = {};
  for (const r of recipients) {
    const rec = isObject(r) ? r : {};
    const address = typeof rec.address === 'string' ? rec.address.trim() : String(rec.address ?? '');
    if (!isEmail(address)) {
      failure[address] = REASON_BAD_ADDRESS;
      continue;
    }
    const vars = checkVariables(rec.variables);
    if ('reason' in vars) {
      failure[address] = vars.reason;
      continue;
    }
    // `name` is "documented as required, while the payload description requires only
    // address" (spec section 4): the sandbox takes it as optional.
    const m: EmailRecord = {
      channel: 'email', id: ctx.newId('msg'), requestId, createdAt: ctx.now,
      subject: render(b.subject as string, vars.variables),
      content: render(b.content as string, vars.variables),
      fromAddress, fromName, address,
      name: typeof rec.name === 'string' && rec.name ? rec.name : undefined,
      variables: vars.variables,
      events: emailTimeline({ address, content: b.content as string, variables: vars.variables, t0: ctx.now, step: ctx.opts.delays.notifyEvents }),
    };
    startUnfolding(ctx, m);
    success.push({ id: m.id, address });
  }
  // "Valid recipients are sent even when others fail": always 200 with both lists.
  return { status: 200, json: { id: requestId, success, failure } };
}

export const messageRoutes: Route[] = [{ service: 'notify', method: 'POST', path: '/v1/messages', handler: sendEmail }];
