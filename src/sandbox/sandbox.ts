// The sandbox core: one emulator of both services, used in-process by --sandbox and over
// loopback HTTP by `mailctl sandbox serve` and the tests. It owns what the services share:
// the service prefixes, the x-api-key check, the campaign service's rate limits and daily
// cap, upload targets and downloadable files, signed webhook delivery, request recording
// and fault injection. Endpoint behaviour lives in ./campaign and ./notify.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { systemClock, type Clock } from '../core/clock.js';
import { SANDBOX_KEYS, SANDBOX_SENDER } from './constants.js';
import { campaignModule } from './campaign/index.js';
import { notifyModule } from './notify/index.js';
import { resolveShapes, wrapUnknown } from './shapes.js';
import { handleLink } from './links.js';
import {
  SbBadJson, type PendingWebhook, type Recorded, type Route, type SandboxDelays, type SandboxLimits, type SandboxOptions,
  type SandboxState, type SbContext, type SbRequest, type SbResponse, type SbService, type UploadTarget,
} from './types.js';

export const DEFAULT_LIMITS: SandboxLimits = { perSecond: 2, exportEvery10s: true, daily: 300_000 };
export const DEFAULT_DELAYS: SandboxDelays = { importProcessing: 3000, campaignPrepare: 2000, campaignSending: 4000, reportExport: 3000, notifyEvents: 1500 };

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; times?: number; match?: FaultMatch }
  | { kind: 'hang'; times?: number; match?: FaultMatch }
  | { kind: 'drop'; times?: number; match?: FaultMatch }
  /** The request is carried out, then the connection breaks before the answer: a lost response. */
  | { kind: 'lose-answer'; times?: number; match?: FaultMatch }
  /** The request is carried out, then no answer ever comes (a process killed while waiting for it). */
  | { kind: 'hold-answer'; times?: number; match?: FaultMatch };
export interface FaultMatch {
  /** Let this many matching requests through untouched before the fault applies. */
  after?: number;
  service?: SbService;
  method?: string;
  /** Exact path or a regular expression over the path below the service prefix. */
  path?: string | RegExp;
}

/** What handle() returns: a response, or an instruction to the transport to misbehave. */
export type SbOutcome = SbResponse | { fault: 'hang' | 'drop' };

export interface RawRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array> | null;
}

const MODULES = [campaignModule, notifyModule] as const;

export class Sandbox {
  state: SandboxState;
  readonly recorded: Recorded[] = [];
  readonly faults: Fault[] = [];
  /** Outgoing webhook attempts, for tests: url, body, headers, HTTP status or error. */
  readonly webhookLog: Array<{ url: string; body: unknown; headers: Record<string, string>; status?: number; error?: string; at: number }> = [];
  private readonly clock: Clock;
  private readonly ctxOpts: SbContext['opts'];
  private readonly routes: Array<Route & { re: RegExp; names: string[] }>;
  private readonly deliverWebhooks: boolean;
  private pendingDeliveries = new Set<Promise<void>>();
  /** The advance under way: requests answered side by side (sandbox serve) advance one at a time. */
  private advancing: Promise<void> = Promise.resolve();
  /** Called after every state change (persistence). */
  onChange?: (state: SandboxState) => void | Promise<void>;

  constructor(opts: SandboxOptions, state?: SandboxState) {
    this.clock = opts.clock ?? systemClock;
    this.deliverWebhooks = opts.deliverWebhooks ?? true;
    const defaultsVerified = [SANDBOX_SENDER.address, 'noreply@example.com', 'marketing@example.com'];
    this.ctxOpts = {
      publicBase: opts.publicBase.replace(/\/+$/, ''),
      dataDir: opts.dataDir,
      keys: opts.keys ?? { ...SANDBOX_KEYS },
      limits: { ...DEFAULT_LIMITS, ...opts.limits },
      delays: { ...DEFAULT_DELAYS, ...opts.delays },
      verifiedSenders: new Set((opts.verifiedSenders ?? defaultsVerified).map((s) => s.toLowerCase())),
      verifiedDomains: new Set((opts.verifiedDomains ?? ['example.com']).map((s) => s.toLowerCase())),
      shapes: resolveShapes(opts.shapes),
    };
    fs.mkdirSync(path.join(opts.dataDir, 'files'), { recursive: true });
    this.state = state ?? this.initialState();
    if (opts.balance && !state) this.state.campaign.balance = { ...opts.balance };
    this.routes = MODULES.flatMap((m) => m.routes).map((r) => {
      const names: string[] = [];
      const re = new RegExp('^' + r.path.replace(/:([A-Za-z]+)/g, (_, n) => (names.push(n), '([^/]+)')) + '/?$');
      return { ...r, re, names };
    });
  }

