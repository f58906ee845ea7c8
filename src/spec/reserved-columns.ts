// Spec 000 section 2, Contact: "Reserved column names (case-insensitive; such a column is
// ignored but the file is processed)". One copy for the import check and the sandbox;
// test/spec-data.test.ts checks it against the spec text.
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set([
  'NAME', 'EMAIL', 'GENDER', 'PHONE', 'COUNTRY_CODE', 'COUNTRY', 'CITY', 'ADDRESS', 'REGISTER_DATE', 'BIRTHDAY', 'USER',
  'REPORTTYPE', 'ONCEMODE', 'CAMPAIGN', 'APP_HOST', 'SUBJECT', 'CAMPAIGNNAME', 'MAIL_HASH', 'SCHEDULE_DATE', 'LINK_URL',
  'LINK_TEXT', 'S__ID', 'S:WH', 'NL_IS_RECIPIENT_UNIQUE', 'NL_ESTIMATE_POINT', 'NL_SUBSCRIBE_FORM_SN', 'UNSUBSCRIBE',
  'UNSUBSCRIBE_EN', 'UNSUBSCRIBE_JA',
]);
