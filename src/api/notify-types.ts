// Types of the notification service (spec 001, plus decisions rows 3, 4 and 21).

export interface EmailRecipient {
  name?: string;
  address: string;
  variables?: Record<string, string>;
}

export interface EmailMessage {
  subject: string;
  fromName?: string;
  fromAddress: string;
  content: string;
  unsubscribedLink?: string;
  recipients: EmailRecipient[];
}

export interface SendResult {
  /** Request id. */
  id?: string;
  success: Array<{ id: string; address: string }>;
  failure: Record<string, string>;
}

export interface SmsRecipient {
  address: string;
  country_code: string;
  variables?: Record<string, string>;
}

export interface SmsMessage {
  content: string;
  recipients: SmsRecipient[];
  from?: string;
  alive_mins?: number;
}

export const EMAIL_WEBHOOK_TYPES = { delivery: 3, open: 4, click: 5, bounce: 6, complaint: 7 } as const;
export const SMS_WEBHOOK_TYPES = { delivery: 3, bounce: 6 } as const;

export interface Webhook {
  type: number;
  domain?: string;
  url: string;
  createDate?: string;
}

export type EmailEventStatus = 'accept' | 'retry' | 'delivery' | 'open' | 'click' | 'bounce' | 'complaint';
export type SmsEventStatus = 'accept' | 'delivery' | 'bounce';

export interface EmailEventQuery {
  from?: string;
  to?: string;
  status?: string;
  id?: string;
  recipient?: string;
}

export interface EmailEvent {
  messageId: string;
  status: string;
  mail?: { subject?: string; content?: string; from?: string; to?: string; sender?: string; recipient?: string; variables?: Record<string, string> };
  eventTime: string;
  rawEvent?: Record<string, unknown>;
}

export interface SmsEventQuery {
  from?: string;
  to?: string;
  status?: string;
  id?: string;
  recipient?: string;
  country_code?: string;
}

export interface SmsEvent {
  messageId: string;
  recipient?: string;
  address?: string;
  countryCode?: string;
  status: string;
  content?: string;
  eventTime: string;
  alive_mins?: number;
  variables?: Record<string, string>;
  rawEvent?: Record<string, unknown>;
}

export interface ExclusiveNumber {
  phoneNumber: string;
  createDate?: string;
  updateDate?: string;
}

/** decisions row 21: record_type 0 TXT, 1 CNAME; decisions row 28: `valid`, whether the service found it in place. */
export interface DnsRecord {
  record_type: number;
  name: string;
  value: string;
  valid?: boolean | null;
}