  initialState(): SandboxState {
    return {
      version: 1,
      seq: 0,
      campaign: campaignModule.initialState(this.ctxOpts),
      notify: notifyModule.initialState(this.ctxOpts),
      uploads: {},
      downloads: {},
      rateLog: [],
      pendingWebhooks: [],
      daily: { day: '', count: 0 },
    };
  }

  get options(): SbContext['opts'] {
    return this.ctxOpts;
  }

  /** Requests received so far, optionally only one service's. */
  requests(service?: SbService): Recorded[] {
    return service ? this.recorded.filter((r) => r.service === service) : [...this.recorded];
  }

  injectFault(f: Fault): void {
    this.faults.push({ times: 1, ...f } as Fault);
  }

  /** Wait for webhook deliveries in flight (tests; in-process runs before exiting). */
  async settle(): Promise<void> {
    while (this.pendingDeliveries.size) await Promise.allSettled([...this.pendingDeliveries]);
  }

  /** Move every time-driven state forward to now and send webhooks that are due. */
  async tick(): Promise<void> {
    const ctx = this.context();
    await this.advance(ctx);
    this.flushWebhooks(ctx);
    await this.onChange?.(this.state);
  }

  async handle(raw: RawRequest): Promise<SbOutcome> {
    const now = this.clock.now();
    const [, prefix, ...rest] = raw.url.pathname.split('/');
    const service = (['campaign', 'notify', 'files', 'links'] as const).find((s) => s === prefix);
    const subPath = '/' + rest.join('/');
    const headers = lowerHeaders(raw.headers);
    let bodyBuf: Buffer | undefined;
    let streamed = 0;
    const readBody = async () => {
      if (bodyBuf) return bodyBuf;
      const chunks: Buffer[] = [];
      if (raw.body) for await (const c of raw.body) chunks.push(Buffer.from(c));
      bodyBuf = Buffer.concat(chunks);
      return bodyBuf;
    };
    const rec: Recorded = {
      service: service ?? 'files', method: raw.method.toUpperCase(), path: service ? subPath : raw.url.pathname,
      query: Object.fromEntries(raw.url.searchParams), headers, bodyBytes: 0, status: 0, at: now,
    };
    this.recorded.push(rec);
    let loseAnswer: false | 'drop' | 'hang' = false;
    const finish = async (res: SbOutcome): Promise<SbOutcome> => {
      if ('fault' in res) {
        rec.status = -1;
      } else {
        rec.status = res.status;
      }
      // Every HTTP answer carries a Date (RFC 9110 section 6.6.1): the sandbox's own clock, the
      // same in-process as over loopback, so `doctor` can check this machine's clock against it.
      if (!('fault' in res)) res = { ...res, headers: { date: new Date(now).toUTCString(), ...res.headers } };
      // --shape unknown: every 2xx document of either service in a key nobody documents (not the
      // sandbox's own back office, which no real service has).
      if (!('fault' in res) && this.ctxOpts.shapes.unknown && (service === 'campaign' || service === 'notify') && !subPath.startsWith('/_sandbox/')
        && res.status >= 200 && res.status < 300 && res.json !== undefined) res = { ...res, json: wrapUnknown(this.ctxOpts.shapes, res.json) };
      if (bodyBuf) {
        rec.bodyBytes = bodyBuf.length;
        rec.body = parseMaybeJson(bodyBuf);
      } else rec.bodyBytes = streamed;
      return loseAnswer && !('fault' in res) ? { fault: loseAnswer } : res;
    };

    const fault = this.takeFault(service ?? 'files', rec.method, subPath);
    if (fault?.kind === 'lose-answer') loseAnswer = 'drop';
    else if (fault?.kind === 'hold-answer') loseAnswer = 'hang';
    else if (fault) {
      if (fault.kind === 'status') return finish({ status: fault.status, json: fault.body ?? { message: 'injected failure' }, headers: fault.headers });
      return finish({ fault: fault.kind });
    }
    if (!service) return finish({ status: 404, json: { message: 'Not Found' } });
    // Stand-ins for the sites a mail links to (links.ts): no key, no state.
    if (service === 'links') return finish(handleLink(rec.method, subPath, raw.url));

    const ctx = this.context(now);
    await this.advance(ctx);

    if (service === 'files') {
      const res = await this.handleFile(ctx, rec.method, subPath, raw.body, (n) => (streamed = n));
      this.flushWebhooks(ctx);
      await this.onChange?.(this.state);
      return finish(res);
    }

    // Authentication (spec section 5): a missing or wrong key → {"message":"Forbidden"}.
    if (headers['x-api-key'] !== this.ctxOpts.keys[service]) return finish({ status: 403, json: { message: 'Forbidden' } });

    if (service === 'campaign') {
      const limited = this.campaignLimits(now);
      if (limited) return finish(limited);
    }

    const route = this.match(service, rec.method, subPath);
    if (!route) return finish({ status: 404, json: { message: `No such endpoint: ${rec.method} ${subPath}` } });

    const req: SbRequest = {
      service, method: rec.method, path: subPath, query: raw.url.searchParams, headers,
      body: readBody,
      json: async <T>() => {
        const b = await readBody();
        if (!b.length) return undefined;
        try {
          return JSON.parse(b.toString('utf8')) as T;
        } catch {
          throw new SbBadJson('body is not JSON');
        }
      },
      stream: () => raw.body ?? Readable.from([]),
    };
    let res: SbResponse;
    try {
      res = await route.route.handler(req, ctx, route.params);
    } catch (e) {
      if (e instanceof SbBadJson) res = service === 'notify' ? { status: 400, json: { errors: 'Invalid request body' } } : { status: 400, json: { message: 'Invalid request body' } };
      else throw e;
    }
    this.flushWebhooks(ctx);
    await this.onChange?.(this.state);
    return finish(res);
  }

