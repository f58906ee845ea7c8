import { type Command, type CommandUnknownOpts, type Option, type OptionValues } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';
import { campaignCodeArgument, offer } from '../../src/run/offer.js';
import { skipsTerminalQuestion } from '../../src/run/write-flags.js';
import { Option as Opt } from '@commander-js/extra-typings';
import { LIST_STATUSES } from '../../src/campaign/list-statuses.js';
import { campaignOptions, flatFileHelp } from '../../src/campaign/options.js';


const CREATE_HELP = `
Sending to groups needs at least one --group (name or code); --exclude groups are never sent to.
A group still importing (PROCESSING) is refused. --once --recipients-file FILE sends to a one-time list
instead (CSV, header EMAIL,NAME; not stored, not de-duplicated): the list is uploaded with a plain
PUT to the address the service returns, without your API key.

Scheduling: --at "YYYY-MM-DD HH:MM" is a wall-clock time in --timezone (default: the profile's
timezone), converted to UTC with that zone's daylight-saving rules. --timezone takes an IANA zone
(Asia/Taipei; Europe/Madrid maps to a city with the same clock), a city (TAIPEI) or a code (21);
\`mailctl campaign timezones\` lists all 88.
Without --at the campaign is sent now. A time in the past is refused before anything is sent.

A/B tests: --ab subject (--subject-a/-b, --preheader-a/-b), --ab sender (--from-name-a/-b,
--from-a/-b; addresses default to --from), --ab content (--html-file-a/-b), with --test-percent
0..100 and --test-duration 4h|2d. After the test the better version goes to everyone else.

Campaign file (--file campaign.json; flags override its values). Either the service's own
request body, used as is:
  {"form": {"name": "...", "selectedLists": ["LS1"], "excludeLists": []},
   "content": {"subject": "...", "fromName": "...", "fromAddress": "...", "htmlContent": "...", "footerLang": 0},
   "config": {"schedule": {"type": 1, "timezone": 21, "scheduleDate": "2026-12-01T01:00:00Z"},
              "ga": {"enable": false, "ecommerceEnable": false}}}
or a flat object whose keys are the flags in camelCase (file paths relative to the JSON file):
${flatFileHelp()}

--wizard asks what flags and --file leave open; Esc (or a list's "← Back") goes back a question.
The whole request is reviewed before anything is sent; declining there offers to change any
answer, to save the answers as a draft (with the command that sends it), or to quit. The html
can be a file, a saved template, or written in your $EDITOR.

On a terminal, a campaign that sends now or is scheduled to groups is first shown — its groups
with their valid members, subject, sender, and when (in its zone, yours and UTC) — and created
only if you say yes; --yes skips the question. Without a terminal (piped, CI, --no-input) nothing
asks: a script's flags say what it means. Every campaign created is added to \`campaign list\`.

Exit codes: 0 created · 1 the service refused (reason in words) · 2 invalid input or not
confirmed, nothing sent.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --name "Dec news" --group Newsletter --subject "December" --html-file examples/newsletter.html
  mailctl campaign create --name "Dec news" --group Newsletter --subject "December" --template tpl_monthly \\
      --at "2030-12-01 09:00" --timezone Asia/Taipei
  mailctl campaign create --file examples/campaign.json --dry-run
  mailctl campaign create --name "Subject test" --group Newsletter --ab subject --subject-a "Hi" \\
      --subject-b "Hello" --html-file examples/newsletter.html --test-percent 20 --test-duration 4h
  mailctl campaign create --name "Event invite" --once --recipients-file examples/guests.csv --subject "You're invited" \\
      --html-file examples/newsletter.html
  mailctl campaign create --wizard       # asks for what is missing (needs a terminal)`;

export function register(program: Command, action: ActionFactory): void {
  const campaign = program.command('campaign').alias('campaigns').description('create, list, schedule, follow, pause and delete email campaigns')
    .addHelpText('after', `
CP123 stands for a campaign code, as \`campaign create\` prints it and \`campaign list\` lists it.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --file examples/campaign.json
  mailctl campaign list
  mailctl campaign status CP123 --wait
  mailctl report metrics CP123`);
  declareCreate(campaign).action(action(() => import('./create.js')));
  declareList(campaign).action(action(() => import('./list.js')));
  declareTimezones(campaign).action(action(() => import('./timezones.js')));
  declareStatus(campaign).action(action(() => import('./status.js')));
  declarePause(campaign).action(action(() => import('./pause.js')));
  declareDelete(campaign).action(action(() => import('./delete.js')));
  registerChecks(campaign, action);
}

