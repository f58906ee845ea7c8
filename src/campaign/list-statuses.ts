// What `campaign list --status` takes (and completion offers): the spec's campaign statuses, the
// vendor's SENT and QUEUED, and
// NOT_FOUND for a campaign in the ledger that the service no longer knows (deleted). Loaded with
// the command declarations: data only.
import { CAMPAIGN_STATUSES, SAME_CAMPAIGN_STATUS, VENDOR_CAMPAIGN_STATUSES } from '../spec/campaign-statuses.js';

export const NOT_FOUND = 'NOT_FOUND';
/** The spec's statuses, the two the vendor's reference adds, and NOT_FOUND. */
export const LIST_STATUSES: readonly string[] = [...CAMPAIGN_STATUSES, ...VENDOR_CAMPAIGN_STATUSES, NOT_FOUND];

/** A status as the filter compares it: one name for one state (SENT is COMPLETE). */
export const sameStatus = (s: string): string => SAME_CAMPAIGN_STATUS[s] ?? s;
