// Where a webhook's signature and the signed id and event may be found, as the spec and the
// vendor's reference document them (decisions rows 14, 15 and 27). The listener, `webhook verify`,
// `webhook replay` and `webhook trigger` read these, never their own copies (src/webhook/signature.ts);
// test/spec-data.test.ts checks each against the text it comes from (docs/spec/notify-excerpts.txt,
// docs/spec/vendor-excerpts.txt).

/**
 * The header carrying the hex signature: spec 001 section 5 names the first, the vendor's reference
 * (surenotify-api.md 383–404) the second. Either is accepted; the first is what mailctl sends by default.
 */
export const SIGNATURE_HEADERS = ['x-service-signature', 'x-surenotify-signature'] as const;

/**
 * Where the message id is read, in this order: spec 001 section 6 (`mail.id`, `sms_data.id`), then
 * the vendor's reference (a top-level `id`). A path is the chain of keys from the payload's top.
 */
export const ID_FIELDS: ReadonlyArray<readonly string[]> = [['mail', 'id'], ['sms_data', 'id'], ['id']];

/** Where the event is read: spec 001 section 6 (`event`), decisions row 15 and the vendor (`eventType`). */
export const EVENT_FIELDS = ['event', 'eventType'] as const;

/**
 * The vendor's numeric type codes of the events (VENDOR.md: "3 delivery, 4 open, 5 click, 6 bounce,
 * 7 complaint"), the same numbers spec 001 section 2 gives the webhook types. An event may be stated,
 * and signed, as its code: the vendor's troubleshooting page signs `"msg-123" + "3"`.
 */
export const EVENT_TYPE_CODES: Readonly<Record<string, number>> = { delivery: 3, open: 4, click: 5, bounce: 6, complaint: 7 };
