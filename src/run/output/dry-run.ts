// --dry-run: the command runs as usual over the recording transport (src/api/recorder.ts), which
// keeps every request the API clients build instead of sending it; this prints them — the
// lookups a real run makes first, then the requests that change something — key masked, nothing
// sent. Commands call printDryRun where a real run would print its result.
import type { Context } from '../context.js';
import type { RecordedLookup, RecordedRequest } from '../../api/recorder.js';
import { forTerminal, safeJson } from '../../core/sanitize.js';

/** A request shown by the command itself: one that does not go to the API (a webhook consumer). */
export type PlannedRequest = RecordedRequest;

/**
 * A read a write needs (a group's code, a template's html, the balance). A real run makes it and
 * uses the answer; a dry run records it as a lookup (made by the client, so shown exactly), makes
 * nothing, and goes on with `placeholder`, which must say what it stands for.
 */
export async function lookup<T>(ctx: Context, why: string, read: () => Promise<T>, placeholder: () => T): Promise<T> {
  if (!ctx.dryRun) return read();
  await (await ctx.recorder()).lookup(why, read);
  return placeholder();
}

/** What the dry run recorded, as text or as the one --json document; `extra` joins that document. */
export async function printDryRun(ctx: Context, extra: Record<string, unknown> = {}): Promise<void> {
  const rec = await ctx.recorder();
  if (ctx.io.json) {
    ctx.io.printJson({ dryRun: true, requests: rec.requests, lookups: rec.lookups, ...extra });
    return;
  }
  printEntries(ctx, rec.all.map((e) => ({ req: e.req, why: e.kind === 'lookup' ? (e.req as RecordedLookup).why : undefined })));
}

/** Requests the command builds itself (not API calls); `extra` joins the JSON document. */
export async function printPlanned(ctx: Context, requests: PlannedRequest[], extra: Record<string, unknown> = {}): Promise<void> {
  if (ctx.io.json) {
    ctx.io.printJson({ dryRun: true, requests, ...extra });
    return;
  }
  printEntries(ctx, requests.map((req) => ({ req })));
}

/** The one text printer, so every dry run opens with the same header; `why` marks a lookup. */
function printEntries(ctx: Context, entries: Array<{ req: RecordedRequest; why?: string }>): void {
  const lookups = entries.some((e) => e.why !== undefined) ? ', lookups included (marked "#": their answers are unknown here)' : '';
  ctx.io.info(entries.length
    ? `Dry run: nothing was sent${lookups}. A real run would make these requests, in order:`
    : 'Dry run: nothing was sent, and nothing would be.');
  let said: string | undefined;
  for (const e of entries) {
    // Several lookups for one purpose (a day of events each) are introduced once.
    if (e.why !== undefined && e.why !== said) ctx.io.out(`# lookup: ${forTerminal(e.why, 500)}`);
    said = e.why;
    printOne(ctx, e.req);
  }
}

function printOne(ctx: Context, r: RecordedRequest): void {
  ctx.io.out(`${r.method} ${forTerminal(r.url, 2000)}`);
  for (const [k, v] of Object.entries(r.headers)) ctx.io.out(`${k}: ${forTerminal(v, 500)}`);
  if (r.body !== undefined) ctx.io.out(typeof r.body === 'string' ? forTerminal(r.body, 2000) : safeJson(r.body, 2)); // exact, but nothing a terminal acts on left raw
  ctx.io.out('');
}
