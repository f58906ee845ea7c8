import type { Template } from '../../api/campaign-types.js';

export const SEED_TEMPLATES: Template[] = [
  { id: 'tpl_welcome', name: 'Welcome', template: '<html><body><h1>Welcome, ${NAME}!</h1><p>Thanks for joining.</p></body></html>', updateDate: '2026-10-01T08:00:00.000Z' },
  { id: 'tpl_monthly', name: 'Monthly newsletter', template: '<html><body><h1>This month</h1><p>News for ${NAME}.</p></body></html>', updateDate: '2026-10-15T08:00:00.000Z' },
];
