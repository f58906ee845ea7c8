// What to change after the service refused a campaign (400 {code, invalidFields}, spec section
// 7), decided from the error's structure (its service code and the fields it names), never its
// words: one sentence for the user, and the wizard steps that hold those answers.
import type { ServiceError } from '../core/errors.js';
import { FIELD_KEYS, STEPS, field, type StepId } from './fields.js';

export interface RefusalAdvice {
  /** One sentence: what to change. */
  sentence: string;
  /** The wizard steps holding the answers to change, in question order. */
  steps: StepId[];
}

const LABELS: Record<string, string> = {
  name: 'the campaign name', selectedLists: 'the groups to send to', excludeLists: 'the groups to exclude', subject: 'the subject',
  preheader: 'the preheader', fromName: 'the sender name', fromAddress: 'the sender address', htmlContent: 'the html content',
  footerLang: 'the footer language', testingOn: 'the A/B test type', testing: 'the A/B test share and duration', schedule: 'the send time',
  scheduleDate: 'the send time', timezone: 'the time zone', ga: 'the analytics settings',
};

/** invalidFields (a string, or a list) → the field names it holds; anything else is ignored. */
export function invalidFieldsOf(e: ServiceError): string[] {
  const raw = (e.body as { invalidFields?: unknown } | undefined)?.invalidFields;
  const parts = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(/[\s,;]+/) : [];
  return [...new Set(parts.filter((f) => /^[A-Za-z][\w.[\]]{0,80}$/.test(f)).map((f) => f.replace(/^(form|content|config)\./, '').replace(/\[\d*\]/g, '')))];
}

/** The part of a refused campaign request that decisions rows 25 and P12 look at. */
export type SentForm = { form?: { excludeLists?: unknown } };

/**
 * decisions rows 25 and P12: mailctl sends `form.excludeLists: []` when no --exclude is given; did the
 * service refuse that? Read from structure, never from words. Only a 40001 (field error) of a
 * request that carried an empty excludeLists can be it: 'named' when its invalidFields name
 * excludeLists; 'maybe' when it names no fields at all (the {errorCode, message} shape, decisions
 * row 6, names them only in its message text); undefined otherwise (fields naming something else
 * say it was not that, and a non-empty excludeLists was not the empty one).
 */
export function excludeListsRefusal(e: ServiceError, sent: SentForm): 'named' | 'maybe' | undefined {
  if (e.facts.serviceCode !== '40001') return undefined;
  const empty = Array.isArray(sent.form?.excludeLists) && sent.form.excludeLists.length === 0;
  if (!empty) return undefined;
  const fields = invalidFieldsOf(e);
  if (fields.includes('excludeLists')) return 'named';
  return fields.length ? undefined : 'maybe';
}

/**
 * The wizard step holding an invalidFields name (without form./content./config.): the step of the
 * field-table row at that spec path; a bare name ('scheduleDate', 'enable') or an object
 * ('testing', 'schedule.type') is looked for as the end or the start of a row's path.
 */
function stepOf(name: string): StepId | undefined {
  const rel = FIELD_KEYS.flatMap((k) => {
    const p = field(k).spec?.path;
    return p ? [[p.replace(/^(form|content|config)\./, ''), field(k).step] as const] : [];
  });
  for (let n = name; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') {
    const hit = rel.find(([p]) => p === n || p.endsWith(`.${n}`) || p.startsWith(`${n}.`));
    if (hit) return hit[1];
  }
  return undefined;
}

function label(field: string): string {
  const m = /^(subject|preheader|fromName|fromAddress|htmlContent)([AB])$/.exec(field);
  if (m) return `${LABELS[m[1]]} of version ${m[2]}`;
  return LABELS[field.split('.')[0]] ?? field;
}

function join(items: string[]): string {
  const u = [...new Set(items)];
  return u.length <= 1 ? (u[0] ?? '') : `${u.slice(0, -1).join(', ')} and ${u.at(-1)}`;
}

/** What to change; `sent` (the request refused) lets a refusal that names no fields be read (decisions row P12). */
export function adviseRefusal(e: ServiceError, sent: SentForm): RefusalAdvice {
  const fields = invalidFieldsOf(e);
  const named = join(fields.map(label));
  const or = (fallback: string) => named || fallback;
  const fromFields = fields.map(stepOf).filter((s): s is StepId => s !== undefined);
  const advice = (sentence: string, fallback: StepId[]): RefusalAdvice => {
    const steps = new Set(fromFields.length ? fromFields : fallback);
    return { sentence, steps: STEPS.filter((s) => steps.has(s)) };
  };
  switch (e.facts.serviceCode) {
    case '40001':
      if (excludeListsRefusal(e, sent) === 'named') return advice('Pick at least one group to exclude: the service requires one (a group nobody is in serves).', ['audience']);
      if (excludeListsRefusal(e, sent) === 'maybe') return advice('If the field it names is form.excludeLists, pick a group to exclude (an empty group serves); otherwise change the answer it names.', ['audience']);
      return advice(`Change ${or('the answers it names')}: the service found ${fields.length > 1 ? 'them' : 'it'} invalid.`, []);
    case '40003': return advice(`Correct ${or('the sender address')}: it is not an email address the service accepts.`, ['sender']);
    case '40004': return advice(`Change ${or('the sender address')} to one on a domain your account may send from.`, ['sender']);
    case '40007': return advice(`Pick ${or('the groups and the template')} again: the service does not know one of the codes.`, ['audience', 'content']);
    case '40011': return advice(`Change ${or('the sender address')} to an address verified in the back office (or verify it there first).`, ['sender']);
    case '40012': return advice('Send to fewer contacts (smaller groups), or top up the balance in the back office first.', ['audience']);
    case '40013': return advice('Pick groups that have members, and do not exclude all of them.', ['audience']);
    case '40014': return advice(`Fix the \${…} variables in ${or('the subject or the html content')}: each must be \${FIELD_NAME} naming a custom field.`, ['subject', 'content']);
    case '40015':
      if (fields.includes('selectedLists')) return advice('Pick groups whose import has finished (Refresh the group list to see which).', ['audience']);
      return advice(`Check ${or('the sender and the send time')}: the service found the sending information invalid.`, ['sender', 'schedule']);
    case '40017': return advice('Lower the A/B test share, or top up the balance in the back office first.', ['test']);
    case '40019': return advice('Pick a later send time: it must still be in the future when the campaign is created.', ['schedule']);
    case '40020': return advice('Give the send time again: the service could not read the date.', ['schedule']);
    default:
      return advice(named ? `Change ${named}.` : 'Check the answers against the message above.', []);
  }
}
