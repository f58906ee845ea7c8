// Endpoint 20 (automation events): who to start or stop in a workflow, checked before any
// request, then sent in requests of at most 100 recipients (spec section 8), one after another.
import type { AutomationRecipient, AutomationRequest } from '../api/campaign-types.js';
import type { CampaignClient } from '../api/campaign.js';
import { ServiceError, UsageError } from '../cli/errors.js';
import type { Recipient } from '../send/recipients.js';
import { summarise, valueProblems } from '../send/variables.js';

export const MAX_PER_REQUEST = 100;

export type AutomationEvent = AutomationRequest['event'];

/**
 * Spec endpoint 20, recipients[].variables: "each content at most 100 long, no mathematical
 * expressions, must not start with a digit". All three refuse the run here (exit 2): the
 * service documents a per-recipient failure only for the length, so the other two would
 * otherwise be found out after the fact, if at all. Value checks are shared with `send`
 * (src/send/variables.ts); variable names are not restricted by this endpoint.
 */
export function checkAutomationVariables(recipients: Recipient[]): void {
  const p = valueProblems(recipients);
  const problems: string[] = [];
  const show = (f: { label: string; name: string; value: string }) => `${f.label} ${f.name}="${f.value.length > 30 ? `${f.value.slice(0, 27)}…` : f.value}"`;
  if (p.tooLong.length) problems.push(`Variable values are at most 100 characters; these are longer: ${summarise(p.tooLong, (f) => `${f.label} ${f.name} (${[...f.value].length} characters)`)}.`);
  if (p.leadingDigit.length) problems.push(`Variable values must not start with a digit; these do: ${summarise(p.leadingDigit, show)}.`);
  if (p.expression.length) problems.push(`Variable values must not hold mathematical expressions; these look like one: ${summarise(p.expression, show)}.`);
  if (problems.length) {
    throw new UsageError(problems.length === 1 ? `${problems[0]} Nothing was sent.` : `${problems.length} problems with the variables, nothing was sent:\n  ${problems.join('\n  ')}`, 'Fix the values (the --recipients columns or --var) and run the command again.');
  }
}

/**
 * `name` is starred in the field table but the payload description "requires only address", and
 * the behaviour without it is not shown: mailctl sends a name only when one is given rather than
 * inventing one that would show up in the mail.
 */
export function toAutomationRecipient(r: Recipient): AutomationRecipient {
  const out: AutomationRecipient = { address: r.address };
  if (r.name) out.name = r.name;
  if (Object.keys(r.variables).length) out.variables = r.variables;
  return out;
}

export function batches<T>(items: T[], size = MAX_PER_REQUEST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface EventOutcome {
  accepted: string[];
  failed: Array<{ address: string; reason: string }>;
}

/** Sends the batches in turn. A batch the service refuses whole (400) fails its recipients and the run goes on. */
export async function sendEvent(
  client: CampaignClient, workflow: string, event: AutomationEvent, recipients: AutomationRecipient[], onBatch?: (done: number, total: number) => void,
): Promise<EventOutcome> {
  const out: EventOutcome = { accepted: [], failed: [] };
  const all = batches(recipients);
  for (const [i, batch] of all.entries()) {
    try {
      const r = await client.automationEvent({ workflow, event, recipients: batch });
      out.accepted.push(...r.success);
      const answered = new Set([...r.success, ...Object.keys(r.failure)]);
      for (const [address, reason] of Object.entries(r.failure)) out.failed.push({ address, reason });
      // An address in neither list was not confirmed: count it as failed rather than guess.
      for (const b of batch) if (!answered.has(b.address)) out.failed.push({ address: b.address, reason: 'not in the service\'s answer (neither accepted nor refused)' });
    } catch (e) {
      if (!(e instanceof ServiceError) || e.status !== 400) {
        if (out.accepted.length || out.failed.length) (e as Error & { progress?: EventOutcome }).progress = out;
        throw e;
      }
      for (const b of batch) out.failed.push({ address: b.address, reason: `request refused: ${e.message}` });
    }
    onBatch?.(i + 1, all.length);
  }
  return out;
}
