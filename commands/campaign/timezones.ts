import type { Context } from '../../src/run/context.js';
import { offsetLabel, TIME_ZONE_CODES, type TimeZoneCode } from '../../src/spec/timezones.js';
import { printList } from '../../src/run/output/format.js';

export async function run(ctx: Context): Promise<void> {
  const now = ctx.clock.now();
  await printList<TimeZoneCode>(ctx.io, [...TIME_ZONE_CODES], [
    { header: 'CODE', value: (t) => t.code },
    { header: 'CITY', value: (t) => t.city },
    { header: 'IANA ZONE', value: (t) => t.iana },
    { header: 'UTC OFFSET NOW', value: (t) => offsetLabel(t.iana, now) },
  ], undefined, { empty: 'No time zones.' });
}
