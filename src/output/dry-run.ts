// --dry-run: show exactly what would be sent, with the key masked, and send nothing.
import type { Context } from '../cli/context.js';
import { maskKey, type Service } from '../config/settings.js';
import { safeJson } from './sanitize.js';

export interface PlannedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export async function plannedRequest(ctx: Context, service: Service, method: string, path: string, body?: unknown): Promise<PlannedRequest> {
  const s = await ctx.settings();
  const base = service === 'campaign' ? s.campaignUrl : s.notifyUrl;
  const key = service === 'campaign' ? s.campaignKey : s.notifyKey;
  return {
    method,
    url: `${base}${path}`,
    headers: { 'x-api-key': key ? maskKey(key) : '(no key configured)', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  };
}

export async function printDryRun(ctx: Context, service: Service, method: string, path: string, body?: unknown): Promise<void> {
  await printPlanned(ctx, [await plannedRequest(ctx, service, method, path, body)]);
}

/** `extra` joins the JSON document (a send's forecast); in text it was already said on stderr. */
export async function printPlanned(ctx: Context, requests: PlannedRequest[], extra: Record<string, unknown> = {}): Promise<void> {
  if (ctx.io.json) {
    ctx.io.printJson({ dryRun: true, requests, ...extra });
    return;
  }
  ctx.io.info('Dry run: nothing was sent. These requests would go out:');
  for (const r of requests) {
    ctx.io.out(`${r.method} ${r.url}`);
    for (const [k, v] of Object.entries(r.headers)) ctx.io.out(`${k}: ${v}`);
    if (r.body !== undefined) ctx.io.out(safeJson(r.body, 2)); // exact, but nothing a terminal acts on left raw
    ctx.io.out('');
  }
}