// ---- preflight and proof: the same campaign inputs as `create`, checked or sent to yourself ----

const PREFLIGHT_HELP = `
Checks the campaign you would create and sends nothing: give it the same flags (or --file,
--template) as \`campaign create\`. Errors are what create would refuse; warnings are what would go
out wrong. One line per finding, each with a stable rule id (--json: {rule, severity, message, where};
--csv: a row each, severity,rule,where,message):
  campaign-invalid     create would refuse the input (error)
  campaign-warning     create's own warnings (same A/B versions, ambiguous local time, odd \${…})
  field-unknown        a \${FIELD} that is not a known custom field (NAME and EMAIL always exist)
  field-check-skipped  \${FIELD}s used but no custom fields declared (note)
  notify-syntax        {{name}} written: the campaign service fills \${FIELD}, not {{name}}
  html-size            html over 102 KB: Gmail clips the rest, footer and unsubscribe link included
  img-alt              an image without alt text
  preheader-missing    no preheader: inboxes show the first words of the body instead
  utm-missing          analytics on (--ga) but a link carries no utm_ tags
  link-http            a plain http link or image in an otherwise https mail
  link-relative        a link without a host
  link-variable        a link holding a \${FIELD}: not checked (note; see it in a proof)
  link-broken          a link answers 4xx or 5xx
  link-unreachable     no answer (host not found, refused, --link-timeout passed)
  link-redirect-host   a link redirects to another host (www. aside)
  link-redirect-http   an https link redirects to plain http
  link-redirect-loop   more than 5 redirects
  link-forbidden       a link points at a link-local or cloud-metadata address (never connected to)
An A/B test is checked per version.

Known custom fields: the API cannot list them, so preflight knows those in the profile's
field-types (\`mailctl config set field-types PLAN:string,AGE:number\`), --field NAME[:TYPE] and the
header of --contacts contacts.csv. With none of these the field check is skipped (a note says so).

Links: every http(s) link and image address is asked for once (HEAD, then GET when HEAD fails),
4 at a time, each within --link-timeout (default 10s), carrying no API key, cookie or service
header. Redirects are followed by hand (at most 5), each hop looked at before connecting.
--no-links skips this; nothing then leaves the machine (except reading a --template).

\`campaign create\` runs the same checks and prints the warnings; \`create --strict\` refuses to send
when there is any (exit 2, nothing sent); \`create --no-links\` skips the link check.

Exit codes: 0 nothing to fix, or only warnings and notes · 5 warnings with --strict · 2 errors
(invalid input: create would refuse it).

With your own files:
  mailctl campaign preflight --file campaign.json --contacts contacts.csv --strict

Examples (each works against a fresh --sandbox):
  mailctl --sandbox campaign preflight --name Dec --group Newsletter --subject 'Hi \${NAME}' \\
      --from news@example.com --from-name Acme --html '<p>Your plan: \${PLAN}</p>' --field PLAN:string
  mailctl --sandbox campaign preflight --name Dec --group Newsletter --subject Welcome \\
      --preheader 'Glad you are here' --from news@example.com --from-name Acme --template tpl_welcome --strict
  mailctl --sandbox campaign preflight --name Dec --group Newsletter --subject Hi --from news@example.com \\
      --from-name Acme --html '<a href="http://sandbox.mailctl.invalid/links/404">Our shop</a>' --json`;

