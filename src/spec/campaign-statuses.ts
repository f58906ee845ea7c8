// Spec 000 section 3, "Campaign status": every status the service names. One copy for the
// `campaign list --status` filter and its completion; test/spec-data.test.ts checks it against
// the spec text, and that src/campaign/statuses.ts says what each one means.
export const CAMPAIGN_STATUSES = [
  'DRAFT', 'COMPLETE', 'STOP', 'SENDING', 'PREPARE', 'PREPARE_TO_SENT', 'OVER_LIMIT', 'TESTING', 'EMPTY_RECIPIENT',
  'INSUFFICIENT_RECIPIENT_FOR_TESTING', 'UNAUTHENTICATED_SENDER',
] as const;

/**
 * Statuses the vendor's troubleshooting page names that the spec does not (docs/spec/vendor-excerpts.txt:
 * "debugging-qa also names statuses `SENT` and `QUEUED` (82, 160, 267)"). A campaign may be
 * listed with them, so `campaign list --status` takes them too.
 */
export const VENDOR_CAMPAIGN_STATUSES = ['SENT', 'QUEUED'] as const;

/**
 * One state under two names: SENT is the vendor's word for what the spec calls COMPLETE
 * (src/campaign/statuses.ts says so to a person), so a filter on either finds both.
 */
export const SAME_CAMPAIGN_STATUS: Readonly<Record<string, string>> = { SENT: 'COMPLETE' };
