// What `campaign list --status` takes (and completion offers): the spec's campaign statuses, and
// NOT_FOUND for a campaign in the ledger that the service no longer knows (deleted). Loaded with
// the command declarations: data only.
import { CAMPAIGN_STATUSES } from '../spec/campaign-statuses.js';

export const NOT_FOUND = 'NOT_FOUND';
export const LIST_STATUSES: readonly string[] = [...CAMPAIGN_STATUSES, NOT_FOUND];
