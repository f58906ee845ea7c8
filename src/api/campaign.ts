// The campaign service (spec 000), one method per endpoint, numbered as in the spec.
import { SUBMIT_PATHS, type SubmitEndpoint } from './submit-paths.js';
import { HttpClient, type HttpOptions } from './http.js';
import { pathSegment } from './path-segment.js';
import { SlidingWindowLimiter, unlimited, type Limiter } from './ratelimit.js';
import { SharedWindowLimiter, budgetName } from './ratelimit-shared.js';
import type { Clock } from '../core/clock.js';
import { factsOf } from '../core/errors.js';
import type * as T from './campaign-types.js';
import * as A from './answers/campaign.js';

export interface CampaignClientOptions extends Omit<HttpOptions, 'service' | 'limiter'> {
  clock: Clock;
  /** false turns the client-side limits off (tests of unrelated behaviour). */
  rateLimit?: boolean;
  /**
   * Where the key's rate budget is shared with other mailctl processes (<config dir>/ratelimit);
   * without it the limits are this process's own.
   */
  budget?: { dir: string; warn?: (line: string) => void };
}

/** Each path parameter: "." and ".." are refused, not collapsed into another endpoint. */
const enc = pathSegment;


export class CampaignClient {
  readonly http: HttpClient;
  private readonly exportLimiter: Limiter;

  constructor(o: CampaignClientOptions) {
    const on = o.rateLimit !== false;
    // Spec section 8 / decisions rows 20 and P11: 2 requests per second overall, 1 export per 10 seconds,
    // counted by the service per key: shared by every process on this key when `budget` is given.
    const limit = (bucket: string, max: number, windowMs: number): Limiter => {
      if (!on) return unlimited;
      if (!o.budget) return new SlidingWindowLimiter(max, windowMs, o.clock);
      return new SharedWindowLimiter({ ...o.budget, name: budgetName(o.baseUrl, o.apiKey, bucket), max, windowMs, clock: o.clock });
    };
    this.http = new HttpClient({ ...o, service: 'campaign', limiter: limit('requests', 2, 1000) });
    this.exportLimiter = limit('exports', 1, 10_000);
  }

  // --- Contacts ---
  // Each answer is read through its endpoint's declaration (src/api/answers/campaign.ts, A.*).
  /** 1 */ createGroup(name: string): Promise<{ sn: string }> {
    return this.http.call('POST', '/v1/contacts/lists/insert', { json: { name }, answer: A.GROUP_CREATED });
  }
  /** 2 */ listGroups(page?: number, size?: number): Promise<T.Group[]> {
    return this.http.call('GET', '/v1/contacts/lists', { searchParams: { page, size }, idempotent: true, answer: A.GROUPS });
  }
  /** 3 */ startFileImport(listSn: string, webhookUrl?: string): Promise<T.ImportStarted> {
    return this.http.call('POST', `/v1/contacts/imports/${enc(listSn)}/file`, { json: webhookUrl ? { webhookUrl } : {}, answer: A.FILE_IMPORT_STARTED });
  }
  /** 4 */ startTextImport(listSn: string, contacts: string): Promise<T.ImportStarted> {
    return this.http.call('POST', `/v1/contacts/imports/${enc(listSn)}/text`, { json: { contacts }, answer: A.TEXT_IMPORT_STARTED });
  }
  /** 5 */ importResult(importSn: string): Promise<T.ImportResult> {
    return this.http.call('GET', `/v1/contacts/imports/result/${enc(importSn)}`, { idempotent: true, answer: A.IMPORT_RESULT });
  }
  /**
   * 6. Repeatable, so retried after a lost answer; `retriedAfterLostAnswer` then says the count
   * is the retry's alone (what the first attempt removed is not in it).
   */
  async removeContacts(listSn: string, body: T.RemovalBody): Promise<T.RemovalResult> {
    const r = await this.http.callTracked('DELETE', `/v1/contacts/${enc(listSn)}`, { json: body, idempotent: true, answer: A.CONTACTS_REMOVED });
    // undefined only under --dry-run, where nothing was removed.
    return { updated_count: r.value ?? 0, retriedAfterLostAnswer: r.afterDoubt };
  }

