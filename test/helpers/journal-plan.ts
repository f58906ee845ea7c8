// The plan line of a send/automation journal as mailctl writes it now (src/send/journal.ts,
// version JOURNAL_VERSION, with the account the run went through), for tests that write a
// journal by hand: the state a run that died at some step leaves. Given the sandbox the resume
// runs against (runCli({ sandbox })), the account is the one that run resolves — the sandbox's
// URL for the kind's service, the default profile, the fingerprint of the sandbox's key — so
// the resume's account check (src/send/account.ts) lets it through; without one, an account
// nobody resumes through (for tests that only replay or read the records).
import { JOURNAL_VERSION, type JournalAccount, type Kind, type PlanRecord, type WireRecipient } from '../../src/send/journal.js';
import { keyFingerprint, serviceOf } from '../../src/send/account.js';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

export interface PlanFields {
  kind: Kind;
  recipients: WireRecipient[];
  /** The request body without recipients. */
  message: Record<string, unknown>;
  /** Default 100, the send batch size. */
  batchSize?: number;
  /** Default: now. */
  createdAt?: string;
  /** Default 'default', the profile runCli runs under. */
  profile?: string;
}

/** The account a run through runCli({ sandbox }) records for a journal of this kind. */
export function sandboxAccount(sb: Pick<RunningSandbox, 'campaignUrl' | 'notifyUrl'>, kind: Kind, profile = 'default'): JournalAccount {
  const service = serviceOf(kind);
  return {
    url: service === 'campaign' ? sb.campaignUrl : sb.notifyUrl,
    profile,
    key: keyFingerprint(service === 'campaign' ? SANDBOX_KEYS.campaign : SANDBOX_KEYS.notify),
  };
}

/** An account no test resumes through (port 9 is discard). */
export const NOWHERE: JournalAccount = { url: 'http://127.0.0.1:9/notify', profile: 'default', key: '0123456789ab' };

/** A journal's plan line of the current version; its account is `sb`'s when given (see the header). */
export function journalPlan(f: PlanFields, sb?: Pick<RunningSandbox, 'campaignUrl' | 'notifyUrl'>): PlanRecord {
  return {
    type: 'plan',
    version: JOURNAL_VERSION,
    kind: f.kind,
    createdAt: f.createdAt ?? new Date().toISOString(),
    batchSize: f.batchSize ?? 100,
    message: f.message,
    recipients: f.recipients,
    account: sb ? sandboxAccount(sb, f.kind, f.profile) : NOWHERE,
  };
}

/** A journal's text: one JSON line per record (strings are written as they are, for damaged lines). */
export function journalText(records: readonly unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + '\n').join('');
}
