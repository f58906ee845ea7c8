// Sender domains ("digital signature" settings). The spec leaves these endpoints "not shown";
// decisions rows 21 and 28 take them from public material (the vendor's reference):
//   POST   /v1/domains/{domain} → the DNS records to publish, [{record_type (0 TXT, 1 CNAME), name, value, valid}]
//   PUT    /v1/domains/{domain} → the same records, each `valid` as the service found it (verified
//                                 only when every record is valid)
//   DELETE /v1/domains/{domain} → {success: true}
// Sandbox choices (none of this is in the spec):
//   - POST of a known domain answers the same records again (it is safe to repeat);
//   - PUT finds every record in place and marks the domain verified, so email from it is
//     accepted from then on — except for a domain whose name contains "nodns" (no record is in
//     place) or "partial" (only the first is), which stays unverified, so the failure path can be
//     tried; PUT or DELETE of a domain never added → 400;
//   - errors use the email-send error body, 400 {errors: string};
//   - domains verified by configuration (SandboxOptions.verifiedDomains, default example.com)
//     count as verified without any of this.
import crypto from 'node:crypto';
import type { DnsRecord } from './types.js';
import type { Route, SbContext } from '../types.js';
import { rejected } from './validate.js';

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function isDomainVerified(ctx: SbContext, domain: string): boolean {
  const d = domain.toLowerCase();
  return ctx.opts.verifiedDomains.has(d) || !!ctx.state.notify.domains[d]?.verified;
}

function recordsFor(domain: string): DnsRecord[] {
  // A made-up but stable DKIM key per domain; the .invalid targets can never resolve.
  const key = crypto.createHash('sha256').update(`mailctl-sandbox:${domain}`).digest('base64');
  return [
    { record_type: 0, name: domain, value: 'v=spf1 include:spf.sandbox.mailctl.invalid ~all' },
    { record_type: 0, name: `sandbox._domainkey.${domain}`, value: `k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${key}` },
    { record_type: 1, name: `track.${domain}`, value: 'track.sandbox.mailctl.invalid' },
  ];
}

const badDomain = (d: string) => rejected(`"${d}" is not a valid domain name (for example mail.example.org).`);
const unknown = (d: string) => rejected(`The domain ${d} has not been added. Add it first (POST /v1/domains/${d}).`);

export const domainRoutes: Route[] = [
  {
    service: 'notify', method: 'POST', path: '/v1/domains/:domain',
    handler: (_req, ctx, p) => {
      const d = p.domain.toLowerCase();
      if (!DOMAIN.test(d)) return badDomain(p.domain);
      const known = ctx.state.notify.domains[d];
      if (known) return { status: 200, json: known.records.map((r) => ({ ...r, valid: known.verified })) };
      const records = recordsFor(d);
      ctx.state.notify.domains[d] = { records, verified: false, createDate: new Date(ctx.now).toISOString() };
      return { status: 200, json: records.map((r) => ({ ...r, valid: false })) };
    },
  },
  {
    service: 'notify', method: 'PUT', path: '/v1/domains/:domain',
    handler: (_req, ctx, p) => {
      const d = p.domain.toLowerCase();
      if (!DOMAIN.test(d)) return badDomain(p.domain);
      const known = ctx.state.notify.domains[d];
      if (!known) return unknown(d);
      // Which records the sandbox "finds" in DNS: all of them, none (nodns) or the first (partial).
      const found = (i: number) => !d.includes('nodns') && (!d.includes('partial') || i === 0);
      const checked = known.records.map((r, i) => ({ ...r, valid: found(i) }));
      if (checked.every((r) => r.valid)) {
        known.verified = true;
        known.verifyDate ??= new Date(ctx.now).toISOString();
      }
      return { status: 200, json: checked };
    },
  },
  {
    service: 'notify', method: 'DELETE', path: '/v1/domains/:domain',
    handler: (_req, ctx, p) => {
      const d = p.domain.toLowerCase();
      if (!DOMAIN.test(d)) return badDomain(p.domain);
      if (!ctx.state.notify.domains[d]) return unknown(d);
      delete ctx.state.notify.domains[d];
      // The official CLI's stub: 204, no body (shapes.ts delete-answer=no-body).
      return ctx.opts.shapes.deleteAnswer === 'no-body' ? { status: 204, body: '' } : { status: 200, json: { success: true } };
    },
  },
];
