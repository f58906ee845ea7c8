// Reserved import column names: a column so named is ignored by the service, the rest of the file
// is processed. One copy for the import check, the preflight's contact reading and the sandbox;
// test/spec-data.test.ts checks each list against the text it comes from.

/**
 * Spec 000 section 2, Contact: "Reserved column names (case-insensitive; such a column is ignored
 * but the file is processed)" (docs/spec/campaign-excerpts.txt).
 */
export const SPEC_RESERVED_COLUMNS: ReadonlySet<string> = new Set([
  'NAME', 'EMAIL', 'GENDER', 'PHONE', 'COUNTRY_CODE', 'COUNTRY', 'CITY', 'ADDRESS', 'REGISTER_DATE', 'BIRTHDAY', 'USER',
  'REPORTTYPE', 'ONCEMODE', 'CAMPAIGN', 'APP_HOST', 'SUBJECT', 'CAMPAIGNNAME', 'MAIL_HASH', 'SCHEDULE_DATE', 'LINK_URL',
  'LINK_TEXT', 'S__ID', 'S:WH', 'NL_IS_RECIPIENT_UNIQUE', 'NL_ESTIMATE_POINT', 'NL_SUBSCRIBE_FORM_SN', 'UNSUBSCRIBE',
  'UNSUBSCRIBE_EN', 'UNSUBSCRIBE_JA',
]);

/**
 * The eight the spec leaves out ("Eight further reserved names are identifiers of third-party
 * platforms and are omitted here"), as the vendor's reference names them (edm-api.md 478, kept in
 * docs/spec/vendor-excerpts.txt): decisions row 33, warned on as the others are.
 */
export const VENDOR_RESERVED_COLUMNS: ReadonlySet<string> = new Set([
  'LINE_UID', 'FACEBOOK_ID', 'SHOPLINE_ID', 'CYBERBIZ_ID', 'WACA_ID', 'EASYSTORE_ID', 'QDM_ID', 'LINE_DISPLAY_NAME',
]);

/** Every reserved name, upper-case: compare a column's name upper-cased (the rule is case-insensitive). */
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set([...SPEC_RESERVED_COLUMNS, ...VENDOR_RESERVED_COLUMNS]);
