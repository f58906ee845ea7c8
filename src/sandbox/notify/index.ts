// The notification service emulator (spec 001, decisions rows 3, 4, 21). Each area lives in its
// own file; outcomes.ts says how a message's history unfolds, unfold.ts moves it with time.
import type { ServiceModule } from '../types.js';
import { initialNotifyState, type NotifyState } from './state.js';
import { messageRoutes } from './messages.js';
import { eventRoutes } from './events.js';
import { webhookRoutes } from './webhooks.js';
import { smsRoutes } from './sms.js';
import { domainRoutes } from './domains.js';
import { advanceNotify } from './unfold.js';

export const notifyModule: ServiceModule<NotifyState> = {
  initialState: initialNotifyState,
  routes: [...messageRoutes, ...eventRoutes, ...webhookRoutes, ...smsRoutes, ...domainRoutes],
  advance: advanceNotify,
};
