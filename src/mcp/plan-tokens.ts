// The plans of `mailctl mcp`'s two-step writes. A write called without a confirmation runs as a
// dry run; its token is a nonce drawn for this plan alone and an HMAC, under a secret this
// server drew at start and never shows, of the nonce, the tool's name, the call's normalised
// arguments and the requests the dry run recorded. The nonce makes every plan's token new: the
// same write planned again gets another token, and a used or expired one stays refused (a
// token that was the HMAC of its content alone came back, re-armed, when an agent planned the
// same send again after using it: the mail went twice). The server keeps each token with its
// creation time (memory only: a restarted server knows none).
// A token is honoured once, within PLAN_TTL_MS of the injected clock, and only for the same tool
// and arguments; the caller then records the plan again and carries it out only if the token is
// the HMAC of that new recording too (a file or setting changed since is a changed plan).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../core/clock.js';

export const PLAN_TTL_MS = 10 * 60_000;
/** At most this many plans are kept; the oldest go first. Refused tokens of forgotten plans read as unknown. */
const MAX_PLANS = 1000;
/** A plan is forgotten this long after it was made (used or not): until then a late call is told "expired", not "unknown". */
const FORGET_AFTER_MS = 2 * PLAN_TTL_MS;

/** Why a token is refused, for an agent to decide from (the error's `reason`). */
export type Refusal = 'unknown' | 'used' | 'expired' | 'other-arguments' | 'plan-changed';

export interface Plan {
  token: string;
  /** ISO time after which the token is refused. */
  expiresAt: string;
}

interface Kept {
  tool: string;
  requests: unknown;
  createdAt: number;
  used: boolean;
}

export class PlanBook {
  private readonly secret = randomBytes(32);
  private readonly plans = new Map<string, Kept>();

  constructor(private readonly clock: Clock) {}

  /** A token for these requests of this tool called with these arguments. */
  issue(tool: string, args: unknown, requests: unknown): Plan {
    this.forgetOld();
    const nonce = randomBytes(12).toString('base64url');
    const token = `${nonce}.${this.sign(nonce, tool, args, requests)}`;
    const createdAt = this.clock.now();
    this.plans.set(token, { tool, requests, createdAt, used: false });
    while (this.plans.size > MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
    return { token, expiresAt: new Date(createdAt + PLAN_TTL_MS).toISOString() };
  }

  /**
   * Takes the token for one run of this tool with these arguments: refused when unknown, used,
   * expired, or made for another tool or other arguments. A token taken is used from then on,
   * whatever the run does (two calls at once cannot both take it).
   */
  claim(token: string, tool: string, args: unknown): { ok: true } | { ok: false; reason: Refusal } {
    this.forgetOld();
    const kept = this.plans.get(token);
    if (!kept) return { ok: false, reason: 'unknown' };
    if (kept.used) return { ok: false, reason: 'used' };
    if (this.clock.now() - kept.createdAt > PLAN_TTL_MS) return { ok: false, reason: 'expired' };
    if (!this.holds(token, tool, args, kept.requests)) return { ok: false, reason: 'other-arguments' };
    kept.used = true;
    return { ok: true };
  }

  /** Whether the plan recorded now is the one the token was issued for. */
  holds(token: string, tool: string, args: unknown, requests: unknown): boolean {
    const dot = token.indexOf('.');
    if (dot < 1) return false;
    const nonce = token.slice(0, dot);
    return this.same(token.slice(dot + 1), this.sign(nonce, tool, args, requests));
  }

  private sign(nonce: string, tool: string, args: unknown, requests: unknown): string {
    return createHmac('sha256', this.secret).update(canonicalJson([nonce, tool, args, requests])).digest('base64url');
  }

  private same(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  private forgetOld(): void {
    const now = this.clock.now();
    for (const [token, kept] of this.plans) if (now - kept.createdAt > FORGET_AFTER_MS) this.plans.delete(token);
  }
}

/** JSON with every object's keys sorted: one text for one value, however it was built. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x === undefined ? null : x)).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
