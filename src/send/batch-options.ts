// The options every batch command shares, each group declared once: `send` and `send sms` take
// batchOptions, `automation trigger|terminate` journalOptions (one request at a time, no event
// log to settle against, no balance to weigh). The types src/send/command.ts reads are derived
// from these declarations, so a flag removed here fails typecheck where it is read. Loaded at
// start-up with the nouns' declarations: commander only.
import { Command, Option, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import { declareRoot } from '../run/root-options.js';
import { skipsTerminalQuestion } from '../run/write-flags.js';

/** More recipients than this, and `send` on a terminal asks first (src/send/confirm.ts). */
export const ASK_OVER = 100;

export interface JournalTexts {
  /** What --resume continues, in this command's words. */
  resume: string;
  /** What --dry-run prints. */
  dryRun: string;
}

/** The journal flags of every batch command: --journal, --resume [FILE], --dry-run. */
export function journalOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>, t: JournalTexts) {
  return c
    .option('--journal <file>', 'write the journal here (in an existing folder) instead of the config directory')
    .option('--resume [journal]', t.resume)
    .option('--dry-run', t.dryRun);
}

/** `send`'s and `send sms`'s: the journal flags, and how many at once, when to settle, the balance. */
export function batchOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return journalOptions(c.option('--concurrency <n>', 'requests in flight at once (1-16, default 4)'), {
    resume: 'continue a killed or interrupted send from its journal',
    dryRun: 'print the exact requests (key masked) and the forecast; send and write nothing',
  })
    .option('--settle-after <duration>', 'how long after an in-doubt batch started "no matching event" means "not sent" (default 5m)')
    .option('--ignore-balance', 'send even when the balance cannot cover it')
    .addOption(skipsTerminalQuestion(new Option('-y, --yes', `send to more than ${ASK_OVER} recipients without being asked first (only a terminal asks)`)))
    .option('--forecast', 'check everything, read only the balance, print the forecast; send and write nothing (exit 2 if not covered)');
}

/** What journalOptions gives a command's options. */
export type JournalFlags = ReturnType<ReturnType<typeof journalOptions<[], {}, {}>>['opts']>;
/** What batchOptions gives (automation's commands have only the journal part). */
export type BatchFlags = ReturnType<ReturnType<typeof batchOptions<[], {}, {}>>['opts']>;

/**
 * The flags that say what a batch command sends, attribute name → flag: every option its
 * declaration gives, less its batch group's and the root's (--csv, --dry-run, --yes: how the run
 * goes or prints). --resume refuses them (the journal fixes the message) and the --forecast
 * command a dry run suggests repeats them. Read from the declaration itself, so a new option is
 * a message flag unless it joins a group: no list to keep equal.
 */
export function messageFlags(declare: (parent: CommandUnknownOpts) => CommandUnknownOpts, group: (c: Command) => CommandUnknownOpts): Record<string, string> {
  const longs = (c: CommandUnknownOpts) => c.options.map((o) => o.long);
  const notMessage = new Set([...longs(group(new Command())), ...longs(declareRoot(new Command()))]);
  const flags: Record<string, string> = {};
  for (const o of declare(new Command()).options) if (o.long && !notMessage.has(o.long)) flags[o.attributeName()] = o.long;
  return flags;
}
