// The field rules of the shared campaign structure (spec endpoints 7–10) and the checks that
// follow them. Failures are 400 {code (string), invalidFields (string)} (or the shape campaignError
// chooses, common.ts); invalidFields names the
// fields as the spec's table does ("content.subject"), comma-separated when several fail.
// Order: every field error at once (40001), then schedule (40020, 40019), senders (40003,
// 40004, 40011), content (40014), groups (40007, 40015). Balance and recipients (40012, 40013,
// 40017) are checked by the caller, which knows the audience.
// Decisions where the spec is silent or contradicts itself:
//   - excludeLists is starred and "at least 1", yet real campaigns often exclude nothing: an
//     empty array or no excludeLists is accepted.
//   - timezone/scheduleDate are only looked at when schedule.type is 1 (decisions row 10); there
//     scheduleDate is required and timezone, when given, must be a code 0..87.
//   - A scheduleDate without a zone is read as UTC; one that is not ISO 8601 → 40020; one not
//     in the future → 40019.
//   - A/B endpoints also accept `content` nested in `config` (the spec's content-test sample);
//     top-level fields win.
//   - 40004 (domain not allowed): free-mail domains, which cannot be authenticated for bulk mail.
//   - 40014 (invalid campaign content): a malformed ${…} variable in subject or html.
//   - 40015 (invalid sending information): a selected group is PROCESSING (spec: "a PROCESSING
//     group cannot be chosen for sending").
import type { SbContext, SbResponse } from '../types.js';
import { campaignError, isEmail, isObj } from './common.js';
import { findGroup } from './contacts.js';
import type { SbCampaign, SbContent } from './state.js';

/** What a valid request says about the campaign: the request-shaped part of SbCampaign. */
export type CampaignInput = Pick<SbCampaign, 'name' | 'selectedLists' | 'excludeLists' | 'content' | 'scheduleType' | 'timezone' | 'scheduledAt' | 'ecommerce' | 'proportion' | 'testTime' | 'testUnit'>;

export type Validated = { ok: true; input: CampaignInput } | { ok: false; res: SbResponse };

