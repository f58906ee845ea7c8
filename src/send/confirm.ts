// `send` to more than ASK_OVER recipients asks first on a terminal, as `campaign create` does:
// what goes out (how many, to whom, subject or text, sender, when in the operator's zone and in
// UTC), then one question. --yes skips it; without a terminal nothing asks (a script's flags say
// what it means). Asked after every check and the balance forecast, before the journal exists,
// so a "no" leaves nothing behind to resume.
import type { Context } from '../run/context.js';
import { ExitCode, SilentExit } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';
import { count } from '../core/human.js';
import { localZone, offsetLabel, wallTime } from '../spec/timezones.js';
import type { NewPlan } from './journal.js';
import { ASK_OVER } from './batch-options.js';


export function asksFirst(plan: NewPlan): boolean {
  return plan.kind !== 'automation' && plan.recipients.length > ASK_OVER;
}

/** The lines shown before the question. */
export function sendLines(plan: NewPlan, now: number, zone = localZone()): string[] {
  const n = plan.recipients.length;
  const who = (r: NewPlan['recipients'][number]) => forTerminal(r.country_code ? `+${r.country_code} ${r.address}` : r.address, 80);
  const shown = plan.recipients.slice(0, 3).map(who).join(', ');
  const m = plan.message as Record<string, string | undefined>;
  const lines = [`This ${plan.kind === 'sms' ? 'SMS send' : 'send'} goes out now to ${count(n)} recipients: ${shown}${n > 3 ? ` and ${count(n - 3)} more` : ''}.`];
  if (plan.kind === 'sms') lines.push(`  Text:     "${forTerminal(m.content ?? '', 160)}"`);
  else {
    lines.push(`  Subject:  "${forTerminal(m.subject ?? '', 150)}"`);
    lines.push(`  Sender:   ${m.fromName ? `${forTerminal(m.fromName, 60)} ` : ''}<${forTerminal(m.fromAddress ?? '', 100)}>`);
  }
  lines.push(`  When:     now: ${wallTime(now, zone)} your time (${zone}, UTC${offsetLabel(zone, now)}) = ${new Date(now).toISOString().slice(0, 19)}Z UTC`);
  return lines;
}

/** Shows what goes out and asks; "no" is exit 2 with nothing sent and no journal. */
export async function confirmSend(ctx: Context, plan: NewPlan): Promise<void> {
  // Printed even under --quiet: the question that follows is about these lines.
  ctx.io.error(['', ...sendLines(plan, ctx.clock.now()), ''].join('\n'));
  if (await ctx.prompter.confirm(`Send to all ${count(plan.recipients.length)} recipients now?`, false)) return;
  ctx.io.info('Nothing was sent.');
  throw new SilentExit(ExitCode.USAGE);
}
