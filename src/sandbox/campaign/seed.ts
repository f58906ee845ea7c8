// What a fresh sandbox account holds: two templates (endpoints 18/19) and a few custom fields,
// as if someone had created them in the back office. Field names avoid the spec's reserved
// column names (section 2), so they really act as import columns.
import type { Template } from './types.js';
import type { SbField } from './state.js';

export const SEED_TEMPLATES: Template[] = [
  { id: 'tpl_welcome', name: 'Welcome', template: '<html><body><h1>Welcome, ${NAME}!</h1><p>Thanks for joining.</p></body></html>', updateDate: '2026-10-01T08:00:00.000Z' },
  { id: 'tpl_monthly', name: 'Monthly newsletter', template: '<html><body><h1>This month</h1><p>News for ${NAME}.</p></body></html>', updateDate: '2026-10-15T08:00:00.000Z' },
];

export const SEED_FIELDS: SbField[] = [
  { name: 'AGE', type: 'number', createDate: '2026-09-01T08:00:00.000Z' },
  { name: 'JOINED', type: 'date', createDate: '2026-09-01T08:00:00.000Z' },
  { name: 'PLAN', type: 'string', createDate: '2026-09-01T08:00:00.000Z' },
];

/** Templates an account may hold (endpoint 18 `capacity`). */
export const TEMPLATE_CAPACITY = 50;

export const START_BALANCE = { email: 10_000, sms: 500 };
