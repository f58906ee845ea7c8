// Endpoint 20 (automation events): who to start or stop in a workflow, checked before any
// request. The plan goes through the same journal, runner and resume as `send` (this folder):
// requests of at most 100 recipients (spec section 8), one after another.
import { forTerminal } from '../core/sanitize.js';
import type { AutomationRecipient, AutomationRequest } from '../api/campaign-types.js';
import { UsageError } from '../core/errors.js';
import { JOURNAL_VERSION, type NewPlan } from './journal.js';
import { recipientName, type Recipient } from './recipients.js';
import { checkVariableNames, summarise } from './variables.js';

export const MAX_PER_REQUEST = 100;

export type AutomationEvent = AutomationRequest['event'];

/**
 * Spec endpoint 20, recipients[].variables: "each content at most 100 long, no mathematical
 * expressions, must not start with a digit". Names are checked as in `send` (decisions row 26: the
 * vendor's reference makes the digit and expression rules rules for NAMES, so a name that starts
 * with a digit or holds an operator is refused); over 100 and expressions in values refuse the run
 * here (exit 2): the service documents a per-recipient failure only for the length, so an
 * expression would otherwise be found out after the fact, if at all. A value is never judged by
 * its first character.
 */
export function checkAutomationVariables(recipients: Recipient[]): void {
  const p = checkVariableNames(recipients, 'the columns (or --var names)');
  const problems: string[] = [];
  // A file's words reach the terminal only through the sanitiser.
  const show = (f: { label: string; name: string; value: string }) => `${forTerminal(f.label, 60)} ${forTerminal(f.name, 40)}="${forTerminal(f.value, 30)}"`;
  if (p.tooLong.length) problems.push(`Variable values are at most 100 characters; these are longer: ${summarise(p.tooLong, (f) => `${f.label} ${f.name} (${[...f.value].length} characters)`)}.`);
  if (p.expression.length) problems.push(`Variable values must not hold mathematical expressions; these look like one: ${summarise(p.expression, show)}.`);
  if (problems.length) {
    throw new UsageError(problems.length === 1 ? `${problems[0]} Nothing was sent.` : `${problems.length} problems with the variables, nothing was sent:\n  ${problems.join('\n  ')}`, 'Fix the values (the --recipients-file columns or --var) and run the command again.');
  }
}

/**
 * `name` is starred in the field table, "the payload description requires only address", and the
 * vendor lists it as required: every recipient carries one (decisions row 31) — the name given,
 * else the address's local part.
 */
export function toAutomationRecipient(r: Recipient): AutomationRecipient {
  const out: AutomationRecipient = { address: r.address, name: recipientName(r.address, r.name) };
  if (Object.keys(r.variables).length) out.variables = r.variables;
  return out;
}

/** The journal's plan: the request body without recipients is {workflow, event}. */
export function automationPlan(workflow: string, event: AutomationEvent, recipients: Recipient[], now: number): NewPlan {
  return { type: 'plan', version: JOURNAL_VERSION, kind: 'automation', createdAt: new Date(now).toISOString(), batchSize: MAX_PER_REQUEST, message: { workflow, event }, recipients: recipients.map(toAutomationRecipient) };
}
