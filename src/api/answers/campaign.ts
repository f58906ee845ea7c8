// Every answer of the campaign service (spec 000), one declaration per endpoint: the spec's shape
// first, then each documented variant, each with its source. Sources: "spec 000 …" is the
// contract; "decisions row N" is docs/spec/decisions.md (GAPS.md); "vendor reference" is the
// vendor's edm-api.md / debugging-qa.md as docs/spec/vendor-excerpts.txt quotes them; "official CLI
// stub" is a test stub of the vendor's own CLI (nlm-open-cli tests/edm_api_test.rs), weaker
// evidence that VENDOR.md lists and GAPS row 34 lets the client accept. What the client hands on
// is the spec's shape whatever the variant: the rest of mailctl reads one shape.
import * as v from 'valibot';
import type * as T from '../campaign-types.js';
import { answer, inDryRun, list, maybe, num, obj, shape, text, textMap, unread, type Schema } from './read.js';

/** decisions row 13 (spec 000 section 9: an earlier revision; vendor reference: every example). */
const SPEC_CODE = 'spec 000 section 2 (importSn)';
const OLD_CODE = 'decisions row 13, vendor reference (import_sn)';

// --- Contacts ---

/** Endpoint 1. */
export const GROUP_CREATED = answer<{ sn: string }>('POST /v1/contacts/lists/insert', () => [
  shape('spec 000 endpoint 1', obj({ sn: text() })),
]);

const group = (): Schema<T.Group> => obj({
  sn: text(), name: text(), type: maybe(num()), status: maybe(text()), subscribedCnt: maybe(num()), excludeCnt: maybe(num()),
  openedRate: maybe(num()), clickedRate: maybe(num()), segVersion: maybe(num()), createDate: maybe(text()), updateDate: maybe(text()),
}) as Schema<T.Group>;

/** Endpoint 2. */
export const GROUPS = inDryRun(answer<T.Group[]>('GET /v1/contacts/lists', () => [
  shape('spec 000 endpoint 2: an array of group objects', list(group())),
  shape('official CLI stub: {"groups":[…],"pageInfo":{…}}', v.pipe(obj({ groups: list(group()) }), v.transform((o) => o.groups))),
]), () => []);

/** Endpoint 3: the import code and the upload address. */
export const FILE_IMPORT_STARTED = inDryRun(answer<T.ImportStarted>('POST /v1/contacts/imports/{list_sn}/file', () => [
  shape(SPEC_CODE, v.pipe(obj({ importSn: text(), url: text() }), v.transform((o): T.ImportStarted => ({ importSn: o.importSn, url: o.url })))),
  shape(OLD_CODE, v.pipe(obj({ import_sn: text(), url: text() }), v.transform((o): T.ImportStarted => ({ importSn: o.import_sn, url: o.url })))),
]), () => ({ importSn: '' }));

/** Endpoint 4. */
export const TEXT_IMPORT_STARTED = inDryRun(answer<T.ImportStarted>('POST /v1/contacts/imports/{list_sn}/text', () => [
  shape(SPEC_CODE, v.pipe(obj({ importSn: text() }), v.transform((o): T.ImportStarted => ({ importSn: o.importSn })))),
  shape(OLD_CODE, v.pipe(obj({ import_sn: text() }), v.transform((o): T.ImportStarted => ({ importSn: o.import_sn })))),
]), () => ({ importSn: '' }));

const importFields = () => ({
  status: text(), fileCnt: maybe(num()), insertCnt: maybe(num()), duplicateCnt: maybe(num()), errCnt: maybe(num()),
  createDate: maybe(text()), completedDate: maybe(text()), errorDownloadLink: maybe(text()),
});

/**
 * decisions row 29 (official CLI: COMPLETE and COMPLETED alike are done): read as the spec's
 * COMPLETE, so every waiter and report judges one status.
 */
export const DONE_STATUS_ALIASES: Readonly<Record<string, string>> = { COMPLETED: 'COMPLETE' };

/** The import object as the spec names it, its status read through DONE_STATUS_ALIASES. */
const importResult = (o: Record<string, unknown> & { status: string }, importSn: string) => ({ ...o, importSn, status: DONE_STATUS_ALIASES[o.status] ?? o.status }) as T.ImportResult;

/** Endpoint 5: the import object (spec 000 section 2), its code under either name. */
export const IMPORT_RESULT = answer<T.ImportResult>('GET /v1/contacts/imports/result/{importSn}', () => [
  shape(SPEC_CODE, v.pipe(obj({ importSn: text(), ...importFields() }), v.transform((o) => importResult(o, o.importSn)))),
  shape(OLD_CODE, v.pipe(obj({ import_sn: text(), ...importFields() }), v.transform((o) => importResult(o, o.import_sn)))),
]);