const PROOF_HELP = `
Sends the campaign as one contact would get it to your own address(es), through the notification
service's send endpoint (it needs that service's key), so you see the real message before the campaign goes
to thousands. It takes the same campaign flags (or --file, --template) as \`campaign create\`:
swap \`create\` for \`proof --to you@example.com\`; groups, schedule and one-time list are ignored.

\${FIELD}s are filled from one contact of --contacts FILE, read the way \`mailctl import\` reads the
file: the one whose EMAIL is --contact, or starting on line --contact N (the header is line 1), else
the first; --var NAME=value adds or overrides a value. A \${FIELD} left without a value is named in a warning and
sent as written. An A/B test sends both versions (two messages), or one with --only A|B.

What differs from the campaign send (also printed after each proof):
  - It is sent by the notification service: no unsubscribe footer (the campaign service adds one
    in the footer language), no campaign click tracking or utm tags; the notification service
    rewrites links for its own click tracking.
  - Every proof recipient gets the same values (one contact's).
  - The subject starts with "[Proof] " ("[Proof A] " / "[Proof B] " for A/B versions); a preheader
    is placed as hidden preview text at the top of the body.

Exit codes: 0 sent · 1 no address accepted · 5 some addresses refused · 2 invalid input, nothing sent.

With your own files:
  mailctl campaign proof --file campaign.json --to me@example.com --contacts contacts.csv --contact 3

Examples (each works against a fresh --sandbox):
  mailctl --sandbox campaign proof --to me@example.com --subject 'Hi \${NAME}' --from news@example.com \\
      --from-name Acme --html '<p>Hello \${NAME}, you are on \${PLAN}</p>' --var NAME=Ann --var PLAN=Gold
  mailctl --sandbox campaign proof --to me@example.com --ab subject --subject-a 'Hi \${NAME}' \\
      --subject-b 'Hello \${NAME}' --from news@example.com --from-name Acme --template tpl_welcome --var NAME=Ann
  mailctl --sandbox campaign proof --to me@example.com --subject Welcome --from news@example.com \\
      --from-name Acme --template tpl_monthly --var NAME=Ann --dry-run`;

function registerChecks(campaign: CommandUnknownOpts, action: ActionFactory): void {
  const create = campaign.commands.find((c) => c.name() === 'create')!;
  // The campaign inputs of `create`, shared as they are: one definition, three commands.
  const inputs = create.options.filter((o) => !['--wizard', '--dry-run', '--yes', '--strict', '--no-links'].includes(o.long ?? ''));
  declarePreflight(campaign, inputs).action(action(() => import('./preflight.js')));
  declareProof(campaign, inputs).action(action(() => import('./proof.js')));
  declarePreview(campaign, inputs).action(action(() => import('./preview.js')));
}

// The three commands that take a campaign's fields add them from the field table
// (src/campaign/fields.ts), so their options type is the declaration's own options together with
// CreateFlags, which is derived from the same table.

export function declareCreate(campaign: CommandUnknownOpts) {
  const create = campaign
    .command('create')
    .description('create a campaign (sent now, or scheduled with --at) from flags, a JSON file, or a wizard');
  // The campaign's fields, one option each, from the table in src/campaign/fields.ts.
  for (const o of campaignOptions()) create.addOption(o);
  return create
    .option('--file <campaign.json>', 'read the campaign from a JSON file (flags override it)')
    .option('--wizard', 'ask for everything that flags and --file leave open (needs a terminal)')
    .option('--dry-run', 'print the exact request (key masked) and send nothing')
    .addOption(skipsTerminalQuestion(new Opt('-y, --yes', 'do not show what goes out and ask first (only a terminal asks)')))
    .option('--strict', 'refuse to send (exit 2) when the preflight check finds any warning')
    .option('--no-links', 'skip the preflight link check')
    .addHelpText('after', CREATE_HELP);
}

/** `cmd` taking create's campaign inputs, after the options it declared so far. */
function withInputs<C extends CommandUnknownOpts>(cmd: C, inputs: readonly Option[]): C {
  for (const o of inputs) cmd.addOption(o);
  return cmd;
}

/** The link check's two options, as preflight and preview (which runs preflight's checks) take them. */
function linkCheckOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--no-links', 'do not check the links (nothing leaves the machine)')
    .option('--link-timeout <duration>', 'give up on a link after this long (default 10s)');
}

const FIELD_HELP = 'a custom field that exists (repeatable): PLAN or AGE:number';
const CONTACTS_HELP = 'fill ${FIELD}s from a contact of this file (default the first)';
const CONTACT_HELP = 'with --contacts: the contact with this address, or starting on this line (the header is line 1)';

