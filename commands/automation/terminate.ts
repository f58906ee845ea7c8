import type { Context } from '../../src/run/context.js';
import { runEvent, type EventOpts } from './event.js';

export const run = (ctx: Context, opts: EventOpts) => runEvent(ctx, opts, 'TERMINATE');
