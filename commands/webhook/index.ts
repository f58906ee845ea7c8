import { Argument, Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { offer, type OfferContext } from '../../src/run/offer.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../../src/api/notify-types.js';
import { collect } from '../../src/core/collect.js';
import { FORM_NAMES, formHelp } from '../../src/webhook/forms.js';

/** HMAC-SHA256 of examples/webhook-payload.json's mail.id + event, keyed with the sandbox's notification key. */
const EXAMPLE_SIGNATURE = '15b3df1cfb2db579d47e97cda508c783dd97e4d5286880809d28229c8bdd0dba';
const TYPES = 'email: delivery (3), open (4), click (5), bounce (6), complaint (7); with --sms: delivery (3), bounce (6)';
const typeArgument = () => offer(new Argument('<type>', TYPES), (c: OfferContext) => Object.keys(c.flags.has('--sms') ? SMS_WEBHOOK_TYPES : EMAIL_WEBHOOK_TYPES));

export function register(program: Command, action: ActionFactory): void {
  const w = program.command('webhook').alias('webhooks').description('register, receive and verify notification-service webhooks')
    .addHelpText('after', `
The service POSTs each delivery event to the URL registered for its type, signed with your
notification key; \`webhook listen\` receives and stores them, \`webhook verify\` checks one.

Examples:
  mailctl webhook set delivery https://hooks.example.com/mail
  mailctl webhook list
  mailctl webhook verify examples/webhook-payload.json --signature ${EXAMPLE_SIGNATURE}`);
  declareList(w).action(action(() => import('./list.js')));
  declareSet(w).action(action(() => import('./set.js')));
  declareDelete(w).action(action(() => import('./delete.js')));
  declareVerify(w).action(action(() => import('./verify.js')));
  declareListen(w).action(action(() => import('./listen.js')));
  declareTrigger(w).action(action(() => import('./trigger.js')));
  declareReplay(w).action(action(() => import('./replay.js')));
}

export function declareList(w: CommandUnknownOpts) {
  return w.command('list').alias('ls').description('list registered webhooks').option('--sms', 'the SMS webhooks')
    .addHelpText('after', `
Examples:
  mailctl webhook list
  mailctl webhook list --sms --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareSet(w: CommandUnknownOpts) {
  return w.command('set')
    .description('register (or replace) the webhook of one event type')
    .addArgument(typeArgument())
    .argument('<url>', 'where the service POSTs the events')
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Examples:
  mailctl webhook set delivery https://hooks.example.com/mail
  mailctl webhook set bounce https://hooks.example.com/sms --sms
  mailctl webhook set 7 https://hooks.example.com/complaints --dry-run`);
}

export function declareDelete(w: CommandUnknownOpts) {
  return w.command('delete')
    .description('remove the webhook of one event type')
    .addArgument(typeArgument())
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Examples:
  mailctl webhook set bounce https://hooks.example.com/mail
  mailctl webhook delete bounce --dry-run
  mailctl webhook delete bounce --yes`);
}

export function declareVerify(w: CommandUnknownOpts) {
  return w.command('verify')
    .description('check a webhook payload against its signature (exit 0 valid, 1 invalid)')
    .argument('[payload]', 'the request body as received: a file, or "-"/nothing for stdin')
    .requiredOption('--signature <hex>', 'the x-service-signature (or x-surenotify-signature) header value')
    .addHelpText('after', `
The signature is the hex HMAC-SHA256 of the message id followed by the event, keyed with the
notification-service key of the profile. The id is read from mail.id, sms_data.id or a top-level
id, the event from event or eventType, by name (delivery) or type code (3-7); the event may be
signed as either (the vendor's reference signs "msg-123" + "3"). Each (id, event) the payload
states is tried; only the events the service sends count (email: delivery open click bounce
complaint, 3-7; SMS: delivery bounce, 3 and 6). --json says which matched (idField, eventField,
signedAs). (The example's signature is the one the sandbox's key gives.)

Examples:
  mailctl webhook verify examples/webhook-payload.json --signature ${EXAMPLE_SIGNATURE}
  cat examples/webhook-payload.json | mailctl webhook verify --signature ${EXAMPLE_SIGNATURE} --json
  mailctl webhook verify examples/webhook-payload.json --signature 00ff   # exit 1: not signed with this key`);
}

export function declareListen(w: CommandUnknownOpts) {
  return w.command('listen')
    .description('receive webhooks locally: verify, store (SQLite or PostgreSQL), optionally forward')
    .option('--port <n>', 'port to listen on (default 8787; 0 picks a free one)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--store <where>', 'sqlite:PATH or postgres://USER@HOST/DB (default: events.db in the config folder)')
    .option('--keep <duration>', 'remove events older than this, at start and daily (e.g. 400d; default: keep all)')
    .option('--out <file>', 'also append each stored event to this JSONL file, created 0600 (for `webhook replay`)')
    .option('--force', 'with --out (or --failed-out) naming a symbolic link: replace the link with a new file')
    .option('--forward <url>', 're-post each verified event (same body and signature header) to a local app; with --route, each event no route names')
    .option('--route <event=url>', 're-post this event to its own URL (repeatable); event: delivery, open, click, bounce, complaint, sms-delivery, sms-bounce', collect)
    .option('--failed-out <file>', 'JSONL file for events that could not be forwarded, same lines as --out (default: beside --out, NAME.failed.jsonl; without --out ./webhook-events.failed.jsonl)')
    .option('--max-body <bytes>', 'largest body accepted; bigger ones get 413 (default 262144, at most 8388608)')
    .addHelpText('after', `
Every verified event is stored in the event store — SQLite, one file in the config folder by
default, or --store sqlite:PATH; PostgreSQL with --store postgres://… (the password in PGPASSWORD),
so that several listeners share one history — and the 200 goes back only after the commit. Events
arriving together are committed together. An event that could not be stored whole (the commit
failed, the disk is full) gets 503, and the service sends it again. Requests without a valid
signature get 401 and are not stored (checked as \`webhook verify\` checks, in every form the
vendor's reference shows: see its --help). A repeat of a stored event (same channel, message id and
event; any age, stored by any listener on the store) gets 200 and is neither stored nor
forwarded again. Read the store with \`mailctl events --history\` (docs/events-store.md).
At most 64 connections at once; headers must arrive within 5 s and a whole request within 10 s,
or the connection is dropped. Ctrl-C, SIGTERM and SIGHUP stop it alike.

Forwarding happens after the 200. An event goes to its --route URL, else to --forward, else it is
only stored. A forward that gets no connection, no answer within 10 s, 408, 429 or 5xx is tried
up to 6 times (waits of about 0.5, 1, 2, 4, 8 s, cut at random; a Retry-After up to 30 s is
honoured; given up 60 s after the first try); any other answer is the app refusing it, not
retried. At most 8 forwards are under way at once; the rest wait in line. An event not
forwarded — refused, failed, arriving when 10,000 events (or 32 MiB) are already held, or still
held at Ctrl-C — is appended (0600) to the --failed-out file in the --out line format, so
\`mailctl webhook replay FILE --url URL\` can send it again. For example:
  mailctl webhook listen --route bounce=http://127.0.0.1:3000/bounces \\
    --route sms-bounce=http://127.0.0.1:3000/sms --forward http://127.0.0.1:3000/hooks

The service must reach the listener from the internet. Tunnels are not part of mailctl; start
one next to it and register the tunnel's public https URL, for example:
  mailctl webhook listen --port 8787 --forward http://127.0.0.1:3000/hooks
  cloudflared tunnel --url http://127.0.0.1:8787      (or: ngrok http 8787)
  mailctl webhook set delivery https://<your-tunnel-host>/

Examples:
  mailctl webhook listen --port 0 --keep 400d           # until Ctrl-C (0: any free port)
  mailctl webhook listen --port 0 --store sqlite:events.db --out events.jsonl   # until Ctrl-C
  mailctl webhook listen --port 0 --max-body 65536      # until Ctrl-C`);
}

const TRIGGER_HELP = `
EVENT: delivery, open, click, bounce, complaint (email; or 3-7) · sms-delivery, sms-bounce (SMS;
or --sms delivery|bounce). The payload has the service's shape (spec section 6): email
{event, mail:{id,subject,content,from,to,variables}, <event>:{timestamp,...}}, SMS
{event, sms_data:{id,content,recipient,address,country_code,variables,alive_mins}, <event>:{...}},
with made-up values and a fresh mail.id / sms_data.id each time. It is signed like the service's:
hex HMAC-SHA256 of id + event, keyed with the profile's notification key (MAILCTL_NOTIFY_API_KEY),
which itself is never sent.

--form sends it the way the vendor's reference shows instead (decisions row 27), so a consumer
can be tested with each form the service may really use (\`webhook listen\`, \`verify\` and
\`replay\` accept all of them):
{FORMS}

--set FIELD=VALUE (repeatable) changes one field by its dotted path. Numbers where the spec has
numbers (timestamp, bounce.type, SMS delivery.point, sms_data.alive_mins; a timestamp also takes
an ISO date), text elsewhere; FIELD:=JSON sends any JSON value as written.

Prints the consumer's answer (status, time, the start of its body).
Exit codes: 0 answered 2xx · 1 answered otherwise · 4 unreachable or no answer in time · 2 invalid input, nothing sent.

Against your consumer, with your profile's key:
  mailctl webhook trigger click --url http://127.0.0.1:3000/hooks --set mail.subject=Hi --set 'mail.variables.name=Ann'

Examples (each works against a fresh --sandbox; drop --dry-run to send):
  mailctl --sandbox webhook trigger bounce --url http://127.0.0.1:3000/hooks --set bounce.type=0 --dry-run
  mailctl --sandbox webhook trigger sms-delivery --url http://127.0.0.1:3000/hooks --set sms_data.address=0987654321 --dry-run
  mailctl --sandbox webhook trigger delivery --url http://127.0.0.1:3000/hooks --form vendor --dry-run`;

const REPLAY_HELP = `
Reads the JSONL file \`webhook listen --out\` writes (one stored event a line: receivedAt, event, id,
channel, signatureHeader, signature, payload; a line holding a bare payload is taken too) and POSTs
each payload, in file order, one at a time, with the signature it arrived with, under the header
name it came with (or --signature-header): your consumer gets what the service sent, so it must
verify with the key of that time. --resign signs each event again with the profile's current
notification key instead. Lines without a stored signature (files of listeners before
mailctl kept it, bare payloads) are always signed again, and the run says so.

The whole file is checked before anything is sent: a damaged line stops the replay (exit 2) and
is named. After Ctrl-C, or when the consumer cannot be reached, the command to continue from the
first line not confirmed is printed (that line may be sent twice).

Each answer: a line on a terminal, NDJSON when piped; --json prints one summary at the end.

Exit codes: 0 every answer 2xx · 5 some were not · 1 none was · 4 unreachable (stopped)
· 2 bad file or flags, nothing sent · 130 interrupted.

Against your consumer, with the file your listener wrote:
  mailctl webhook replay webhook-events.jsonl --url http://127.0.0.1:3000/hooks --rate 20/s --from-line 120

Examples (each works against a fresh --sandbox; drop --dry-run to send):
  mailctl --sandbox webhook replay examples/webhook-events.jsonl --url http://127.0.0.1:3000/hooks --dry-run
  mailctl --sandbox webhook replay examples/webhook-events.jsonl --url http://127.0.0.1:3000/hooks --from-line 2 --dry-run --json`;

export function declareTrigger(w: CommandUnknownOpts) {
  return w.command('trigger')
    .description('send a signed synthetic event (email or SMS) to your own webhook consumer')
    .argument('<event>', 'delivery, open, click, bounce, complaint, sms-delivery or sms-bounce')
    .option('--url <url>', 'your webhook consumer: where the signed event is posted')
    .option('--sms', 'an SMS event (delivery or bounce)')
    .option('--set <field=value>', 'change one payload field by its dotted path (repeatable)', collect)
    .addOption(offer(new Option('--form <name>', `the payload and signature form: ${FORM_NAMES.join(', ')} (default spec; see below)`), FORM_NAMES))
    .option('--signature-header <name>', 'the header the signature goes under: x-service-signature (the spec\'s) or x-surenotify-signature (default: the form\'s)')
    .option('--timeout <duration>', 'give up waiting for the answer after this long (default 10s)')
    .option('--dry-run', 'print the request (headers, body) and send nothing')
    .addHelpText('after', () => TRIGGER_HELP.replace('{FORMS}', formHelp()))
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareReplay(w: CommandUnknownOpts) {
  return w.command('replay')
    .description('re-send the events `webhook listen --out` stored to a consumer, in order, as signed (or --resign)')
    .argument('<file>', 'the JSONL file of `webhook listen --out`')
    .option('--url <url>', 'your webhook consumer: where each stored event is posted')
    .option('--rate <n/s>', 'at most this many events a second (or N/m a minute; default 5/s)')
    .option('--from-line <n>', 'start at this line of the file (to continue a replay)')
    .option('--signature-header <name>', 'send every signature under this header instead of the one each event came with')
    .option('--resign', 'sign each event again with the current key instead of sending the signature it arrived with')
    .option('--timeout <duration>', 'give up waiting for one answer after this long (default 10s)')
    .option('--dry-run', 'check the file and list what would be sent; send nothing')
    .addHelpText('after', REPLAY_HELP);
}