export function declarePreflight(campaign: CommandUnknownOpts, inputs: readonly Option[]) {
  const preflight = withInputs(campaign
    .command('preflight')
    .description('check a campaign before creating it: fields, size, images, preheader, analytics tags, every link'), inputs)
    .option('--field <name[:type]>', FIELD_HELP, collect)
    .option('--contacts <contacts.csv>', 'a contacts file: its columns are the known custom fields');
  return linkCheckOptions(preflight)
    .option('--strict', 'exit 5 when there is any warning')
    .option('--csv', 'print the findings as CSV with a header row, for spreadsheets')
    .addHelpText('after', PREFLIGHT_HELP);
}

export function declareProof(campaign: CommandUnknownOpts, inputs: readonly Option[]) {
  return withInputs(campaign
    .command('proof')
    .description('send the campaign, filled from one contact, to your own inbox through the notification service')
    .option('--to <address>', 'who gets the proof (repeatable: --to a@example.com --to b@example.com)', collect), inputs)
    .option('--contacts <contacts.csv>', CONTACTS_HELP)
    .option('--contact <email-or-line>', CONTACT_HELP)
    .option('--var <name=value>', 'a ${FIELD} value (repeatable; wins over the contact\'s)', collect)
    .option('--only <A|B>', 'A/B test: send only this version (default both)')
    .option('--dry-run', 'print the exact requests (key masked) and send nothing')
    .addHelpText('after', PROOF_HELP);
}

const PREVIEW_HELP = `
Writes one HTML page showing the campaign as one contact gets it: sender, subject and preheader as
an inbox shows them, the body as the mail client renders it, and the preflight findings beside it
(the same checks as \`campaign preflight\`). It takes the same campaign flags (or --file, --template)
as \`campaign create\`, or --draft for a draft the wizard saved. Nothing is sent; the page is
written to --out, or to a new file in the config folder's previews/ (its path is printed).

\${FIELD}s are filled from one contact of --contacts FILE (read the way \`mailctl import\` reads it):
the one whose EMAIL is --contact (or starting on line --contact N), else the first; the file's columns also count as the known
custom fields. An A/B test shows both versions side by side.

The body is shown in a sandboxed frame: no script in it runs, it cannot reach the page or your
files, and the page itself loads nothing from the web (the mail's own images and styles do load,
as they would for the recipient). --web opens the page in the default browser; where there is
none (no graphical session, no xdg-open) the run says so and still exits 0 with the path.

Exit codes: 0 the page is written (findings are in it) · 2 invalid input, nothing written.

With your own files:
  mailctl campaign preview --file campaign.json --contacts contacts.csv --contact ann@example.com --web

Examples (each works against a fresh --sandbox):
  mailctl --sandbox campaign preview --subject 'Hi \${NAME}' --preheader 'Your plan: \${PLAN}' --from news@example.com \\
      --from-name Acme --html-file examples/newsletter.html --contacts examples/contacts.csv --no-links --out preview.html --force
  mailctl --sandbox campaign preview --ab subject --subject-a 'Hi \${NAME}' --subject-b 'Hello \${NAME}' \\
      --from news@example.com --from-name Acme --template tpl_welcome --no-links --json`;

export function declarePreview(campaign: CommandUnknownOpts, inputs: readonly Option[]) {
  const preview = withInputs(campaign
    .command('preview')
    .description('write an HTML page showing the campaign as one contact gets it, with the preflight findings (--web opens it)'), inputs)
    .option('--draft [name]', 'preview a draft the wizard saved (its file name in the drafts folder; default the newest)')
    .option('--contacts <contacts.csv>', CONTACTS_HELP)
    .option('--contact <email-or-line>', CONTACT_HELP)
    .option('--field <name[:type]>', FIELD_HELP, collect);
  return linkCheckOptions(preview)
    .option('--out <file>', 'write the page here (default: a new file in the config folder, printed)')
    .option('--force', 'overwrite --out if it exists')
    .option('--web', 'open the page in the default browser')
    .addHelpText('after', PREVIEW_HELP);
}

// ---- timezones, status, pause, delete ----