  // --- Campaigns ---
  /** 7-10: the endpoint compose.ts chose for this campaign. */
  submit(endpoint: SubmitEndpoint, body: T.CampaignRequest): Promise<T.CampaignCreated> {
    return this.http.call('POST', SUBMIT_PATHS[endpoint], { json: body, answer: A.CAMPAIGN_CREATED });
  }
  /** 7 */ submitCampaign(body: T.CampaignRequest) {
    return this.submit(7, body);
  }
  /** 8 */ submitOnceCampaign(body: T.CampaignRequest) {
    return this.submit(8, body);
  }
  /** 9 */ submitAbCampaign(body: T.CampaignRequest) {
    return this.submit(9, body);
  }
  /** 10 */ submitOnceAbCampaign(body: T.CampaignRequest) {
    return this.submit(10, body);
  }
  /** 11 (decisions row 22: campaignSnList) */ deleteCampaigns(sns: string[]): Promise<T.DeleteCampaignsResult> {
    // Not repeatable: after a lost answer a second DELETE would report the first one's work as
    // "no such campaign". The command settles a lost answer by looking the campaigns up.
    return this.http.call('DELETE', '/v1/campaign/normal', { json: { campaignSnList: sns }, answer: A.CAMPAIGNS_DELETED });
  }
  /** 12 */ pauseCampaign(sn: string): Promise<void> {
    // Not repeatable either: a second PATCH after a lost answer may be refused, the campaign being paused already.
    return this.http.call('PATCH', `/v1/campaign/normal/${enc(sn)}`, { answer: A.CAMPAIGN_PAUSED });
  }
  /**
   * 13: an empty list, no such campaign. The service may also refuse an unknown code instead:
   * HTTP 404, or code 40007 "invalid sn" (docs/spec/campaign-excerpts.txt, the code it gives for an
   * unknown template, group or campaign code). That is the same answer, read here once, so every
   * caller (status, pause, delete, list) says "no such campaign" alike.
   */
  async campaignStatus(sn: string): Promise<T.Campaign[]> {
    try {
      return await this.http.call('GET', `/v1/campaign/normal/${enc(sn)}`, { idempotent: true, answer: A.CAMPAIGN_STATUS });
    } catch (e) {
      const f = factsOf(e);
      if (f.reached === 'yes' && f.refused && (f.status === 404 || f.serviceCode === '40007')) return [];
      throw e;
    }
  }

  // --- Reports ---
  /** 14: both dates or neither (one date alone means "the 10 most recent", per the spec). */
  listFinishedCampaigns(startDate?: string, endDate?: string): Promise<T.CampaignCode[]> {
    return this.http.call('GET', '/v1/report/campaigns', { searchParams: { startDate, endDate }, idempotent: true, answer: A.FINISHED_CAMPAIGNS });
  }
  /** 15 (a read, safe to repeat) */ metrics(campaignSns: string[]): Promise<T.CampaignMetrics[]> {
    return this.http.call('POST', '/v1/report/campaigns/metrics', { json: { campaignSns }, idempotent: true, answer: A.METRICS });
  }
  /** 16: repeated exports within an hour are ignored by the service, so repeating is safe. */
  exportReport(sn: string, webhookUrl?: string): Promise<void> {
    return this.http.call('POST', `/v1/report/${enc(sn)}/export`, { json: webhookUrl ? { webhookUrl } : {}, idempotent: true, limiter: this.exportLimiter, answer: A.EXPORT_STARTED });
  }
  /** 17 (decisions row 8) */ reportLinks(sn: string): Promise<T.ReportLink[]> {
    return this.http.call('GET', `/v1/report/${enc(sn)}/link`, { idempotent: true, answer: A.REPORT_LINKS });
  }

  // --- Templates ---
  /** 18 */ listTemplates(): Promise<T.TemplateList> {
    return this.http.call('GET', '/v1/templates', { idempotent: true, answer: A.TEMPLATES });
  }
  /** 19 */ getTemplate(id: string): Promise<T.Template> {
    return this.http.call('GET', `/v1/templates/${enc(id)}`, { idempotent: true, answer: A.TEMPLATE });
  }

  // --- Automation ---
  /** 20 */ automationEvent(body: T.AutomationRequest): Promise<T.SendOutcome> {
    return this.http.call('POST', '/v1/automation/event', { json: body, answer: A.AUTOMATION_ANSWER });
  }

  // --- Balance ---
  /** 21: a figure the service did not give is null, never 0: a missing balance is not an empty one. */
  balance(): Promise<T.Balance> {
    return this.http.call('GET', '/v1/balance', { idempotent: true, answer: A.BALANCE });
  }

  // --- The sandbox's back office (not the spec: a real service answers 404) ---
  sandboxSetBalance(body: { email?: number; sms?: number }): Promise<T.Balance> {
    return this.http.call('PUT', '/_sandbox/balance', { json: body, idempotent: true, answer: A.SANDBOX_BALANCE });
  }
  sandboxAddField(name: string, type: string): Promise<T.SandboxField> {
    return this.http.call('POST', '/_sandbox/fields', { json: { name, type }, answer: A.SANDBOX_FIELD });
  }
  sandboxFields(): Promise<T.SandboxField[]> {
    return this.http.call('GET', '/_sandbox/fields', { idempotent: true, answer: A.SANDBOX_FIELDS });
  }
}