const FREE_MAIL = new Set(['gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.com.tw', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com', 'aol.com', 'icloud.com', 'me.com']);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

type Rule = { field: string; max?: number; required?: boolean };

export function isVerifiedSender(ctx: SbContext, address: string): boolean {
  const a = address.toLowerCase();
  // An entry "@example.com" verifies a whole domain (sandbox option verifiedSenders).
  return ctx.opts.verifiedSenders.has(a) || ctx.opts.verifiedSenders.has(a.slice(a.indexOf('@')));
}

/** The sender fields a campaign uses (both versions when the sender is tested). */
export function senderFields(content: SbContent): Array<'fromAddress' | 'fromAddressA' | 'fromAddressB'> {
  return content.testingOn === 2 ? ['fromAddressA', 'fromAddressB'] : ['fromAddress'];
}

export function validateCampaign(body: unknown, ctx: SbContext, kind: { ab: boolean; once: boolean }): Validated {
  const bad: string[] = [];
  const fail = (code: string, fields: string | string[]): Validated => ({ ok: false, res: campaignError(ctx.opts.shapes, code, ([] as string[]).concat(fields).join(',')) });
  if (!isObj(body)) return fail('40001', ['form', 'content', 'config']);
  const form = isObj(body.form) ? body.form : undefined;
  const config = isObj(body.config) ? body.config : undefined;
  const nested = kind.ab && config && isObj(config.content) ? config.content : undefined;
  const content = isObj(body.content) || nested ? { ...nested, ...(isObj(body.content) ? body.content : {}) } : undefined;
  if (!form) bad.push('form');
  if (!content) bad.push('content');
  if (!config) bad.push('config');
  if (!form || !content || !config) return fail('40001', bad);

  // form
  if (typeof form.name !== 'string' || !form.name.trim()) bad.push('form.name');
  const lists = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!kind.once) {
    if (!lists(form.selectedLists) || (form.selectedLists as string[]).length < 1) bad.push('form.selectedLists');
    if (form.excludeLists !== undefined && !lists(form.excludeLists)) bad.push('form.excludeLists');
  }

  // content: which fields are required depends on the tested dimension (endpoint 9's table).
  const testingOn = kind.ab ? content.testingOn : undefined;
  if (kind.ab && testingOn !== 1 && testingOn !== 2 && testingOn !== 3) bad.push('content.testingOn');
  const rules: Rule[] = [];
  const single = (f: string, max?: number, required = true) => rules.push({ field: f, max, required });
  const pair = (f: string, max?: number, required = true) => rules.push({ field: `${f}A`, max, required }, { field: `${f}B`, max, required });
  if (testingOn === 1) pair('subject', 150), pair('preheader', 60, false);
  else single('subject', 150), single('preheader', 60, false);
  if (testingOn === 2) pair('fromName', 50), pair('fromAddress');
  else single('fromName', 50), single('fromAddress');
  if (testingOn === 3) pair('htmlContent');
  else single('htmlContent');
  for (const r of rules) {
    const v = content[r.field];
    if (v === undefined || v === null) {
      if (r.required) bad.push(`content.${r.field}`);
    } else if (typeof v !== 'string' || (r.required && !v.trim()) || (r.max !== undefined && [...v].length > r.max)) bad.push(`content.${r.field}`);
  }
  if (content.footerLang !== 0 && content.footerLang !== 1) bad.push('content.footerLang');
  let proportion = 0;
  let testTime = 0;
  let testUnit: 0 | 1 = 0;
  if (kind.ab) {
    const t = isObj(content.testing) ? content.testing : {};
    if (!isObj(content.testing)) bad.push('content.testing');
    else {
      if (typeof t.proportion !== 'number' || !(t.proportion >= 0 && t.proportion <= 100)) bad.push('content.testing.proportion');
      if (typeof t.time !== 'number' || !(t.time > 0) || !Number.isFinite(t.time)) bad.push('content.testing.time');
      if (t.unit !== 0 && t.unit !== 1) bad.push('content.testing.unit');
    }
    proportion = Number(t.proportion);
    testTime = Number(t.time);
    testUnit = t.unit === 1 ? 1 : 0;
  }

  // config
  const schedule = isObj(config.schedule) ? config.schedule : undefined;
  const ga = isObj(config.ga) ? config.ga : undefined;
  if (!schedule || (schedule.type !== 0 && schedule.type !== 1)) bad.push('config.schedule.type');
  const scheduled = schedule?.type === 1;
  if (scheduled) {
    if (typeof schedule.scheduleDate !== 'string' || !schedule.scheduleDate) bad.push('config.schedule.scheduleDate');
    const tz = schedule.timezone;
    if (tz !== undefined && tz !== null && !(Number.isInteger(tz) && (tz as number) >= 0 && (tz as number) <= 87)) bad.push('config.schedule.timezone');
  }
  if (!ga || typeof ga.enable !== 'boolean') bad.push('config.ga.enable');
  if (!ga || typeof ga.ecommerceEnable !== 'boolean') bad.push('config.ga.ecommerceEnable');
  if (ga && (ga.enable === true || ga.ecommerceEnable === true)) {
    // "if true, enable must be true and utm fields are required"
    if (ga.ecommerceEnable === true && ga.enable !== true && !bad.includes('config.ga.enable')) bad.push('config.ga.enable');
    for (const f of ['utmCampaign', 'utmContent']) if (typeof ga[f] !== 'string' || !(ga[f] as string).trim()) bad.push(`config.ga.${f}`);
  }
  if (bad.length) return fail('40001', bad);

  let scheduledAt: number | undefined;
  if (scheduled) {
    const d = String(schedule!.scheduleDate);
    scheduledAt = ISO_DATE_TIME.test(d) ? Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(d) ? d : `${d}Z`) : NaN;
    if (Number.isNaN(scheduledAt)) return fail('40020', 'config.schedule.scheduleDate');
    if (scheduledAt <= ctx.now) return fail('40019', 'config.schedule.scheduleDate');
  }

  const c = content as SbContent & Record<string, unknown>;
  for (const f of senderFields(c)) {
    const a = String(c[f]);
    if (!isEmail(a)) return fail('40003', `content.${f}`);
    if (FREE_MAIL.has(a.slice(a.lastIndexOf('@') + 1).toLowerCase())) return fail('40004', `content.${f}`);
    if (!isVerifiedSender(ctx, a)) return fail('40011', `content.${f}`);
  }
  for (const f of ['subject', 'subjectA', 'subjectB', 'htmlContent', 'htmlContentA', 'htmlContentB']) {
    if (typeof c[f] === 'string' && badVariables(c[f] as string)) return fail('40014', `content.${f}`);
  }

  const selectedLists = kind.once ? [] : (form.selectedLists as string[]);
  const excludeLists = kind.once ? [] : ((form.excludeLists as string[] | undefined) ?? []);
  const st = ctx.state.campaign;
  if (selectedLists.some((sn) => !findGroup(st, sn))) return fail('40007', 'form.selectedLists');
  if (excludeLists.some((sn) => !findGroup(st, sn))) return fail('40007', 'form.excludeLists');
  if (selectedLists.some((sn) => findGroup(st, sn)!.status === 'PROCESSING')) return fail('40015', 'form.selectedLists');

  const kept: SbContent = {};
  for (const k of ['subject', 'preheader', 'fromName', 'fromAddress', 'htmlContent', 'footerLang', 'testingOn', 'subjectA', 'subjectB', 'fromNameA', 'fromNameB', 'fromAddressA', 'fromAddressB', 'htmlContentA', 'htmlContentB'] as const) {
    if (c[k] !== undefined) (kept as Record<string, unknown>)[k] = c[k];
  }
  return {
    ok: true,
    input: {
      name: (form.name as string).trim(), selectedLists, excludeLists, content: kept, scheduleType: scheduled ? 1 : 0,
      timezone: scheduled && typeof schedule!.timezone === 'number' ? schedule!.timezone : undefined, scheduledAt,
      ecommerce: ga!.ecommerceEnable === true, proportion, testTime, testUnit,
    },
  };
}

/** `${` without a closing brace, or `${}` / `${ bad name }`. */
function badVariables(s: string): boolean {
  for (let i = s.indexOf('${'); i >= 0; i = s.indexOf('${', i + 2)) {
    const end = s.indexOf('}', i);
    if (end < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s.slice(i + 2, end))) return true;
  }
  return false;
}