export function declareTimezones(campaign: CommandUnknownOpts) {
  return campaign
    .command('timezones')
    .description("list the service's 88 time zone codes with their cities and current UTC offsets")
    .addHelpText('after', `
Examples:
  mailctl campaign timezones
  mailctl campaign timezones --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareStatus(campaign: CommandUnknownOpts) {
  return campaign
    .command('status')
    .description('show a campaign\'s status in words; --wait follows it until it is sent or stops')
    .addArgument(campaignCodeArgument('<code>', 'campaign code'))
    .option('--wait', 'poll until the campaign is sent, stopped, paused, or scheduled for later')
    .option('--timeout <duration>', 'with --wait: give up after this long (e.g. 30m)')
    .addHelpText('after', `
With --wait the exit code is 1 when the campaign ends in a failed state (OVER_LIMIT,
EMPTY_RECIPIENT, INSUFFICIENT_RECIPIENT_FOR_TESTING, UNAUTHENTICATED_SENDER), else 0.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --name "Hello" --group Newsletter --subject "Hello" --html "<p>Hello</p>"
  mailctl campaign status CP123
  mailctl campaign status CP123 --wait --timeout 30m`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declarePause(campaign: CommandUnknownOpts) {
  return campaign
    .command('pause')
    .description('pause a scheduled (or, per the vendor, sending) campaign; there is no resume')
    .addArgument(campaignCodeArgument('<code>', 'campaign code'))
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
The spec pauses scheduled campaigns; the vendor's reference says a sending one can be paused
too. mailctl does not judge by status: it sends the pause and reports what the service answers
(decisions row 32). A campaign already paused is reported as such and nothing is sent.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --name "Spring sale" --group Newsletter --subject "Spring sale" \\
      --html-file examples/newsletter.html --at "2030-03-01 09:00" --timezone Asia/Taipei
  mailctl campaign pause CP123 --dry-run
  mailctl campaign pause CP123 --yes`);
}

export function declareDelete(campaign: CommandUnknownOpts) {
  return campaign
    .command('delete')
    .alias('rm')
    .description('delete campaigns that are sent, scheduled or paused (not while preparing or sending)')
    .addArgument(campaignCodeArgument('<codes...>', 'campaign codes'))
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Exit codes: 0 all deleted · 5 some could not be deleted · 1 none deleted · 2 not confirmed.

Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl campaign create --name "Old news" --group Newsletter --subject "Old news" --html "<p>Hi</p>" \\
      --at "2030-03-01 09:00" --timezone Asia/Taipei
  mailctl campaign delete CP123 --dry-run
  mailctl campaign delete CP123 --yes`);
}

// ---- list: the campaigns mailctl created (the service has no listing), with their live status ----

export function declareList(campaign: CommandUnknownOpts) {
  return campaign
    .command('list')
    .alias('ls')
    .description('list the campaigns created here, newest first, each with its status now; --all adds finished ones from the service')
    // --since/--until, as everywhere a time range is read; declared here rather than through
    // rangeOptions, whose hidden old spelling --from means the sender in `campaign` commands.
    .option('--since <time>', 'campaigns created since: YYYY-MM-DD (UTC day), an ISO date-time, or a span back such as 30d')
    .option('--until <time>', 'campaigns created until (that whole day when a date)')
    .addOption(offer(new Opt('--status <list>', 'only these statuses, comma-separated (e.g. PREPARE,STOP; NOT_FOUND for deleted ones)'), LIST_STATUSES, { list: true }))
    .option('--all', 'also list finished campaigns from the service (`report list`): made elsewhere, or before this list existed')
    .option('--limit <n>', 'show at most this many (default 30; each shown campaign made here costs one status lookup)')
    .addHelpText('after', `
The service has no endpoint that lists campaigns, so mailctl keeps a list of every campaign
\`campaign create\` makes, per profile and campaign-service URL, in the config folder (code, name,
kind, groups, schedule, time created). Each is shown with its status now (one status lookup each,
paced to the service's 2 requests a second). With --all, finished campaigns the service lists
(the 10 most recent, or those sent between --since and --until) are added; their date is when
they were sent. NOT_FOUND: the service has no campaign by that code any more (deleted).

Examples:
  mailctl campaign list
  mailctl campaign list --status PREPARE,STOP
  mailctl campaign list --since 7d --json
  mailctl campaign list --all --since 2026-11-01 --until 2026-11-30 --csv`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}
