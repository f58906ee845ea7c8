// Spec 000 section 3, "Campaign status": every status the service names. One copy for the
// `campaign list --status` filter and its completion; test/spec-data.test.ts checks it against
// the spec text, and that src/campaign/statuses.ts says what each one means.
export const CAMPAIGN_STATUSES = [
  'DRAFT', 'COMPLETE', 'STOP', 'SENDING', 'PREPARE', 'PREPARE_TO_SENT', 'OVER_LIMIT', 'TESTING', 'EMPTY_RECIPIENT',
  'INSUFFICIENT_RECIPIENT_FOR_TESTING', 'UNAUTHENTICATED_SENDER',
] as const;
