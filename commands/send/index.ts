import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';
import { batchOptions } from '../../src/send/batch-options.js';

const BATCH_HELP = `
Batches and resume:
  More than 100 recipients go out as requests of 100, --concurrency at a time (default 4).
  On a terminal, such a send first shows what goes out (how many, to whom, subject or text,
  sender, when) and asks; --yes skips the question. Without a terminal (piped, CI, --no-input)
  nothing asks: a script's flags say what it means.
  Every send writes a journal (JSONL, fsync'd, readable only by you) under the config
  directory, or --journal FILE (its folder must exist): each batch is recorded before its
  request and again when answered. If the run is killed, \`mailctl send --resume [FILE]\`
  (default: the latest unfinished one of this profile and service) sends only what was never
  sent, through the same account only: another base URL or key is refused (exit 2).

  A batch that was in flight is "in doubt"; each of its recipients is looked up in the event
  log before anything is sent again:
  - sent: an event that is an exact match of what this batch would have delivered to that
    recipient — email: the recipient, the sender address (--from), the subject and the
    content, each as filled with the recipient's variables (or as written with the same
    variables); SMS: the text the same way, the country code and the number — whose accept
    event is logged no earlier than the batch started (a message is judged as a whole: an
    older one's delivery or open events come later). Its message id is reported.
  - not sent: no event matches at all, the lookup is complete (under 50 rows) and the batch
    started at least --settle-after ago (default 5m). Sent again.
  - unsettled, anything else: an exact match accepted up to 5 minutes before the batch started
    (clocks may differ: it may be an earlier identical message) or whose accept event is not
    in the log, an event that lacks one of
    the fields compared or its time, content that differs only in its links (the service
    rewrites links), a failed or possibly cut-short lookup, or too early to tell. Reported
    as unsettled — never as accepted, never sent again by itself; a later --resume looks again.
  Nobody gets the message twice.
  --resume --dry-run shows what a resume would send and writes nothing, not even the journal.

Forecast: before any request, the send is weighed against the account balance (\`mailctl
balance\`): one email per recipient, or for SMS the parts of each recipient's own text — one
part up to 160 GSM-7 characters (^{}\\[~]|€ count twice) or 70 UCS-2 ones (any Chinese
character, 【】 or emoji makes the whole text UCS-2), longer texts 153 or 67 per part. \`send sms\`
prints it, and every --dry-run prints what the send uses (--json: a "forecast" object; a dry run
reads no balance); a resume counts only recipients not yet sent. A send the balance cannot cover is refused (exit 2, nothing sent) unless --ignore-balance; if
the balance cannot be read (no campaign-service key, network), a warning, and the send goes on.
--forecast checks the send as a real run does, reads only the balance, prints usage, balance and
whether it is covered (--json: {"forecast": …}), and sends and writes nothing: exit 0 covered,
2 INSUFFICIENT_BALANCE not (--ignore-balance: a warning, exit 0); a balance it cannot read fails it.

Variables: a name starts with a letter or _ and holds only letters, digits and _; one that
starts with a digit or holds an operator is refused before anything is sent (exit 2). Values go
as given, up to 100 characters: 123456 is a fine value (the vendor's reference, which makes the
"must not start with a digit" rule one for names).

Exit codes: 0 all accepted · 1 none accepted (a request refused as a whole says what to fix)
· 2 bad input or not covered by the balance, nothing sent · 4 stopped by a limit or the network, the rest not sent (resume
later) · 5 some failed, not sent or in doubt (the report says which).`;

/** The recipients and variables both send verbs take; the batch flags are batchOptions' (src/send/batch-options.ts). */
function recipientOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .option('--var <name=value>', 'a variable of the --to recipients, the same for each (repeatable)', collect)
    .option('--recipients-file <file>', 'many recipients: CSV (address column + one column per variable) or JSON')
    .option('--allow-missing', 'send even when a recipient has no value for a {{variable}}');
}

/** A command's options as its own --help lists them: `send --help` shows the email verb's. */
function optionList(c: CommandUnknownOpts): string {
  const h = c.createHelp();
  h.prepareContext({ helpWidth: 80 });
  const width = h.longestOptionTermLength(c, h);
  return h.visibleOptions(c).filter((o) => o.long !== '--help').map((o) => h.formatItem(h.optionTerm(o), width, h.optionDescription(o), h)).join('\n');
}

