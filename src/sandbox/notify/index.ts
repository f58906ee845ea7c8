// The notification service emulator (spec 001, GAPS rows 3, 4, 21).
import type { Route, ServiceModule } from '../types.js';
import type { NotifyState } from './state.js';

const routes: Route[] = [];

export const notifyModule: ServiceModule<NotifyState> = {
  initialState: () => ({}),
  routes,
};
