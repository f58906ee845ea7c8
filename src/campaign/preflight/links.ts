// The link check of `campaign preflight`: every web address in the mail is asked for once, a
// few at a time, each request with a time-out. These hosts are third parties, so a request
// carries nothing of the user's: no API key, no cookie, no service header — only a user agent.
// Redirects are never followed by the HTTP stack: each hop is looked at (another host? https
// to http?) and its addresses checked before mailctl connects. Unlike the download policy of
// src/api/safe-link.ts, plain http and any public address are fine here (they are exactly what
// preflight reports on); only link-local and cloud-metadata addresses are refused, whatever name
// hides them, and the connection then goes to exactly the addresses that were checked.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { FetchLike } from '../../api/http.js';
import { forbiddenReason, pinnedLookup, type Lookup } from '../../api/safe-link.js';
import { InterruptedError } from '../../core/errors.js';
import { finding, type Finding } from './findings.js';
import { maskUrl } from '../../api/mask-url.js';

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_LINK_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HEADERS = { 'user-agent': 'mailctl-preflight (link check)', accept: '*/*' };

export interface LinkTarget {
  url: string;
  /** The parts it appears in: "html", "html (version A)". */
  where: string[];
}

export interface LinkCheckOptions {
  concurrency?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Hosts the in-process sandbox answers (--sandbox), with the fetch that answers them. */
  inProcess?: { matches(hostname: string): boolean; fetch: FetchLike };
  /** Instead of node:http(s) to the checked addresses (tests that replace the network). */
  fetch?: FetchLike;
  lookup?: Lookup;
  onDone?(done: number, total: number): void;
  /** -v: a line for each request and its answer. */
  trace?: (line: string) => void;
}

interface Answer {
  status: number;
  location?: string;
}

type Outcome =
  | { kind: 'answered'; status: number; at: URL }
  | { kind: 'unreachable'; reason: string; at: URL }
  | { kind: 'forbidden'; reason: string; at: URL }
  | { kind: 'loop'; at: URL }
  | { kind: 'left'; at: URL };

interface Result {
  outcome: Outcome;
  /** The first hop on a host other than the link's own. */
  otherHost?: string;
  /** The first https → http hop. */
  downgrade?: string;
}

export async function checkLinks(targets: LinkTarget[], o: LinkCheckOptions = {}): Promise<Finding[]> {
  const results: Result[] = new Array(targets.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      results[i] = await checkOne(targets[i].url, o);
      o.onDone?.(++done, targets.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? DEFAULT_CONCURRENCY, targets.length) }, worker));
  return targets.flatMap((t, i) => findingsOf(t, results[i]));
}

function findingsOf(t: LinkTarget, r: Result): Finding[] {
  const where = `${t.where.join(', ')}: ${t.url}`;
  const out: Finding[] = [];
  const o = r.outcome;
  const via = o.at.href !== new URL(t.url).href ? ` (at ${o.at.href}, after redirects)` : '';
  if (o.kind === 'answered' && o.status >= 400) {
    out.push(finding('link-broken', where, `The link answers HTTP ${o.status}${http.STATUS_CODES[o.status] ? ` ${http.STATUS_CODES[o.status]}` : ''}${via}; fix or remove it.`));
  } else if (o.kind === 'unreachable') {
    out.push(finding('link-unreachable', where, `The link cannot be reached${via}: ${o.reason}; check the address (a slow site may need a longer --link-timeout).`));
  } else if (o.kind === 'forbidden') {
    out.push(finding('link-forbidden', where, `The link${via} points at ${o.reason}, which mailctl does not connect to and a recipient cannot reach; fix the address.`));
  } else if (o.kind === 'loop') {
    out.push(finding('link-redirect-loop', where, `The link redirects more than ${MAX_REDIRECTS} times; mailctl stopped following at ${o.at.href}. Link to the final address.`));
  }
  if (r.otherHost) {
    out.push(finding('link-redirect-host', where, `The link redirects to another host, ${r.otherHost}; make sure that is meant (shorteners and trackers do this), or link to the final address.`));
  }
  if (r.downgrade) {
    out.push(finding('link-redirect-http', where, `The https link redirects to plain http (${r.downgrade}), so the visit is not encrypted; link to an https address.`));
  }
  return out;
}

/** "www.example.com" and "example.com" count as one host: that redirect is everyday canonicalisation. */
const sameSite = (a: string, b: string) => a.replace(/^www\./, '') === b.replace(/^www\./, '');

