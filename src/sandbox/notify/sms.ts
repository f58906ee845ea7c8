// SMS send (decisions row 3: POST /v1/sms/messages, modelled like email send) and the exclusive
// sending numbers (spec section 4: GET /v1/sms/exclusive-number).
//
// Sandbox choices where neither the spec nor docs/spec/decisions.md says:
//   - a rejected request is 400 {errors: string}, like email send;
//   - alive_mins: absent → 5; a number (or numeric string) is rounded and clamped to 5..480
//     (spec section 8); anything else → 400;
//   - a recipient whose address has non-digits, or whose country_code is not a calling code
//     at all, is listed in `failure`; a real calling code outside the spec's list (886) is
//     sent (decisions row 24 — the service is used with it in practice);
//   - `from`, when given, is the sender number (srcaddr); else the first exclusive number;
//   - each accepted recipient takes its billed units (`point`) off the shared account's SMS
//     balance (GET /v1/balance of the campaign service), never below 0; a short balance does
//     not refuse the send (the spec does not say it would);
//   - the answer is {id, success, failure}; with the shape smsFailure 'when-any' (decisions row 3:
//     "Accept a response without failure") `failure` is left out when no recipient failed.
import type { Route, SbContext, SbRequest, SbResponse } from '../types.js';
import type { SmsRecord } from './state.js';
import { callingCode } from './calling-codes.js';
import { nationalKey } from './events.js';
import { smsPoints, smsTimeline } from './outcomes.js';
import { startUnfolding } from './unfold.js';
import { MAX_RECIPIENTS, REASON_BAD_COUNTRY_CODE, REASON_BAD_PHONE, checkVariables, isObject, rejected, render } from './validate.js';

export const ALIVE_MIN = 5;
export const ALIVE_MAX = 480;
const PHONE = /^\d{4,15}$/;

/** Spec section 8: "default is the minimum (5); values outside the range are clamped to the nearest bound". */
export function aliveMinsOf(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return ALIVE_MIN;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return Math.min(ALIVE_MAX, Math.max(ALIVE_MIN, Math.round(n)));
}

async function sendSms(req: SbRequest, ctx: SbContext): Promise<SbResponse> {
  const b = await req.json();
  if (!isObject(b)) return rejected('The request body must be a JSON object with content and recipients.');
  if (typeof b.content !== 'string' || !b.content.trim()) return rejected('Required field missing or empty: content.');
  const recipients = b.recipients;
  if (!Array.isArray(recipients) || !recipients.length) return rejected('recipients must be a non-empty array.');
  if (recipients.length > MAX_RECIPIENTS) return rejected(`At most ${MAX_RECIPIENTS} recipients per request; this one has ${recipients.length}.`);
  const aliveMins = aliveMinsOf(b.alive_mins);
  if (aliveMins === undefined) return rejected(`alive_mins must be a number of minutes (${ALIVE_MIN} to ${ALIVE_MAX}).`);
  if (b.from !== undefined && (typeof b.from !== 'string' || !b.from.trim())) return rejected('from must be a sender number.');
  const srcaddr = typeof b.from === 'string' ? b.from.trim() : ctx.state.notify.exclusiveNumbers[0]?.phoneNumber ?? '';

  const requestId = ctx.newId('sms');
  const success: Array<{ id: string; address: string }> = [];
  const failure: Record<string, string> = {};
  for (const r of recipients) {
    const rec = isObject(r) ? r : {};
    const address = typeof rec.address === 'string' || typeof rec.address === 'number' ? String(rec.address).trim() : '';
    if (!PHONE.test(address)) {
      failure[address] = REASON_BAD_PHONE;
      continue;
    }
    const cc = callingCode(rec.country_code);
    if (!cc) {
      failure[address] = REASON_BAD_COUNTRY_CODE;
      continue;
    }
    const vars = checkVariables(rec.variables);
    if ('reason' in vars) {
      failure[address] = vars.reason;
      continue;
    }
    const content = render(b.content, vars.variables);
    const point = smsPoints(content);
    const m: SmsRecord = {
      channel: 'sms', id: ctx.newId('smsg'), requestId, createdAt: ctx.now,
      content, address, countryCode: cc, recipient: cc + nationalKey(address), variables: vars.variables, aliveMins, srcaddr, point,
      events: smsTimeline({ national: nationalKey(address), point, srcaddr, aliveMins, t0: ctx.now, step: ctx.opts.delays.notifyEvents }),
    };
    startUnfolding(ctx, m);
    success.push({ id: m.id, address });
    const balance = ctx.state.campaign?.balance;
    if (balance && typeof balance.sms === 'number') balance.sms = Math.max(0, balance.sms - point);
  }
  const omitFailure = ctx.opts.shapes.smsFailure === 'when-any' && !Object.keys(failure).length;
  return { status: 200, json: omitFailure ? { id: requestId, success } : { id: requestId, success, failure } };
}

export const smsRoutes: Route[] = [
  { service: 'notify', method: 'POST', path: '/v1/sms/messages', handler: sendSms },
  { service: 'notify', method: 'GET', path: '/v1/sms/exclusive-number', handler: (_req, ctx) => ({ status: 200, json: { phoneNumbers: ctx.state.notify.exclusiveNumbers } }) },
];
