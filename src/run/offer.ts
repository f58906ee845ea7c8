// Values shell completion offers for an option or argument whose command checks the value itself:
// case-insensitively, with aliases (webhook type 3, footer language 0/1) and a sentence naming
// the fix. Commander's .choices() would replace that check with its own exact-match message, so
// these are for completion only (src/cli/complete.ts reads them; argChoices still count too).
import { Argument, type Option } from '@commander-js/extra-typings';

export interface OfferContext {
  /** Flags typed so far on the line (long forms, e.g. --sms). */
  flags: Set<string>;
  /** Positional arguments of the command typed so far. */
  args: string[];
  /**
   * Campaign codes in the completion cache of the run's profile (src/config/completion-cache.ts);
   * absent where no run's cache applies (a tool schema, a declaration test): none then.
   */
  campaignCodes?(): readonly string[];
}

export type Offered = readonly string[] | ((c: OfferContext) => readonly string[]);

interface Offer {
  values: Offered;
  /** The value is a comma-separated list (events --status bounce,complaint). */
  list: boolean;
}

const offers = new WeakMap<Option | Argument, Offer>();

export function offer<T extends Option | Argument>(target: T, values: Offered, o: { list?: boolean } = {}): T {
  offers.set(target, { values, list: !!o.list });
  return target;
}

export function offeredFor(target: Option | Argument, c: OfferContext): { values: readonly string[]; list: boolean } | undefined {
  const o = offers.get(target);
  if (!o) return undefined;
  return { values: typeof o.values === 'function' ? o.values(c) : o.values, list: o.list };
}

/** The campaign codes mailctl has seen (created or listed): offered wherever a command takes one. */
export const CAMPAIGN_CODES: Offered = (c) => c.campaignCodes?.() ?? [];

/** A campaign-code argument (`<code>` or `<codes...>`) whose values completion offers. */
export function campaignCodeArgument<S extends string>(spec: S, description: string): Argument<S> {
  return offer(new Argument(spec, description), CAMPAIGN_CODES);
}
