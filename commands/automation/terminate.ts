import type { Context } from '../../src/cli/context.js';
import { runEvent, type EventOpts } from './event.js';

export const run = (ctx: Context, opts: EventOpts) => runEvent(ctx, opts, 'TERMINATE');