/** Endpoint 6: how many contacts the request removed. */
export const CONTACTS_REMOVED = answer<number>('DELETE /v1/contacts/{list_sn}', () => [
  shape('spec 000 endpoint 6: {updated_count}', v.pipe(obj({ updated_count: num() }), v.transform((o) => o.updated_count))),
  shape('official CLI stub: {"removed":n}', v.pipe(obj({ removed: num() }), v.transform((o) => o.removed))),
]);

// --- Campaigns ---

/**
 * Endpoints 7 to 10: the campaign code, and for the once-endpoints (8, 10) where to upload the
 * list. A once-answer without that address is the command's to report: the campaign exists by then.
 */
export const CAMPAIGN_CREATED = answer<T.CampaignCreated>('POST /v1/campaign/{normal|testing}/{submit|once}', () => [
  shape('spec 000 endpoints 7 to 10', obj({ sn: text(), preSignedUrl: maybe(text()) }) as Schema<T.CampaignCreated>),
]);

/** Endpoint 11 (decisions row 22). */
export const CAMPAIGNS_DELETED = inDryRun(answer<T.DeleteCampaignsResult>('DELETE /v1/campaign/normal', () => [
  shape('spec 000 endpoint 11', obj({ success: list(text()), sendingCampaign: list(text()), badCampaigns: list(text()) }) as Schema<T.DeleteCampaignsResult>),
]), () => ({ success: [], sendingCampaign: [], badCampaigns: [] }));

/** Endpoint 12: 204 on success; nothing in a body is read. */
export const CAMPAIGN_PAUSED = unread('PATCH /v1/campaign/normal/{campaign_sn}', 'spec 000 endpoint 12: 204 on success (vendor reference: 204 No Content)');

const campaign = (): Schema<T.Campaign> => obj({
  sn: text(), name: maybe(text()), status: text(), channel: maybe(num()),
  // The official CLI's stub gives sendTimeType and type as numbers: shown as given.
  sendTimeType: maybe(v.union([text(), num()], 'text or a number')), type: maybe(v.union([text(), num()], 'text or a number')),
  proportion: maybe(num()), scheduledDate: maybe(text()), sentBeginDate: maybe(text()), sentEndDate: maybe(text()), updateDate: maybe(text()),
}) as Schema<T.Campaign>;

/** Endpoint 13: an empty list says there is no such campaign. */
export const CAMPAIGN_STATUS = inDryRun(answer<T.Campaign[]>('GET /v1/campaign/normal/{campaign_sn}', () => [
  shape('spec 000 endpoint 13: an array of campaign objects', list(campaign())),
  shape('official CLI stub: one campaign object', v.pipe(campaign(), v.transform((c) => [c]))),
]), () => []);

// --- Reports ---

const campaignCode = (): Schema<T.CampaignCode> => obj({ sn: text(), name: maybe(text()), sentBeginDate: maybe(text()), sentEndDate: maybe(text()) }) as Schema<T.CampaignCode>;

/** Endpoint 14. */
export const FINISHED_CAMPAIGNS = inDryRun(answer<T.CampaignCode[]>('GET /v1/report/campaigns', () => [
  shape('spec 000 endpoint 14: an array of {sn, name, sentBeginDate, sentEndDate}', list(campaignCode())),
  shape('official CLI stub: {"campaigns":[…]}', v.pipe(obj({ campaigns: list(campaignCode()) }), v.transform((o) => o.campaigns))),
]), () => []);

const count = () => maybe(num());
const metricsItem = (): Schema<T.CampaignMetrics> => obj({
  campaignSn: text(), name: maybe(text()), channel: maybe(text()), subject: maybe(text()), sentStartAt: maybe(text()), sentEndAt: maybe(text()),
  reportType: maybe(text()), recipientCnt: count(), delivered: count(), bounced: count(), opened: count(), clicked: count(),
  distinctClickCnt: count(), duplicateClickCnt: count(), complained: count(), unsubscribed: count(), transactions: count(), transactionRevenue: count(),
}) as Schema<T.CampaignMetrics>;

/** Endpoint 15. */
export const METRICS = inDryRun(answer<T.CampaignMetrics[]>('POST /v1/report/campaigns/metrics', () => [
  shape('spec 000 endpoint 15: an array of metrics items', list(metricsItem())),
]), () => []);

/** Endpoint 16: any 2xx means accepted (decisions row 7); the body (vendor reference: an export_sn) is not read. */
export const EXPORT_STARTED = unread('POST /v1/report/{campaign_sn}/export', 'spec 000 endpoint 16: body not shown; decisions row 7: any 2xx means accepted');

const reportLink = (): Schema<T.ReportLink> => obj({ reportType: text(), link: text(), createdDate: maybe(text()) }) as Schema<T.ReportLink>;

/** The report type given to the one link of the vendor's single-link shape, which names none. */
export const SINGLE_LINK_TYPE = 'report';