  /**
   * Moves time-driven state to ctx.now. A due job may be awaited inside (campaign/jobs.ts), so
   * two requests could otherwise both find the same import or export due and apply it twice.
   */
  private advance(ctx: SbContext): Promise<void> {
    const run = async () => {
      for (const m of MODULES) await m.advance?.(ctx);
    };
    const next = this.advancing.then(run, run);
    this.advancing = next.catch(() => {});
    return next;
  }

  private campaignLimits(now: number): SbResponse | undefined {
    const { perSecond, daily } = this.ctxOpts.limits;
    const day = new Date(now).toISOString().slice(0, 10);
    if (this.state.daily.day !== day) this.state.daily = { day, count: 0 };
    if (this.state.daily.count >= daily) return { status: 429, json: { message: 'Limit Exceeded' } };
    if (perSecond !== false) {
      this.state.rateLog = this.state.rateLog.filter((t) => t > now - 1000);
      if (this.state.rateLog.length >= perSecond) return { status: 429, json: { message: 'too many requests' } };
      this.state.rateLog.push(now);
    }
    this.state.daily.count += 1;
    return undefined;
  }

  private match(service: 'campaign' | 'notify', method: string, p: string) {
    for (const route of this.routes) {
      if (route.service !== service || route.method !== method) continue;
      const m = route.re.exec(p);
      if (m) return { route, params: Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
    }
    return undefined;
  }

  private takeFault(service: SbService, method: string, p: string): Fault | undefined {
    const i = this.faults.findIndex((f) => {
      const m = f.match;
      if (!m) return true;
      if (m.service && m.service !== service) return false;
      if (m.method && m.method.toUpperCase() !== method) return false;
      if (m.path !== undefined && !(typeof m.path === 'string' ? m.path === p : m.path.test(p))) return false;
      return true;
    });
    if (i < 0) return undefined;
    const f = this.faults[i];
    if (f.match?.after) {
      f.match.after -= 1;
      return undefined;
    }
    f.times = (f.times ?? 1) - 1;
    if (f.times <= 0) this.faults.splice(i, 1);
    return f;
  }

  private async handleFile(ctx: SbContext, method: string, p: string, body: AsyncIterable<Uint8Array> | null, count: (n: number) => void): Promise<SbResponse> {
    const [, kind, token] = p.split('/');
    if (kind === 'u' && method === 'PUT') {
      const target = this.state.uploads[token];
      if (!target) return { status: 403, body: 'Request has expired or the upload URL is wrong', headers: { 'content-type': 'text/plain' } };
      const file = `upload-${token}`;
      let n = 0;
      const counting = async function* () {
        if (body) for await (const c of body) { n += c.length; yield c; }
      };
      await pipeline(Readable.from(counting()), fs.createWriteStream(ctx.filePath(file)));
      count(n);
      Object.assign(target, { receivedAt: ctx.now, bytes: n, file } satisfies Partial<UploadTarget>);
      for (const m of MODULES) await m.onUpload?.(ctx, token, target);
      return { status: 200, body: '' };
    }
    if (kind === 'd' && (method === 'GET' || method === 'HEAD')) {
      const d = this.state.downloads[token];
      if (!d || !fs.existsSync(ctx.filePath(d.file))) return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
      return { status: 200, file: ctx.filePath(d.file), headers: { 'content-type': d.contentType, 'content-disposition': `attachment; filename="${d.name}"` } };
    }
    return { status: 405, body: 'Method Not Allowed', headers: { 'content-type': 'text/plain' } };
  }

  private context(now = this.clock.now()): SbContext {
    const state = this.state;
    const o = this.ctxOpts;
    return {
      state, now, opts: o,
      newId: (prefix) => `${prefix}${(++state.seq).toString(36).padStart(6, '0')}${crypto.randomBytes(3).toString('hex')}`,
      uploadUrl: (kind, ref) => {
        const token = crypto.randomBytes(12).toString('hex');
        state.uploads[token] = { kind, ref, createdAt: now };
        return `${o.publicBase}/files/u/${token}`;
      },
      publishFile: (name, content, contentType = 'text/csv; charset=utf-8') => {
        const token = crypto.randomBytes(12).toString('hex');
        const file = `download-${token}`;
        fs.writeFileSync(path.join(o.dataDir, 'files', file), content);
        state.downloads[token] = { file, contentType, name };
        return `${o.publicBase}/files/d/${token}`;
      },
      publishStoredFile: (file, name, contentType = 'text/csv; charset=utf-8') => {
        const token = crypto.randomBytes(12).toString('hex');
        state.downloads[token] = { file, contentType, name };
        return `${o.publicBase}/files/d/${token}`;
      },
      filePath: (file) => path.join(o.dataDir, 'files', file),
      queueWebhook: (w) => state.pendingWebhooks.push(w),
    };
  }

  private flushWebhooks(ctx: SbContext): void {
    const due = this.state.pendingWebhooks.filter((w) => w.dueAt <= ctx.now);
    if (!due.length) return;
    this.state.pendingWebhooks = this.state.pendingWebhooks.filter((w) => w.dueAt > ctx.now);
    if (!this.deliverWebhooks) return;
    for (const w of due) {
      const p = this.deliver(w).finally(() => this.pendingDeliveries.delete(p));
      this.pendingDeliveries.add(p);
    }
  }

  private async deliver(w: PendingWebhook): Promise<void> {
    const body = JSON.stringify(w.body);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'mailctl-sandbox' };
    // decisions row 14: signature = hex HMAC-SHA256(id + event) keyed with the notification key,
    // under the spec's header name or the one public code uses (shapes.signatureHeader).
    if (w.sign) headers[this.ctxOpts.shapes.signatureHeader] = crypto.createHmac('sha256', w.sign.key).update(w.sign.message).digest('hex');
    const entry: (typeof this.webhookLog)[number] = { url: w.url, body: w.body, headers, at: this.clock.now() };
    this.webhookLog.push(entry);
    try {
      const res = await fetch(w.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
      entry.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (e) {
      entry.error = (e as Error).message;
    }
  }
}

function lowerHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

function parseMaybeJson(b: Buffer): unknown {
  if (!b.length) return undefined;
  const text = b.subarray(0, 65536).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
