// Endpoint 6: DELETE /v1/contacts/{list_sn} removes contacts from a group (membership only).
// Errors: 400 {code (number), message}, codes from spec section 7:
//   40050304 wrong custom field name · 40050305 `filters` or `keys` missing · 40050306 wrong
//   column name · 40050307 wrong operator · 40050308 group to remove from does not exist.
// Decisions where the spec is silent:
//   - Several filters must all match (AND).
//   - A columnName that is none of NAME, MAIL_ADDRESS, DOMAIN, LISTSN is read as a custom field
//     name: unknown → 40050304. A reserved column name (EMAIL, PHONE…), an empty columnName, or a
//     number/date custom field ("comparison on date or number custom fields is not offered") → 40050306.
//   - Comparisons ignore case. LIKE uses SQL wildcards (% any run, _ one character); a value
//     without wildcards matches as a substring ("gmail" is like "a@gmail.com").
//   - An empty `filters` or `keys` array counts as missing (40050305); a filter without a string
//     `value` too.
//   - LISTSN compares against the group codes a contact belongs to (EQ: is also a member of).
import type { Route, SbResponse } from '../types.js';
import { isObj } from './common.js';
import { contactKey, findGroup, membersOf, recountGroups, removeMembership } from './contacts.js';
import { findField, isReserved } from './fields.js';
import type { CampaignState, SbContact } from './state.js';

const removalError = (code: number, message: string): SbResponse => ({ status: 400, json: { code, message } });

type Getter = (c: SbContact) => string[];
const FIXED: Record<string, Getter> = {
  NAME: (c) => [c.name],
  MAIL_ADDRESS: (c) => [c.email],
  DOMAIN: (c) => [c.email.slice(c.email.lastIndexOf('@') + 1)],
  LISTSN: (c) => c.lists,
};
const OPERATORS = new Set(['EQ', 'NOT_EQ', 'LIKE', 'NOT_LIKE']);

function likeMatcher(pattern: string): (v: string) => boolean {
  const p = pattern.toLowerCase();
  if (!/[%_]/.test(p)) return (v) => v.toLowerCase().includes(p);
  const re = new RegExp('^' + p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.') + '$', 's');
  return (v) => re.test(v.toLowerCase());
}

function compile(state: CampaignState, f: unknown): ((c: SbContact) => boolean) | SbResponse {
  if (!isObj(f)) return removalError(40050305, 'each filter must be {columnName, operator, value}');
  const column = typeof f.columnName === 'string' ? f.columnName.trim() : '';
  let get: Getter | undefined = FIXED[column.toUpperCase()];
  if (!get) {
    if (!column || isReserved(column)) return removalError(40050306, `wrong column name: ${column || '(empty)'}`);
    const field = findField(state, column);
    if (!field) return removalError(40050304, `wrong custom field name: ${column}`);
    if (field.type !== 'string') return removalError(40050306, `column ${field.name} is a ${field.type} field; comparison on date or number fields is not offered`);
    get = (c) => [c.fields[field.name] ?? ''];
  }
  const op = typeof f.operator === 'string' ? f.operator.toUpperCase() : '';
  if (!OPERATORS.has(op)) return removalError(40050307, `wrong operator: ${String(f.operator ?? '(empty)')}`);
  if (typeof f.value !== 'string') return removalError(40050305, 'each filter needs a string value');
  const value = f.value.toLowerCase();
  const test = op.endsWith('LIKE') ? likeMatcher(f.value) : (v: string) => v.toLowerCase() === value;
  const negate = op.startsWith('NOT_');
  const g = get;
  // For LISTSN a contact matches when any of its groups does; NOT_ means none does.
  return (c) => g(c).some(test) !== negate;
}

export const removeRoutes: Route[] = [
  {
    service: 'campaign', method: 'DELETE', path: '/v1/contacts/:listSn',
    handler: async (req, ctx, p): Promise<SbResponse> => {
      const st = ctx.state.campaign;
      const body = await req.json();
      if (!findGroup(st, p.listSn)) return removalError(40050308, `group ${p.listSn} does not exist`);
      const filters = isObj(body) && Array.isArray(body.filters) && body.filters.length ? body.filters : undefined;
      const keys = isObj(body) && Array.isArray(body.keys) && body.keys.length ? body.keys : undefined;
      if (!filters && !keys) return removalError(40050305, 'give either filters or keys');
      let targets: SbContact[];
      if (filters) {
        const tests: Array<(c: SbContact) => boolean> = [];
        for (const f of filters) {
          const t = compile(st, f);
          if (typeof t !== 'function') return t;
          tests.push(t);
        }
        targets = membersOf(st, p.listSn).filter((c) => tests.every((t) => t(c)));
      } else {
        const wanted = new Set(keys!.filter((k): k is string => typeof k === 'string').map(contactKey));
        targets = [...wanted].map((k) => st.contacts[k]).filter((c): c is SbContact => !!c);
      }
      const removed = removeMembership(st, p.listSn, targets, ctx.now);
      if (removed) recountGroups(st, ctx.now, [p.listSn]);
      // The official CLI's stub says {"removed": n} (shapes.ts contacts-removed=removed).
      return { status: 200, json: ctx.opts.shapes.contactsRemoved === 'removed' ? { removed } : { updated_count: removed } };
    },
  },
];
