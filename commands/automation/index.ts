import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';
import { journalOptions, type JournalTexts } from '../../src/send/batch-options.js';

const HELP = `
Recipients: --to, repeatable (with --to-name for a single one, --var k=v for all of them), or many
with --recipients-file: a CSV with an "address" (or "email") column, an optional "name" column and one
column per variable, or a JSON array of {"address", "name", "variables": {...}}. A recipient
without a name is sent with the part of its address before the @ (the service lists name as
required). More than 100 go out as requests of 100, one after another. Variables are checked
first: a name that starts with a digit or holds an operator (anything but letters, digits and _),
a value over 100 characters or a mathematical expression stops the run before a request; a value
that starts with a digit (123456) is fine.

Journal and resume: like \`mailctl send\`, every run writes a journal (under the config
directory, or --journal FILE in an existing folder), each batch recorded before its request
and after its answer, so the report says exactly who was accepted, refused (with the service's
reason), in doubt and not sent. After the daily limit, Ctrl-C or a crash, --resume [FILE]
sends only the recipients that were never sent. A recipient whose request got no answer is
"in doubt": automation has no event log, so nothing can prove whether the workflow started
for it, and mailctl never sends it again by itself — check the workflow in the back office
(the report names the addresses and the command to send one by hand). --resume --dry-run
shows what would be sent and writes nothing.

Exit codes: 0 all accepted · 5 some refused or in doubt (listed with the reason) · 4 stopped at
the daily limit or by the network, the rest not sent (the message gives the resume command) ·
1 none accepted · 2 bad input, nothing sent.`;

/** How automation words the journal flags (src/send/batch-options.ts declares them). */
export const AUTOMATION_JOURNAL: JournalTexts = {
  resume: 'continue a run stopped by the daily limit, Ctrl-C or a crash (default: the latest unfinished one of this profile and service)',
  dryRun: 'print the exact requests (key masked); send and write nothing',
};

/** trigger and terminate take the same flags (commands/automation/event.ts runs both). */
export function declareEvent(parent: CommandUnknownOpts, name: string, description: string, examples: string) {
  const event = parent
    .command(name)
    .description(description)
    .option('--workflow <id>', 'workflow id (set when the workflow was created in the back office)')
    .option('--to <email>', 'a recipient (repeatable)', collect)
    .option('--to-name <name>', 'name of the --to recipient, when there is one (default: the address before the @)')
    .option('--var <name=value>', 'a variable of the --to recipients, the same for each (repeatable)', collect)
    .option('--recipients-file <file>', 'many recipients: CSV or JSON');
  return journalOptions(event, AUTOMATION_JOURNAL)
    .option('--csv', 'print the results as CSV with a header row, for spreadsheets')
    .addHelpText('after', `${HELP}\n\nExamples:\n${examples}`);
}

export function register(program: Command, action: ActionFactory): void {
  const automation = program.command('automation').description('start or stop recipients in automation workflows')
    .addHelpText('after', `
A workflow is built in the back office; its id is given there.

Examples:
  mailctl automation trigger --workflow welcome --to ann.lee@example.com --to-name "Ann Lee" --var plan=pro
  mailctl automation terminate --workflow welcome --to ann.lee@example.com`);
  declareEvent(automation, 'trigger', 'start recipients in a workflow (event TRIGGER)', `
  mailctl automation trigger --workflow welcome --to ann.lee@example.com --to-name "Ann Lee" --var plan=pro
  mailctl automation trigger --workflow welcome --recipients-file examples/recipients.csv
  mailctl automation trigger --workflow welcome --recipients-file examples/recipients.csv --dry-run`.slice(1))
    .action(action(() => import('./trigger.js')));
  declareEvent(automation, 'terminate', 'end recipients\' run through a workflow early (event TERMINATE)', `
  mailctl automation terminate --workflow welcome --to ann.lee@example.com
  mailctl automation terminate --workflow welcome --recipients-file examples/recipients.csv`.slice(1))
    .action(action(() => import('./terminate.js')));
}
