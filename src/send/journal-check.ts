// Every record of a journal read back, checked field by field against what mailctl writes
// (the record types in ./journal.ts). A journal is the only proof of who was already sent: a
// record that lost a field, or holds a string where a list belongs, must stop the resume as
// "damaged" (exit 2) — read loosely it would crash, or count letters of an address as
// recipients in doubt. What is wrong is described by field name only: values from the file
// never reach the message.
import type { JournalRecord, PlanRecord } from './journal.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const isTime = (v: unknown): boolean => isText(v) && !Number.isNaN(Date.parse(v));
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
const isTextMap = (v: unknown): v is Record<string, string> => isObj(v) && Object.values(v).every(isText);

/** What is wrong with the plan's fields (kind and version are checked by the reader), or undefined. */
export function planProblem(p: Obj): string | undefined {
  if (!isText(p.createdAt)) return 'the plan has no creation time';
  if (typeof p.batchSize !== 'number' || !Number.isInteger(p.batchSize) || p.batchSize < 1) return 'the plan has no batch size';
  if (!isObj(p.message)) return 'the plan has no message';
  if (!Array.isArray(p.recipients)) return 'the plan has no list of recipients';
  for (const r of p.recipients) {
    if (!isObj(r) || !isText(r.address)) return 'a recipient of the plan has no address';
    if (r.name !== undefined && !isText(r.name)) return 'a recipient\'s name is not text';
    if (p.kind === 'sms' && !isText(r.country_code)) return 'an SMS recipient of the plan has no country code';
    if (r.variables !== undefined && !isTextMap(r.variables)) return 'a recipient\'s variables are not text';
  }
  const a = p.account;
  if (!isObj(a) || !isText(a.url) || !isText(a.profile) || !isText(a.key)) return 'the plan does not say which account it was sent through';
  return undefined;
}

/**
 * What is wrong with one record after the plan, or undefined. `keys` are the plan's recipient
 * keys: a record naming anyone else is not one this plan's run wrote.
 */
function recordProblem(r: Obj, keys: ReadonlySet<string>): string | undefined {
  const stranger = (list: Iterable<string>) => [...list].some((k) => !keys.has(k));
  switch (r.type) {
    case 'intent':
      if (!isText(r.batch) || !isTime(r.at)) return 'an intent record has no batch or time';
      if (!isTextList(r.keys)) return 'the keys of an intent record are not a list of recipients';
      if (stranger(r.keys)) return 'an intent record names a recipient the plan does not have';
      return undefined;
    case 'result': {
      if (!isText(r.batch) || !isTime(r.at)) return 'a result record has no batch or time';
      if (!isTextMap(r.success) || !isTextMap(r.failure)) return 'a result record has no success and failure lists';
      if (r.unmatched !== undefined && !isTextList(r.unmatched)) return 'the unmatched addresses of a result record are not a list';
      if (r.conflict !== undefined && !isTextMap(r.conflict)) return 'the conflicting recipients of a result record are not a list of message ids';
      if (r.requestId !== undefined && !isText(r.requestId)) return 'the request id of a result record is not text';
      if (stranger([...Object.keys(r.success), ...Object.keys(r.failure), ...Object.keys(isObj(r.conflict) ? r.conflict : {})])) return 'a result record names a recipient the plan does not have';
      return undefined;
    }
    case 'unsent':
    case 'doubt':
      if (!isText(r.batch) || !isTime(r.at) || !isText(r.reason)) return `${r.type === 'unsent' ? 'an unsent' : 'a doubt'} record has no batch, time or reason`;
      return undefined;
    case 'settled': {
      if (!isTime(r.at)) return 'a settled record has no time';
      if (!isObj(r.sent) || !Object.values(r.sent).every((v) => isObj(v) && isText(v.id) && (v.eventTime === undefined || isText(v.eventTime)))) return 'the sent list of a settled record is not a list of message ids';
      if (!isTextList(r.unsent) || !isTextMap(r.unknown)) return 'a settled record has no unsent and unknown lists';
      if (stranger([...Object.keys(r.sent), ...r.unsent, ...Object.keys(r.unknown)])) return 'a settled record names a recipient the plan does not have';
      return undefined;
    }
    case 'done':
      return isTime(r.at) ? undefined : 'a done record has no time';
    case 'plan':
      return 'a second plan follows the first';
    default:
      return 'a record of no known type';
  }
}

/**
 * The first record that is wrong, as its index and what is wrong, or undefined. The plan is
 * records[0] (its type, version and kind already checked); `keyOf` keys its recipients.
 */
export function journalProblem(records: JournalRecord[], keyOf: (plan: PlanRecord, r: PlanRecord['recipients'][number]) => string): { index: number; what: string } | undefined {
  const plan = records[0] as unknown as Obj;
  const bad = planProblem(plan);
  if (bad) return { index: 0, what: bad };
  const p = records[0] as PlanRecord;
  const keys = new Set(p.recipients.map((r) => keyOf(p, r)));
  for (let i = 1; i < records.length; i++) {
    const what = recordProblem(records[i] as unknown as Obj, keys);
    if (what) return { index: i, what };
  }
  return undefined;
}
