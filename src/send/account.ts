// Which account and service a journal's run went through, and the check that a resume goes
// through the same ones. A resume elsewhere — another profile, a base URL from the environment,
// another key — would look up in-doubt recipients in the wrong event log, find nothing, and
// send everyone the message a second time. So the plan records the base URL, the profile and a
// fingerprint of the key (a short hash: enough to tell two keys apart, useless for guessing one;
// the key itself is never written), and a resume whose URL or key differs is refused (exit 2)
// before any request. Every journal records it (src/send/journal.ts reads only the version that does).
import { createHash } from 'node:crypto';
import type { Context } from '../run/context.js';
import { UsageError } from '../core/errors.js';
import { shellQuote, suggest } from '../core/suggest.js';
import { DEFAULT_CAMPAIGN_URL, DEFAULT_NOTIFY_URL, SERVICE_LABEL, type Service } from '../config/settings.js';
import { forTerminal } from '../core/sanitize.js';
import { SANDBOX_BASE } from '../sandbox/constants.js';
import type { JournalAccount, Kind, PlanRecord } from './journal.js';
import { normalUrl } from '../config/base-url.js';

/** A fixed prefix, so the fingerprint is of no use outside mailctl's journals. */
const FINGERPRINT_PREFIX = 'mailctl journal account key v1\0';

/** The first 12 hex digits of SHA-256 over the prefix and the key. */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(FINGERPRINT_PREFIX + key).digest('hex').slice(0, 12);
}

export function serviceOf(kind: Kind): Service {
  return kind === 'automation' ? 'campaign' : 'notify';
}

/** This run's account for one service; `key` is undefined when no key is configured (a dry run needs none). */
export async function currentAccount(ctx: Context, service: Service): Promise<{ url: string; profile: string; key?: string }> {
  const s = await ctx.settings();
  const key = await ctx.keyIfAny(service);
  return { url: service === 'campaign' ? s.campaignUrl : s.notifyUrl, profile: s.profileName, ...(key ? { key: keyFingerprint(key) } : {}) };
}

/** What a new journal records (the run has its key: the clients were built first). */
export async function accountFor(ctx: Context, kind: Kind): Promise<JournalAccount> {
  const a = await currentAccount(ctx, serviceOf(kind));
  return { url: a.url, profile: a.profile, key: a.key ?? '' };
}

const sameUrl = (a: string, b: string) => normalUrl(a) === normalUrl(b);

/** Whether a bare `--resume` of this run may pick this journal: its profile and URL are this run's. */
export function sameRun(here: { url: string; profile: string }, plan: Pick<PlanRecord, 'account'>): boolean {
  return plan.account.profile === here.profile && sameUrl(plan.account.url, here.url);
}

/** Refuses (exit 2, before any request) a resume whose base URL or key is not the journal's. */
export async function checkAccount(ctx: Context, plan: PlanRecord, file: string): Promise<void> {
  const a = plan.account;
  const service = serviceOf(plan.kind);
  const here = await currentAccount(ctx, service);
  const label = SERVICE_LABEL[service];
  const url = forTerminal(a.url, 200);
  const profile = `profile "${forTerminal(a.profile, 80)}"`;
  if (!sameUrl(here.url, a.url)) {
    // Where the run goes with the URL variable unset: known for this run's own profile (its
    // configured URL, else the default); for another profile only the default is assumed.
    const s = await ctx.settings();
    const own = here.profile === a.profile ? (service === 'campaign' ? s.profile.campaignUrl : s.profile.notifyUrl) : undefined;
    const unsetReaches = sameUrl(own ?? (service === 'campaign' ? DEFAULT_CAMPAIGN_URL : DEFAULT_NOTIFY_URL), a.url);
    throw new UsageError(
      `${file} was sent through the ${label} at ${url} (${profile}), not ${forTerminal(here.url, 200)} (profile "${here.profile}") as this run would; nothing was sent.`,
      `Resume it through the account it was sent with: ${resumeThrough(ctx, plan, file, 'url', unsetReaches)}`,
    );
  }
  if (here.key !== undefined && here.key !== a.key) {
    const whose = here.profile === a.profile ? `(${profile})` : `(the journal's ${profile}, this run's "${here.profile}")`;
    throw new UsageError(`${file} was sent with a different API key for the ${label} at ${url} than this run uses ${whose}; nothing was sent.`, `Resume it through the account it was sent with: ${resumeThrough(ctx, plan, file, 'key')}`);
  }
}

/**
 * The resume command through the journal's own account: its --profile (and --sandbox when it
 * went to the sandbox), and the environment variables of this shell that point elsewhere.
 */
export function resumeThrough(ctx: Pick<Context, 'env' | 'globals'>, plan: PlanRecord, file: string, differs: 'url' | 'key', unsetReaches = false): string {
  const a = plan.account;
  const words = plan.kind === 'automation' ? ['automation', plan.message.event === 'TERMINATE' ? 'terminate' : 'trigger'] : ['send'];
  const cmd = suggest({ env: ctx.env, globals: { profile: a.profile, sandbox: a.url.startsWith(`${SANDBOX_BASE}/`) } }, ...words, '--resume', file);
  const service = serviceOf(plan.kind);
  const urlVar = service === 'campaign' ? 'MAILCTL_CAMPAIGN_URL' : 'MAILCTL_NOTIFY_URL';
  const notes: string[] = [];
  // "unset" only where unsetting reaches the journal's URL: otherwise the run goes to the
  // default (or the profile's) URL and is refused again.
  if (differs === 'url' && ctx.env[urlVar]) notes.push(`${urlVar} ${unsetReaches ? 'unset or ' : ''}set to ${shellQuote(forTerminal(a.url, 200))}`);
  if (differs === 'key') {
    const keyVars = [service === 'campaign' ? 'MAILCTL_CAMPAIGN_API_KEY' : 'MAILCTL_NOTIFY_API_KEY', 'MAILCTL_API_KEY'].filter((k) => ctx.env[k]);
    if (keyVars.length) notes.push(`${keyVars.join(' and ')} unset or holding that account's key`);
  }
  return `${cmd}${notes.length ? `  (with ${notes.join(', and ')})` : ''}`;
}
