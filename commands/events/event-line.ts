// One event as a line on a terminal, for `events tail` and `events tail --history` alike: the
// local time, the status in its colour (NO_COLOR and pipes: none, IO.paint decides), the message
// id, who, what. Service words reach the terminal only through the sanitiser.
import { forTerminal } from '../../src/core/sanitize.js';
import { localStamp, readServiceTime } from '../../src/run/output/time.js';
import type { Context } from '../../src/run/context.js';

/** What a line shows of an event, from the lookup or the store (same names). */
export interface LineEvent {
  eventTime?: string | null;
  status?: string | null;
  messageId?: string | null;
  recipient?: string | null;
  address?: string | null;
  content?: string | null;
  mail?: { to?: string | null; recipient?: string | null; subject?: string | null } | null;
}

/** How a status reads at a glance on a terminal. */
const STATUS_COLOUR: ReadonlyMap<string, Parameters<Context['io']['paint']>[0]> = new Map([
  ['delivery', 'green'], ['open', 'cyan'], ['click', 'cyan'], ['retry', 'yellow'], ['accept', 'dim'], ['bounce', 'red'], ['complaint', 'red'],
] as const);

export function eventLine(ctx: Context, e: LineEvent, sms: boolean): string {
  const who = sms ? e.recipient ?? e.address : e.mail?.to ?? e.mail?.recipient;
  const what = sms ? e.content : e.mail?.subject;
  const t = readServiceTime(e.eventTime);
  const when = t === undefined ? forTerminal(e.eventTime ?? '', 80) : localStamp(t, ctx.clock.now(), ctx.io.timeZone);
  const status = forTerminal(e.status ?? '', 20);
  const colour = STATUS_COLOUR.get(status.toLowerCase());
  const painted = colour ? ctx.io.paint(colour, status) : status;
  return [when, painted + ' '.repeat(Math.max(0, 9 - status.length)), ...[e.messageId, who, what].map((v) => forTerminal(v ?? '', 80))].join('  ');
}
