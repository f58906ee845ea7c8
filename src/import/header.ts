// Stage 1 of the spec's two-stage validation (section 2, Import): the header line. A file that
// fails here is refused whole (exit 2) and nothing is uploaded. Also decides, once, what the
// service will ignore (reserved and unknown columns) so the user hears it once, by name.
import { UsageError } from '../core/errors.js';
import { readDate, type DateForm } from '../core/date.js';
import { isValidEmail } from '../core/email.js';
import { forTerminal } from '../core/sanitize.js';

/** A column name from the file as it is echoed: control characters visible, at most 60 characters (a binary file's "header" can be 200 KB). */
const shown = (name: string) => forTerminal(name, 60);
/** Names in a sentence: the first ten, then how many more (a file can have thousands of columns). */
const listed = (names: string[]) => names.slice(0, 10).join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');

export type FieldType = 'string' | 'number' | 'date';

import { RESERVED_COLUMNS } from '../spec/reserved-columns.js';

export interface HeaderPlan {
  /** Column names as written (trimmed). */
  names: string[];
  /** Custom columns whose values are checked: index and type. */
  typed: Array<{ index: number; name: string; type: Exclude<FieldType, 'string'> }>;
  /** Columns without a name: dropped from the upload (the service would ignore them anyway). */
  unnamed: number[];
  warnings: string[];
}

const HEADER_HINT = 'The first line must be the header: EMAIL,NAME then any custom field names (keep the NAME column even when names are empty).';

export function checkHeader(raw: string[], source: string, fieldTypes?: Record<string, FieldType>): HeaderPlan {
  const names = raw.map((n) => n.trim());
  const first = names[0] ?? '';
  if (isValidEmail(first)) {
    throw new UsageError(`${source} has no header line: its first line is a contact (${first}).`, HEADER_HINT);
  }
  if (first.toUpperCase() !== 'EMAIL') {
    throw new UsageError(`The first column of ${source} is "${shown(first)}", not EMAIL.`, HEADER_HINT);
  }
  if (names.length < 2 || names[1].toUpperCase() !== 'NAME') {
    const got = names.length < 2 ? 'missing' : `"${shown(names[1])}"`;
    throw new UsageError(`The second column of ${source} must be NAME; it is ${got}.`, HEADER_HINT);
  }
  const seen = new Map<string, number>();
  const dups: string[] = [];
  names.forEach((n, i) => {
    if (!n) return;
    const key = n.toUpperCase();
    if (seen.has(key)) dups.push(`"${shown(n)}" (columns ${seen.get(key)! + 1} and ${i + 1})`);
    else seen.set(key, i);
  });
  if (dups.length) {
    throw new UsageError(
      `${source} has duplicate column names: ${listed(dups)}. The service refuses such a file whole (DUPLICATE_HEADER).`,
      'Rename or delete the repeated columns and run again.',
    );
  }

  const plan: HeaderPlan = { names, typed: [], unnamed: [], warnings: [] };
  const reserved: string[] = [];
  const unknown: string[] = [];
  const types = fieldTypes ? new Map(Object.entries(fieldTypes).map(([k, v]) => [k.toUpperCase(), v])) : undefined;
  for (let i = 2; i < names.length; i++) {
    const n = names[i];
    if (!n) {
      plan.unnamed.push(i);
      continue;
    }
    const key = n.toUpperCase();
    if (RESERVED_COLUMNS.has(key)) {
      reserved.push(shown(n));
      continue;
    }
    const t = types?.get(key);
    if (types && !t) unknown.push(shown(n));
    if (t === 'number' || t === 'date') plan.typed.push({ index: i, name: n, type: t });
  }
  if (plan.unnamed.length) {
    plan.warnings.push(`Column${plan.unnamed.length > 1 ? 's' : ''} ${plan.unnamed.map((i) => i + 1).join(', ')} ha${plan.unnamed.length > 1 ? 've' : 's'} no name in the header; ${plan.unnamed.length > 1 ? 'they are' : 'it is'} left out of the upload.`);
  }
  if (reserved.length) {
    plan.warnings.push(`Reserved column name${reserved.length > 1 ? 's' : ''} ${listed(reserved)}: the service ignores ${reserved.length > 1 ? 'these columns' : 'this column'} (rows are still imported).`);
  }
  if (unknown.length) {
    plan.warnings.push(`${listed(unknown)} ${unknown.length > 1 ? 'are' : 'is'} not among the known custom fields; the service ignores columns that are not custom fields. Create the field in the back office first, or declare it with --field NAME:TYPE.`);
  }
  return plan;
}

// Plain decimal notation only: exponents and thousands separators are not numbers to every service.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/**
 * How a contacts file may write a date-typed custom field: the flags' form (src/core/date.ts) and
 * also 2024/12/01 and one-digit months, days and hours, as spreadsheets write them; any four-digit
 * year (a birthday or a founding date may be long ago). The calendar check is date.ts's.
 */
const FIELD_DATE: DateForm = { loose: true, years: { min: 0, max: 9999 } };

/** Whether a custom field value fits its type. An empty value always fits (no value). */
export function fitsType(value: string, type: 'number' | 'date'): boolean {
  if (value.length === 0) return true;
  const v = value.trim();
  if (!v) return true;
  if (type === 'number') return NUMBER.test(v);
  return !('problem' in readDate(v, FIELD_DATE));
}
