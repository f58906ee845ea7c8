// The columns of an event list, the same whichever source answered: the service's lookup
// (`events`) or the event store (`events --history`, whose rows src/store/as-lookup.ts puts in
// the lookup's shape). One definition, so the two cannot drift apart.
import type { EmailEvent, SmsEvent } from '../../src/api/notify-types.js';
import type { Column } from '../../src/run/output/format.js';

/** The event's detail in words: a bounce's kind, code and reason, a click's link, … */
function detail(raw: Record<string, unknown> | undefined): string {
  if (!raw) return '';
  const parts: string[] = [];
  for (const k of ['type', 'code', 'reason', 'linkUrl', 'point', 'srcaddr']) if (raw[k] !== undefined && raw[k] !== '') parts.push(k === 'type' ? (String(raw[k]) === '1' ? 'permanent' : 'temporary') : String(raw[k]));
  return parts.join(' ');
}

export const EMAIL_COLUMNS: Column<EmailEvent>[] = [
  { header: 'TIME', value: (e) => e.eventTime, kind: 'date' },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'MESSAGE ID', value: (e) => e.messageId },
  { header: 'RECIPIENT', value: (e) => e.mail?.to ?? e.mail?.recipient },
  { header: 'SUBJECT', value: (e) => e.mail?.subject },
  { header: 'DETAIL', value: (e) => detail(e.rawEvent) },
];

export const SMS_COLUMNS: Column<SmsEvent>[] = [
  { header: 'TIME', value: (e) => e.eventTime, kind: 'date' },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'MESSAGE ID', value: (e) => e.messageId },
  { header: 'RECIPIENT', value: (e) => e.recipient ?? (e.countryCode ? `+${e.countryCode} ${e.address ?? ''}` : e.address) },
  { header: 'CONTENT', value: (e) => e.content },
  { header: 'DETAIL', value: (e) => detail(e.rawEvent) },
];
