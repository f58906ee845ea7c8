// The notification service's response shapes as the sandbox reads spec 001 (section 2) and
// decisions row 21, written here on purpose rather than taken from the client
// (src/api/notify-types.ts): the client reads tolerantly and the sandbox answers exactly, so the
// two must not share one reading. Alternate shapes are served by ../shapes.ts.

/** Section 2, webhook registration: type 3 delivery, 4 open, 5 click, 6 bounce, 7 complaint (SMS: 3, 6). */
export interface Webhook {
  type: number;
  domain: string;
  url: string;
  createDate: string;
}

/** Section 2, email event log entry (GET /v1/events `logs`). */
export interface EmailEvent {
  messageId: string;
  status: string;
  mail: { subject: string; content: string; from: string; to: string; sender: string; recipient: string; variables: Record<string, string> };
  eventTime: string;
  /** Content by status (section 4). */
  rawEvent: Record<string, unknown>;
}

/** Section 2, SMS event log entry (GET /v1/sms/events `logs`). */
export interface SmsEvent {
  messageId: string;
  /** Country code plus number. */
  recipient: string;
  address: string;
  countryCode: string;
  status: string;
  content: string;
  eventTime: string;
  alive_mins: number;
  variables: Record<string, string>;
  /** {point, srcaddr} for delivery; {code, reason} for bounce. */
  rawEvent: Record<string, unknown>;
}

/** Section 2, exclusive number (GET /v1/sms/exclusive-number `phoneNumbers`). */
export interface ExclusiveNumber {
  phoneNumber: string;
  createDate: string;
  updateDate: string;
}

/** decisions row 21: a DNS record to publish; record_type 0 TXT, 1 CNAME. */
export interface DnsRecord {
  record_type: 0 | 1;
  name: string;
  value: string;
}