async function checkOne(start: string, o: LinkCheckOptions): Promise<Result> {
  let url = new URL(start);
  const r: Partial<Result> = {};
  for (let hop = 0; ; hop++) {
    const target = await addressesOf(url, o);
    if ('forbidden' in target) return { ...r, outcome: { kind: 'forbidden', reason: target.forbidden, at: url } };
    if ('unreachable' in target) return { ...r, outcome: { kind: 'unreachable', reason: target.unreachable, at: url } };
    let answer: Answer;
    try {
      answer = await askHeadThenGet(url, target.addresses, o);
    } catch (e) {
      if (o.signal?.aborted) throw new InterruptedError('Interrupted while checking links; nothing was sent.');
      return { ...r, outcome: { kind: 'unreachable', reason: reasonOf(e, o), at: url } };
    }
    if (!REDIRECTS.has(answer.status) || !answer.location) return { ...r, outcome: { kind: 'answered', status: answer.status, at: url } };
    let next: URL;
    try {
      next = new URL(answer.location, url);
    } catch {
      return { ...r, outcome: { kind: 'unreachable', reason: `it redirects to "${answer.location.slice(0, 100)}", which is not an address`, at: url } };
    }
    if (!r.otherHost && !sameSite(next.hostname, new URL(start).hostname)) r.otherHost = next.host;
    if (!r.downgrade && url.protocol === 'https:' && next.protocol === 'http:') r.downgrade = next.href;
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { ...r, outcome: { kind: 'left', at: next } };
    if (hop >= MAX_REDIRECTS) return { ...r, outcome: { kind: 'loop', at: next } };
    url = next;
  }
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
const defaultLookup: Lookup = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

async function addressesOf(url: URL, o: LinkCheckOptions): Promise<{ addresses: string[] } | { forbidden: string } | { unreachable: string }> {
  const host = bare(url.hostname);
  if (o.inProcess?.matches(host)) return { addresses: [] };
  if (net.isIP(host)) {
    const why = forbiddenReason(host);
    return why ? { forbidden: `${why} (${host})` } : { addresses: [] };
  }
  let addresses: string[];
  try {
    addresses = await (o.lookup ?? defaultLookup)(host);
  } catch (e) {
    return { unreachable: `the host ${host} was not found (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
  }
  if (!addresses.length) return { unreachable: `the host ${host} was not found` };
  for (const a of addresses) {
    const why = forbiddenReason(a);
    if (why) return { forbidden: `${why} (${host} is ${a})` };
  }
  return { addresses };
}

/**
 * HEAD first (no body to move); some servers answer HEAD wrongly (405, 403, 404) or drop it, so
 * a failed HEAD is asked again with GET, whose body is not read.
 */
async function askHeadThenGet(url: URL, addresses: string[], o: LinkCheckOptions): Promise<Answer> {
  try {
    const head = await ask(url, 'HEAD', addresses, o);
    if (head.status < 400) return head;
  } catch (e) {
    if (o.signal?.aborted || e instanceof LinkTimeout) throw e;
  }
  return ask(url, 'GET', addresses, o);
}

/** A request that got no answer within --link-timeout. */
class LinkTimeout extends Error {}

async function ask(url: URL, method: 'HEAD' | 'GET', addresses: string[], o: LinkCheckOptions): Promise<Answer> {
  // A timer of our own, not AbortSignal.timeout(): that one is unref'd, and a link that never
  // answers inside this process (the in-process sandbox) would let the run end mid-await.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), o.timeoutMs ?? DEFAULT_LINK_TIMEOUT_MS);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout.signal]) : timeout.signal;
  o.trace?.(`→ ${method} ${maskUrl(url.href)}  link check, no key`);
  const t0 = performance.now();
  const took = () => `${Math.round(performance.now() - t0)}ms`;
  try {
    const answer = await send(url, method, addresses, signal, o);
    o.trace?.(`← ${answer.status} ${method} ${maskUrl(url.href)} ${took()}`);
    return answer;
  } catch (e) {
    o.trace?.(`✗ ${method} ${maskUrl(url.href)} failed after ${took()}`);
    if (timeout.signal.aborted && !o.signal?.aborted) throw new LinkTimeout();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function send(url: URL, method: 'HEAD' | 'GET', addresses: string[], signal: AbortSignal, o: LinkCheckOptions): Promise<Answer> {
  const f = o.inProcess?.matches(bare(url.hostname)) ? o.inProcess.fetch : o.fetch;
  if (f) {
    const res = await f(url.href, { method, headers: HEADERS, redirect: 'manual', signal });
    await res.body?.cancel().catch(() => {});
    return { status: res.status, location: res.headers.get('location') ?? undefined };
  }
  return new Promise<Answer>((resolve, reject) => {
    const request = url.protocol === 'https:' ? https.request : http.request;
    const lookup = addresses.length ? pinnedLookup(addresses) : undefined;
    // agent: false — a fresh connection that is closed after, so nothing (cookies included) is shared.
    const req = request(url, { method, headers: HEADERS, signal, lookup, agent: false }, (res) => {
      const location = res.headers.location;
      resolve({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : undefined });
      res.destroy(); // the body is not needed
    });
    req.on('error', reject);
    req.end();
  });
}

function reasonOf(e: unknown, o: LinkCheckOptions): string {
  if (e instanceof LinkTimeout) return `no answer within ${String((o.timeoutMs ?? DEFAULT_LINK_TIMEOUT_MS) / 1000)} s`;
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return `the connection failed (${c})`;
    cur = (cur as { cause?: unknown }).cause;
  }
  return `the connection failed (${String((e as Error)?.message ?? e).slice(0, 100)})`;
}