/** Endpoint 17 (decisions row 8). */
export const REPORT_LINKS = inDryRun(answer<T.ReportLink[]>('GET /v1/report/{campaign_sn}/link', () => [
  shape('spec 000 endpoint 17 sample: {"Reports":[…]}', v.pipe(obj({ Reports: list(reportLink()) }), v.transform((o) => o.Reports))),
  shape('spec 000 endpoint 17 typed description, decisions row 8: a bare array', list(reportLink())),
  shape('vendor reference ("returns the download URL"), official CLI stub: {"link":…}', v.pipe(obj({ link: text() }), v.transform((o) => [{ reportType: SINGLE_LINK_TYPE, link: o.link }]))),
]), () => []);

// --- Templates ---

const template = (): Schema<T.Template> => obj({ id: text(), name: maybe(text()), template: maybe(text()), updateDate: maybe(text()) }) as Schema<T.Template>;

/** Endpoint 18. `capacity`: null when the service gave none, never 0. */
export const TEMPLATES = inDryRun(answer<T.TemplateList>('GET /v1/templates', () => [
  shape('spec 000 endpoint 18: {capacity, templates}', v.pipe(obj({ templates: list(template()), capacity: maybe(num()) }), v.transform((o) => ({ capacity: o.capacity ?? null, templates: o.templates })))),
  shape('official CLI stub: a bare array of templates (no capacity)', v.pipe(list(template()), v.transform((templates) => ({ capacity: null, templates })))),
]), () => ({ capacity: null, templates: [] }));

/** Endpoint 19: the html is written to a file or counted, so it must be text. */
export const TEMPLATE = inDryRun(answer<T.Template>('GET /v1/templates/{template_id}', () => [
  shape('spec 000 endpoint 19: the template object (html in "template")', obj({ id: maybe(text()), name: maybe(text()), template: text(), updateDate: maybe(text()) }) as Schema<T.Template>),
  shape('official CLI stub: html in "html"', v.pipe(obj({ id: maybe(text()), name: maybe(text()), html: text(), updateDate: maybe(text()) }), v.transform(({ html, ...o }) => ({ ...o, template: html }) as T.Template))),
]), () => ({}) as T.Template);

// --- Automation ---

/** Endpoint 20: who was accepted and who refused (and why). */
export const AUTOMATION_ANSWER = inDryRun(answer<T.SendOutcome>('POST /v1/automation/event', () => [
  shape('spec 000 endpoint 20: {success, failure}', obj({ success: list(text()), failure: textMap() }) as Schema<T.SendOutcome>),
  // Nobody is named: each recipient is then "not listed in the answer", in doubt (src/send/kinds.ts).
  shape('official CLI stub: {"status":"triggered"}', v.pipe(obj({ status: v.literal('triggered', '"triggered"') }), v.transform((): T.SendOutcome => ({ success: [], failure: {} })))),
]), () => ({ success: [], failure: {} }));

// --- Balance ---

/** A figure of the balance: a number, a numeric string, or not given (null; never 0). */
const figure = () => v.pipe(
  v.optional(v.custom<number | string | null>((x) => x === null || (typeof x === 'number' && Number.isFinite(x)) || (typeof x === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(x)), 'a number'), null),
  v.transform((x) => (x === null ? null : Number(x))),
);

/**
 * Endpoint 21. A figure left out is null ("not given"); an answer that gives neither figure (an
 * empty object, or a wrapper nobody documents) is not the balance at all.
 */
export const BALANCE = inDryRun(answer<T.Balance>('GET /v1/balance', () => [
  shape('spec 000 endpoint 21: {email, sms} (vendor reference: numbers)', v.pipe(
    v.looseObject({}, 'an object'),
    // An empty object is no balance either: a cron check would read "not given" with exit 0.
    v.check((o) => 'email' in o || 'sms' in o, 'an object holding "email" or "sms"'),
    v.looseObject({ email: figure(), sms: figure() }, 'an object'),
    v.transform((o): T.Balance => ({ email: o.email, sms: o.sms })),
  ) as unknown as Schema<T.Balance>),
]), () => ({ email: null, sms: null }));

// --- The sandbox's back office (not the spec: a real service answers 404) ---

export const SANDBOX_BALANCE = answer<T.Balance>('PUT /_sandbox/balance', () => [shape('the sandbox (src/sandbox/campaign/account.ts)', BALANCE.shapes[0].schema)]);
const sandboxField = (): Schema<T.SandboxField> => obj({ name: text(), type: text(), createDate: maybe(text()) }) as Schema<T.SandboxField>;
export const SANDBOX_FIELD = answer<T.SandboxField>('POST /_sandbox/fields', () => [shape('the sandbox (src/sandbox/campaign/fields.ts)', sandboxField())]);
export const SANDBOX_FIELDS = inDryRun(answer<T.SandboxField[]>('GET /_sandbox/fields', () => [shape('the sandbox: {fields}', v.pipe(obj({ fields: list(sandboxField()) }), v.transform((o) => o.fields)))]), () => []);

