// Shapes shared by the sandbox core and the two service emulators.
import type { Clock } from '../core/clock.js';
import type { CampaignState } from './campaign/state.js';
import type { NotifyState } from './notify/state.js';
import type { SandboxShapes, ShapesOption } from './shapes.js';

export type SbService = 'campaign' | 'notify' | 'files' | 'links';

export interface SbRequest {
  service: SbService;
  method: string;
  /** Path below the service prefix, e.g. /v1/balance. */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The whole body (handlers that stream use `stream` instead). */
  body(): Promise<Buffer>;
  /** Parsed JSON body; undefined when empty; throws SbBadJson when not JSON. */
  json<T = unknown>(): Promise<T | undefined>;
  stream(): AsyncIterable<Uint8Array>;
}

export interface SbResponse {
  status: number;
  json?: unknown;
  /** Raw body (files); with `file`, streamed from disk. */
  body?: string | Buffer;
  file?: string;
  headers?: Record<string, string>;
}

export interface Recorded {
  service: SbService;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, else the text (first 64 KiB), else undefined. */
  body?: unknown;
  bodyBytes: number;
  status: number;
  at: number;
}

/** Everything the sandbox keeps: JSON-serialisable so --sandbox can persist it between runs. */
export interface SandboxState {
  version: 1;
  seq: number;
  campaign: CampaignState;
  notify: NotifyState;
  /** Upload targets handed out (import files, once-campaign lists): token → owner. */
  uploads: Record<string, UploadTarget>;
  /** Files served for download (failure files, report CSVs): token → file name in dataDir. */
  downloads: Record<string, { file: string; contentType: string; name: string }>;
  /** Arrival times of recent campaign-service requests (per-second limit). */
  rateLog: number[];
  /** Webhook POSTs waiting for their time. */
  pendingWebhooks: PendingWebhook[];
  /** Requests counted against the daily cap: day (UTC yyyy-mm-dd) → count. */
  daily: { day: string; count: number };
}

export interface UploadTarget {
  kind: 'import' | 'once-campaign';
  ref: string;
  createdAt: number;
  receivedAt?: number;
  bytes?: number;
  /** File name (under dataDir/files) holding what was PUT. */
  file?: string;
}

export interface SandboxLimits {
  /** Campaign-service requests allowed per second; false turns the limit off. Spec: 2. */
  perSecond: number | false;
  /** 1 export per 10 s (spec endpoint 16); false turns it off. */
  exportEvery10s: boolean;
  /** Campaign-service requests per UTC day. Spec: 300,000. */
  daily: number;
  /**
   * Rows one email event lookup returns at most, the oldest first; false: no cap. Spec 001: "row
   * cap of email event lookup: not shown", so none by default; the vendor's reference says 50
   * (decisions row P9), which a test can turn on.
   */
  emailLookupRows?: number | false;
}

/** How long things that take time in reality take here (ms). Tests shrink them. */
export interface SandboxDelays {
  importProcessing: number;
  campaignPrepare: number;
  campaignSending: number;
  reportExport: number;
  notifyEvents: number;
}

export interface SandboxOptions {
  /** Base of links the sandbox hands out (upload URLs, downloads), e.g. http://127.0.0.1:4010 */
  publicBase: string;
  /** Where uploaded and generated files live. */
  dataDir: string;
  keys?: { campaign: string; notify: string };
  clock?: Clock;
  limits?: Partial<SandboxLimits>;
  delays?: Partial<SandboxDelays>;
  /** Sender addresses that count as verified (campaign 40011). Default: anything @example.com and the seeded ones. */
  verifiedSenders?: string[];
  /** Sender domains verified for transactional mail. */
  verifiedDomains?: string[];
  /** Starting balance. */
  balance?: { email: number; sms: number };
  /** Deliver signed webhooks (HTTP POST). Default true. */
  deliverWebhooks?: boolean;
  /** Which documented alternate response shapes to serve (shapes.ts). Default: the spec's primary ones. */
  shapes?: ShapesOption;
}

/** What a route handler gets besides the request. */
export interface SbContext {
  state: SandboxState;
  now: number;
  opts: Required<Pick<SandboxOptions, 'publicBase' | 'dataDir'>> & { limits: SandboxLimits; delays: SandboxDelays; verifiedSenders: Set<string>; verifiedDomains: Set<string>; keys: { campaign: string; notify: string }; shapes: SandboxShapes };
  /** A fresh id with a prefix: deterministic within one state. */
  newId(prefix: string): string;
  /** Register an upload target and return its URL (PUT, no key needed). */
  uploadUrl(kind: UploadTarget['kind'], ref: string): string;
  /** Write a file for download and return its URL. */
  publishFile(name: string, content: string | Buffer, contentType?: string): string;
  /** Serve a file already written under dataDir/files (see filePath) and return its URL: big files need not pass through memory. */
  publishStoredFile(file: string, name: string, contentType?: string): string;
  /** Absolute path of a stored file. */
  filePath(file: string): string;
  /** Queue a webhook POST (delivered by the core, signed when `signWith` is given). */
  queueWebhook(w: PendingWebhook): void;
}

export interface PendingWebhook {
  url: string;
  body: unknown;
  /** Notification service: HMAC key and the string to sign (id + event). */
  sign?: { key: string; message: string };
  dueAt: number;
}

export type Handler = (req: SbRequest, ctx: SbContext, params: Record<string, string>) => Promise<SbResponse> | SbResponse;

export interface Route {
  service: 'campaign' | 'notify';
  method: string;
  /** Path pattern with :params, e.g. /v1/contacts/imports/:listSn/file */
  path: string;
  handler: Handler;
}

/** A service emulator: its routes, its initial state, and how its state moves with time. */
export interface ServiceModule<S> {
  initialState(opts: SbContext['opts']): S;
  routes: Route[];
  /** Apply every transition due at ctx.now (imports finishing, sends progressing…). */
  advance?(ctx: SbContext): Promise<void> | void;
  /** A file arrived at one of this module's upload targets. */
  onUpload?(ctx: SbContext, token: string, target: UploadTarget): Promise<void> | void;
}

export class SbBadJson extends Error {}
