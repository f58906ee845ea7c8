// The campaign service (spec 000), one method per endpoint, numbered as in the spec.
import { HttpClient, type HttpOptions } from './http.js';
import { pathSegment } from './path-segment.js';
import { SlidingWindowLimiter, unlimited, type Limiter } from './ratelimit.js';
import { SharedWindowLimiter, budgetName } from './ratelimit-shared.js';
import type { Clock } from '../core/clock.js';
import type * as T from './campaign-types.js';
import { ServiceError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

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

/** Spec endpoints 7-10: one request shape, four paths (regular or A/B, to groups or to an uploaded list). */
export type SubmitEndpoint = 7 | 8 | 9 | 10;
export const SUBMIT_PATHS: Record<SubmitEndpoint, string> = {
  7: '/v1/campaign/normal/submit',
  8: '/v1/campaign/normal/once',
  9: '/v1/campaign/testing/submit',
  10: '/v1/campaign/testing/once',
};

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
  /** 1 */ createGroup(name: string) {
    return this.http.call<{ sn: string }>('POST', '/v1/contacts/lists/insert', { json: { name } });
  }
  /** 2 */ async listGroups(page?: number, size?: number): Promise<T.Group[]> {
    const r = await this.http.call<T.Group[] | { lists?: T.Group[] }>('GET', '/v1/contacts/lists', { searchParams: { page, size }, idempotent: true });
    return Array.isArray(r) ? r : r?.lists ?? [];
  }
  /** 3 */ async startFileImport(listSn: string, webhookUrl?: string): Promise<T.ImportStarted> {
    const r = await this.http.call<Record<string, string>>('POST', `/v1/contacts/imports/${enc(listSn)}/file`, { json: webhookUrl ? { webhookUrl } : {} });
    return { importSn: importSnOf(r), url: r?.url };
  }
  /** 4 */ async startTextImport(listSn: string, contacts: string): Promise<T.ImportStarted> {
    const r = await this.http.call<Record<string, string>>('POST', `/v1/contacts/imports/${enc(listSn)}/text`, { json: { contacts } });
    return { importSn: importSnOf(r) };
  }
  /** 5 */ async importResult(importSn: string): Promise<T.ImportResult> {
    const r = await this.http.call<Record<string, unknown>>('GET', `/v1/contacts/imports/result/${enc(importSn)}`, { idempotent: true });
    return { ...(r as object), importSn: importSnOf(r) || importSn } as T.ImportResult;
  }
  /**
   * 6. Repeatable, so retried after a lost answer; `retriedAfterLostAnswer` then says the count
   * is the retry's alone (what the first attempt removed is not in it).
   */
  async removeContacts(listSn: string, body: T.RemovalBody): Promise<T.RemovalResult> {
    const r = await this.http.callTracked<{ updated_count?: unknown } | undefined>('DELETE', `/v1/contacts/${enc(listSn)}`, { json: body, idempotent: true });
    const n = Number(r.value?.updated_count);
    return { updated_count: Number.isFinite(n) ? n : 0, retriedAfterLostAnswer: r.afterDoubt };
  }

  // --- Campaigns ---
  /** 7-10: the endpoint compose.ts chose for this campaign. */
  submit(endpoint: SubmitEndpoint, body: T.CampaignRequest) {
    return this.http.call<T.CampaignCreated>('POST', SUBMIT_PATHS[endpoint], { json: body });
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
  /** 11 (decisions row 22: campaignSnList) */ async deleteCampaigns(sns: string[]): Promise<T.DeleteCampaignsResult> {
    // Not repeatable: after a lost answer a second DELETE would report the first one's work as
    // "no such campaign". The command settles a lost answer by looking the campaigns up.
    const r = await this.http.call<Partial<T.DeleteCampaignsResult>>('DELETE', '/v1/campaign/normal', { json: { campaignSnList: sns } });
    return { success: r?.success ?? [], sendingCampaign: r?.sendingCampaign ?? [], badCampaigns: r?.badCampaigns ?? [] };
  }
  /** 12 */ pauseCampaign(sn: string): Promise<void> {
    // Not repeatable either: a second PATCH after a lost answer is refused as "not scheduled".
    return this.http.call('PATCH', `/v1/campaign/normal/${enc(sn)}`, { noBody: true });
  }
  /** 13 */ async campaignStatus(sn: string): Promise<T.Campaign[]> {
    const r = await this.http.call<T.Campaign[] | T.Campaign>('GET', `/v1/campaign/normal/${enc(sn)}`, { idempotent: true });
    return Array.isArray(r) ? r : r ? [r] : [];
  }

  // --- Reports ---
  /** 14: both dates or neither (one date alone means "the 10 most recent", per the spec). */
  async listFinishedCampaigns(startDate?: string, endDate?: string): Promise<T.CampaignCode[]> {
    const r = await this.http.call<T.CampaignCode[]>('GET', '/v1/report/campaigns', { searchParams: { startDate, endDate }, idempotent: true });
    return Array.isArray(r) ? r : [];
  }
  /** 15 (a read, safe to repeat) */ async metrics(campaignSns: string[]): Promise<T.CampaignMetrics[]> {
    const r = await this.http.call<T.CampaignMetrics[]>('POST', '/v1/report/campaigns/metrics', { json: { campaignSns }, idempotent: true });
    return Array.isArray(r) ? r : [];
  }
  /** 16: repeated exports within an hour are ignored by the service, so repeating is safe. */
  exportReport(sn: string, webhookUrl?: string): Promise<unknown> {
    return this.http.call('POST', `/v1/report/${enc(sn)}/export`, { json: webhookUrl ? { webhookUrl } : {}, idempotent: true, limiter: this.exportLimiter });
  }
  /** 17 (decisions row 8: `Reports` wrapper or bare array) */ async reportLinks(sn: string): Promise<T.ReportLink[]> {
    const r = await this.http.call<T.ReportLink[] | { Reports?: T.ReportLink[]; reports?: T.ReportLink[] }>('GET', `/v1/report/${enc(sn)}/link`, { idempotent: true });
    return reportLinksOf(r);
  }

  // --- Templates ---
  /** 18 */ async listTemplates(): Promise<T.TemplateList> {
    const r = answerObject(await this.http.call<unknown>('GET', '/v1/templates', { idempotent: true }), 'GET /v1/templates');
    const templates = r.templates ?? [];
    if (!Array.isArray(templates) || !templates.every((t) => t && typeof t === 'object' && !Array.isArray(t))) throw badAnswer('GET /v1/templates', `a "templates" that is not a list of templates (${forTerminal(JSON.stringify(templates), 60)})`);
    return { capacity: figure(r, 'capacity', 'GET /v1/templates'), templates };
  }
  /** 19 */ async getTemplate(id: string): Promise<T.Template> {
    const where = `GET /v1/templates/${enc(id)}`;
    const r = answerObject(await this.http.call<unknown>('GET', `/v1/templates/${enc(id)}`, { idempotent: true }), where);
    // The html is written to a file or counted: anything but text would be shown as if it were.
    if (r.template !== undefined && r.template !== null && typeof r.template !== 'string') throw badAnswer(where, `html ("template") that is not text (${forTerminal(JSON.stringify(r.template), 60)})`);
    return r as unknown as T.Template;
  }

  // --- Automation ---
  /** 20 */ async automationEvent(body: T.AutomationRequest): Promise<T.SendOutcome> {
    const r = await this.http.call<Partial<T.SendOutcome>>('POST', '/v1/automation/event', { json: body });
    return { success: r?.success ?? [], failure: r?.failure ?? {} };
  }

  // --- Balance ---
  /** 21 */ async balance(): Promise<T.Balance> {
    // A figure the service did not give is null, never 0: a missing balance is not an empty one.
    const r = answerObject(await this.balanceAnswer(), 'GET /v1/balance');
    return { email: figure(r, 'email', 'GET /v1/balance'), sms: figure(r, 'sms', 'GET /v1/balance') };
  }
  /** 21, the answer as it came: a check must tell a missing figure from 0 (src/campaign/balance-check.ts). */
  balanceAnswer(): Promise<unknown> {
    return this.http.call<unknown>('GET', '/v1/balance', { idempotent: true });
  }

  // --- The sandbox's back office (not the spec: a real service answers 404) ---
  sandboxSetBalance(body: { email?: number; sms?: number }): Promise<T.Balance> {
    return this.http.call('PUT', '/_sandbox/balance', { json: body, idempotent: true });
  }
  sandboxAddField(name: string, type: string): Promise<T.SandboxField> {
    return this.http.call('POST', '/_sandbox/fields', { json: { name, type } });
  }
  async sandboxFields(): Promise<T.SandboxField[]> {
    return (await this.http.call<{ fields?: T.SandboxField[] }>('GET', '/_sandbox/fields', { idempotent: true }))?.fields ?? [];
  }
}

/** decisions row 13: the older revision named it import_sn. */
export function importSnOf(r: unknown): string {
  const o = (r ?? {}) as Record<string, unknown>;
  return String(o.importSn ?? o.import_sn ?? '');
}

export function reportLinksOf(r: unknown): T.ReportLink[] {
  if (Array.isArray(r)) return r as T.ReportLink[];
  const o = (r ?? {}) as Record<string, unknown>;
  const list = o.Reports ?? o.reports;
  return Array.isArray(list) ? (list as T.ReportLink[]) : [];
}

/** An answer that is not what the spec documents where a command needs it (exit 1, BAD_RESPONSE). */
function badAnswer(where: string, what: string): ServiceError {
  return new ServiceError(`The campaign service answered ${where} with ${what}; mailctl shows no guess in its place.`, {
    hint: 'Try again later; if it keeps failing, contact the provider\'s support.',
    facts: { code: 'BAD_RESPONSE', refused: false, retryable: false },
  });
}

function answerObject(r: unknown, where: string): Record<string, unknown> {
  // No answer at all: a dry run records the request and reads nothing (src/output/dry-run.ts).
  if (r === undefined) return {};
  if (!r || typeof r !== 'object' || Array.isArray(r)) throw badAnswer(where, `${forTerminal(JSON.stringify(r) ?? String(r), 60)} instead of an object`);
  return r as Record<string, unknown>;
}

/** A documented number: null when not given; a numeric string is read; anything else is a bad answer. */
function figure(r: Record<string, unknown>, name: string, where: string): number | null {
  const v = r[name];
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw badAnswer(where, `a "${name}" that is not a number (${forTerminal(JSON.stringify(v), 40)})`);
  return n;
}
