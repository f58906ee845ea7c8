// Campaign statuses (spec section 3) in words, and which ones end a `campaign status --wait`.
import type { Campaign } from '../api/campaign-types.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

// A description that names a command is a function of the run's command builder, so the
// command carries --profile/--sandbox (src/core/suggest.ts).
export const STATUS_WORDS: Record<string, string | ((cmd: Suggest) => string)> = {
  DRAFT: 'draft: created but not going out yet (a one-time campaign waits for its list upload)',
  PREPARE: (cmd) => `scheduled: waiting for its send time (it can still be paused with \`${cmd('campaign', 'pause')}\`)`,
  PREPARE_TO_SENT: 'preparing: the lists are being turned into recipients',
  TESTING: 'A/B testing: versions A and B are out to the test share; the better one goes to the rest when the test time ends',
  SENDING: 'sending',
  COMPLETE: (cmd) => `sent: every recipient has been handled; see \`${cmd('report', 'metrics')}\``,
  STOP: 'paused: it will not go out (the API has no resume; create it again to send)',
  OVER_LIMIT: (cmd) => `stopped: the balance is too low for this campaign; check it with \`${cmd('balance')}\` and top up in the back office`,
  EMPTY_RECIPIENT: 'stopped: there was nobody to send to (empty groups, everyone excluded, or no list uploaded)',
  INSUFFICIENT_RECIPIENT_FOR_TESTING: 'stopped: too few contacts for the A/B test share; raise --test-percent or send to larger groups',
  UNAUTHENTICATED_SENDER: 'stopped: the sender address is not verified; verify it in the back office and create the campaign again',
};

/**
 * Statuses the spec does not list but the vendor's troubleshooting page names (VENDOR.md,
 * debugging-qa 82, 160, 267): known, so described, never "a status the spec does not describe".
 */
export const VENDOR_STATUS_WORDS: Record<string, string | ((cmd: Suggest) => string)> = {
  SENT: (cmd) => `sent (a status the vendor's reference names; the spec calls it COMPLETE); see \`${cmd('report', 'metrics')}\``,
  QUEUED: 'queued: waiting to go out (a status the vendor\'s reference names, not the spec)',
};

/** Statuses the campaign will not leave by itself: the mail went out, or it never will. */
export const FAILED_STATUSES: ReadonlySet<string> = new Set(['OVER_LIMIT', 'EMPTY_RECIPIENT', 'INSUFFICIENT_RECIPIENT_FOR_TESTING', 'UNAUTHENTICATED_SENDER']);

export function describeStatus(status: string, cmd: Suggest = plainSuggest): string {
  const words = Object.hasOwn(STATUS_WORDS, status) ? STATUS_WORDS[status] : Object.hasOwn(VENDOR_STATUS_WORDS, status) ? VENDOR_STATUS_WORDS[status] : undefined;
  if (words === undefined) return `${status} (a status the spec does not describe)`;
  return typeof words === 'function' ? words(cmd) : words;
}

/**
 * Whether --wait can stop: an end state, or one that only a person changes (paused, draft,
 * scheduled for later). A scheduled campaign whose time has come is still worth waiting on.
 */
export function isSettled(c: Campaign, now: number): boolean {
  if (c.status === 'COMPLETE' || c.status === 'SENT' || c.status === 'STOP' || c.status === 'DRAFT' || FAILED_STATUSES.has(c.status)) return true;
  if (c.status === 'PREPARE') {
    const at = c.scheduledDate ? Date.parse(c.scheduledDate) : NaN;
    return Number.isNaN(at) || at > now;
  }
  return false;
}

