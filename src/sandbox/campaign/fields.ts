// Custom fields. The spec says they are "created beforehand in the back office" and that their
// type (string, number, date) is fixed at creation. The API has no endpoint for that, so the
// sandbox offers one that is NOT part of the spec, under /_sandbox/ so nobody mistakes it for
// a service path (it still needs the campaign key):
//   POST /campaign/_sandbox/fields {name, type}  → 201 {name, type, createDate} (200 if it exists)
//   GET  /campaign/_sandbox/fields               → 200 {fields: [...]}
import type { Route, SbResponse } from '../types.js';
import { isObj, iso } from './common.js';
import type { CampaignState, FieldType, SbField } from './state.js';

import { RESERVED_COLUMNS } from '../../spec/reserved-columns.js';

export const isReserved = (name: string): boolean => RESERVED_COLUMNS.has(name.trim().toUpperCase());

/** Field names are matched case-insensitively, like the reserved names. */
export function findField(state: CampaignState, name: string): SbField | undefined {
  const n = name.trim().toUpperCase();
  return state.fields.find((f) => f.name.toUpperCase() === n);
}

export type DefineResult = { ok: true; field: SbField; created: boolean } | { ok: false; status: number; message: string };

/** The back-office action: define a field once; the same name with another type is refused. */
export function defineField(state: CampaignState, name: unknown, type: unknown, now: number): DefineResult {
  if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name.trim())) {
    return { ok: false, status: 400, message: 'name must start with a letter and hold only letters, digits and _ (at most 64)' };
  }
  if (isReserved(name)) return { ok: false, status: 400, message: `${name} is a reserved column name` };
  if (type !== 'string' && type !== 'number' && type !== 'date') return { ok: false, status: 400, message: 'type must be string, number or date' };
  const existing = findField(state, name);
  if (existing) {
    if (existing.type !== type) return { ok: false, status: 409, message: `field ${existing.name} already exists with type ${existing.type}; a field's type cannot change` };
    return { ok: true, field: existing, created: false };
  }
  const field: SbField = { name: name.trim(), type: type as FieldType, createDate: iso(now) };
  state.fields.push(field);
  return { ok: true, field, created: true };
}

export const fieldRoutes: Route[] = [
  {
    service: 'campaign', method: 'POST', path: '/_sandbox/fields',
    handler: async (req, ctx): Promise<SbResponse> => {
      const body = await req.json();
      if (!isObj(body)) return { status: 400, json: { message: 'body must be {"name": "...", "type": "string|number|date"}' } };
      const r = defineField(ctx.state.campaign, body.name, body.type, ctx.now);
      if (!r.ok) return { status: r.status, json: { message: r.message } };
      return { status: r.created ? 201 : 200, json: r.field };
    },
  },
  {
    service: 'campaign', method: 'GET', path: '/_sandbox/fields',
    handler: (_req, ctx) => ({ status: 200, json: { fields: ctx.state.campaign.fields } }),
  },
];
