// State of the emulated notification service. JSON-serialisable (persisted by --sandbox
// between CLI runs), so everything is plain records keyed by id, times in epoch ms.
import type { DnsRecord, ExclusiveNumber, Webhook } from './types.js';

/** One event of a message's history. Computed at send time, it happens when `at` is reached. */
export interface TimelineEvent {
  status: string;
  at: number;
  /** rawEvent of the lookup entry (spec section 4: content by status). */
  raw: Record<string, unknown>;
  /** Reached and visible to lookup. */
  logged?: boolean;
  /** When its webhook is due, if not at `at` (SMS: only after alive_mins ends, spec section 6). */
  hookAt?: number;
  hooked?: boolean;
}

export interface EmailRecord {
  channel: 'email';
  id: string;
  requestId: string;
  createdAt: number;
  /** Subject and content with this recipient's variables filled in. */
  subject: string;
  content: string;
  fromAddress: string;
  fromName: string;
  address: string;
  name?: string;
  variables: Record<string, string>;
  events: TimelineEvent[];
}

export interface SmsRecord {
  channel: 'sms';
  id: string;
  requestId: string;
  createdAt: number;
  content: string;
  /** As sent (national form). */
  address: string;
  countryCode: string;
  /** Country code plus the national number without its leading zeros. */
  recipient: string;
  variables: Record<string, string>;
  aliveMins: number;
  srcaddr: string;
  point: number;
  events: TimelineEvent[];
}

export type MessageRecord = EmailRecord | SmsRecord;

export interface DomainRecord {
  records: DnsRecord[];
  verified: boolean;
  createDate: string;
  verifyDate?: string;
}

export interface NotifyState {
  messages: Record<string, MessageRecord>;
  /** Ids of messages whose history has not fully unfolded yet (what advance() walks). */
  unfolding: string[];
  webhooks: { email: Webhook[]; sms: Webhook[] };
  domains: Record<string, DomainRecord>;
  exclusiveNumbers: ExclusiveNumber[];
  /** Last time old history was pruned (retention, see events.ts). */
  prunedAt: number;
}

export function initialNotifyState(): NotifyState {
  const seeded = '2024-01-15T08:00:00.000Z';
  return {
    messages: {},
    unfolding: [],
    webhooks: { email: [], sms: [] },
    domains: {},
    // A seeded account with two exclusive sending numbers (spec: "for accounts with an exclusive sending number").
    exclusiveNumbers: [
      { phoneNumber: '0911000111', createDate: seeded, updateDate: seeded },
      { phoneNumber: '0911000222', createDate: seeded, updateDate: '2024-06-01T08:00:00.000Z' },
    ],
    prunedAt: 0,
  };
}