export function register(program: Command, action: ActionFactory): void {
  let email: CommandUnknownOpts | undefined;
  const send = program
    .command('send')
    .description('send transactional email (default) or SMS, batched and resumable')
    .addHelpText('after', () => `
Email options (\`mailctl send …\` is \`mailctl send email …\`):
${email ? optionList(email) : ''}

Batches, the journal, --resume and the exit codes: \`mailctl send email --help\`.
Text messages: \`mailctl send sms --help\`.

Examples:
  mailctl send --to ci@example.com --subject "smoke test" --html "<p>ok</p>"
  mailctl send --recipients-file examples/recipients.csv --subject "Hi {{name}}" --html "<p>Your plan: {{plan}}</p>"
  mailctl send --recipients-file examples/recipients.csv --subject "Hi {{name}}" --html "<p>Your plan: {{plan}}</p>" --forecast
  mailctl send sms --to 0912345678 --country-code 886 --text "【Acme】Your code is {{code}}" --var code=A1B2`);
  email = declareEmail(send).action(action(() => import('./email.js')));
  declareSms(send).action(action(() => import('./sms.js')));
}

export function declareEmail(send: CommandUnknownOpts) {
  return batchOptions(recipientOptions(
    send
      .command('email', { isDefault: true })
      .description('send a transactional email to one recipient or a recipients file')
      .option('--to <address>', 'a recipient (repeatable: --to a@example.com --to b@example.com)', collect)
      .option('--to-name <name>', 'name of the --to recipient, when there is one (also fills {{name}}); default: the address before the @')
      .option('--subject <text>', 'subject; may hold {{variables}}')
      .option('--html <html>', 'html content as a string')
      .option('--html-file <file>', 'html content from a file ("-" reads stdin)')
      .option('--from <address>', 'sender address (default: the profile\'s from-address); its domain must be verified')
      .option('--from-name <name>', 'sender name (default: the profile\'s from-name)')
      .option('--unsubscribe-url <url>', 'List-Unsubscribe link placed in the mail header (https://… or mailto:…)'),
  ))
    .addHelpText('after', `
Every recipient is sent with a name, which the service lists as required: the one given (--to-name,
a "name" column or field of --recipients-file), else the part of the address before the @.
${BATCH_HELP}

Examples:
  mailctl send --to ci@example.com --subject "smoke test" --html "<p>ok</p>"
  mailctl send --to a@example.com --var code=A1B2 --subject "Your code" --html "<p>{{code}}</p>"
  mailctl send --recipients-file examples/recipients.csv --subject "Hi {{name}}" --html-file examples/newsletter.html
  printf '<p>Build %s passed</p>' 1234 | mailctl send --to ci@example.com --subject "CI" --html-file -
  mailctl send --to a@example.com --subject "Hi" --html "<p>Hi</p>" --dry-run
  mailctl send --recipients-file examples/recipients.csv --subject "Hi {{name}}" --html-file examples/newsletter.html --forecast`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareSms(send: CommandUnknownOpts) {
  return batchOptions(recipientOptions(
    send
      .command('sms')
      .description('send a transactional SMS to one number or a recipients file')
      .option('--to <number>', 'a number, in national form (digits; spaces and hyphens are ignored); repeatable', collect)
      .option('--country-code <code>', 'calling code of the --to numbers, and the default for file rows without one (e.g. 886)')
      .option('--text <text>', 'the SMS text; may hold {{variables}}')
      .option('--text-file <file>', 'the SMS text from a file ("-" reads stdin)')
      .option('--alive-mins <minutes>', 'how long the operator keeps retrying (5-480; clamped, default 5)')
      .option('--brand <name>', 'your sender identity, for the check that the text names it at its start or end'),
  ))
    .addHelpText('after', `
Carriers require the sender's identity (company, brand or campaign name, e.g. 【Acme】) at the
start or end of the text, and a link's domain must be on their allow-list beforehand (ask the
provider's support; 5-7 business days). mailctl warns about both; it never rewrites the text.
Country codes: those the spec lists and 886 (Taiwan, in the vendor's own examples) are sent
as they are; another real calling code is sent with a warning (the service may refuse it); a code
that is no calling code, or a number with other than digits, spaces and hyphens, is refused.

${BATCH_HELP}

Examples:
  mailctl send sms --to 0912345678 --country-code 886 --text "【Acme】Your code is {{code}}" --var code=A1B2
  mailctl send sms --recipients-file examples/phones.csv --text-file examples/sms.txt --alive-mins 60
  mailctl send sms --recipients-file examples/phones.csv --text-file examples/sms.txt --forecast`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
