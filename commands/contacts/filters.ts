// `--where "DOMAIN like example.com"` → a removal filter of spec 000 endpoint 6:
// {columnName, operator, value}, checked locally so a typo never reaches the service.
// Columns: NAME, MAIL_ADDRESS, DOMAIN, LISTSN, or a custom field name. Operators: EQ, NOT_EQ,
// LIKE, NOT_LIKE; friendlier spellings (=, !=, like, not like…) map to them. The spec does not
// offer comparisons on number or date custom fields.
import { UsageError } from '../../src/core/errors.js';
import type { FilterOperator, RemovalFilter } from '../../src/api/campaign-types.js';
import { type FieldType } from '../../src/import/header.js';
import { RESERVED_COLUMNS } from '../../src/spec/reserved-columns.js';

const COLUMNS = new Set(['NAME', 'MAIL_ADDRESS', 'DOMAIN', 'LISTSN']);
/** Names people reach for first; EMAIL is reserved, so it cannot be a custom field. */
const COLUMN_ALIASES: Record<string, string> = { EMAIL: 'MAIL_ADDRESS', MAIL: 'MAIL_ADDRESS', ADDRESS_DOMAIN: 'DOMAIN' };

const OPERATORS: Record<string, FilterOperator> = {
  eq: 'EQ', '=': 'EQ', '==': 'EQ', is: 'EQ',
  not_eq: 'NOT_EQ', 'not eq': 'NOT_EQ', ne: 'NOT_EQ', '!=': 'NOT_EQ', '<>': 'NOT_EQ', 'is not': 'NOT_EQ',
  like: 'LIKE', '~': 'LIKE',
  not_like: 'NOT_LIKE', 'not like': 'NOT_LIKE', '!~': 'NOT_LIKE',
};

const HINT = 'Write COLUMN OPERATOR VALUE, for example --where "DOMAIN like example.com" or --where "NAME = Ann". Columns: NAME, MAIL_ADDRESS, DOMAIN, LISTSN or a custom field; operators: = (EQ), != (NOT_EQ), like, not like.';

// Symbols may touch their neighbours ("DOMAIN=example.com"); words need spaces around them.
const SYMBOL = /^\s*([^\s=!<>~]+)\s*(==|=|!=|<>|!~|~)\s*(.*?)\s*$/;
const WORD = /^\s*(\S+)\s+(not\s+like|not_like|not\s+eq|not_eq|is\s+not|like|eq|ne|is)\s+(.*?)\s*$/i;

export function parseWhere(expr: string, fieldTypes?: Record<string, FieldType>): RemovalFilter {
  const m = WORD.exec(expr) ?? SYMBOL.exec(expr);
  if (!m) throw new UsageError(`--where "${expr}" is not a filter.`, HINT);
  const operator = OPERATORS[m[2].toLowerCase().replace(/\s+/g, ' ')];
  if (!operator) throw new UsageError(`--where "${expr}": unknown operator "${m[2]}".`, HINT);
  const columnName = column(m[1], expr, fieldTypes);
  const raw = m[3];
  const quoted = /^(["'])(.*)\1$/s.exec(raw);
  const value = quoted ? quoted[2] : raw;
  if (!quoted && !value) throw new UsageError(`--where "${expr}" has no value to compare with.`, 'To match an empty value, write it as "" (for example --where \'NAME = ""\').');
  return { columnName, operator, value };
}

function column(given: string, expr: string, fieldTypes?: Record<string, FieldType>): string {
  const upper = given.toUpperCase();
  if (COLUMNS.has(upper)) return upper;
  if (COLUMN_ALIASES[upper]) return COLUMN_ALIASES[upper];
  if (RESERVED_COLUMNS.has(upper)) {
    throw new UsageError(`--where "${expr}": ${given} is a reserved column and cannot be filtered on.`, HINT);
  }
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(given)) throw new UsageError(`--where "${expr}": "${given}" is not a column name.`, HINT);
  const type = fieldTypes && Object.entries(fieldTypes).find(([k]) => k.toUpperCase() === upper)?.[1];
  if (type === 'number' || type === 'date') {
    throw new UsageError(`--where "${expr}": ${given} is a ${type} field, and the service offers no comparison on number or date fields.`, 'Filter on NAME, MAIL_ADDRESS, DOMAIN, LISTSN or a string custom field, or list the addresses with --email / --emails-file.');
  }
  return given;
}

/** How a filter reads in a confirmation question. */
export function describeFilter(f: RemovalFilter): string {
  return `${f.columnName} ${f.operator.replace('_', ' ')} "${f.value}"`;
}
