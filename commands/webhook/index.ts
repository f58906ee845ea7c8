import { Argument, type Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';
import { offer, type OfferContext } from '../../src/cli/offer.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../../src/api/notify-types.js';

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
  w.command('list').alias('ls').description('list registered webhooks').option('--sms', 'the SMS webhooks')
    .addHelpText('after', `
Examples:
  mailctl webhook list
  mailctl webhook list --sms --json`)
    .action(action(() => import('./list.js')));
  w.command('set')
    .description('register (or replace) the webhook of one event type')
    .addArgument(typeArgument())
    .argument('<url>', 'where the service POSTs the events')
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Examples:
  mailctl webhook set delivery https://hooks.example.com/mail
  mailctl webhook set bounce https://hooks.example.com/sms --sms
  mailctl webhook set 7 https://hooks.example.com/complaints --dry-run`)
    .action(action(() => import('./set.js')));
  w.command('delete')
    .description('remove the webhook of one event type')
    .addArgument(typeArgument())
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Examples:
  mailctl webhook set bounce https://hooks.example.com/mail
  mailctl webhook delete bounce --dry-run
  mailctl webhook delete bounce --yes`)
    .action(action(() => import('./delete.js')));
  w.command('verify')
    .description('check a webhook payload against its signature (exit 0 valid, 1 invalid)')
    .argument('[payload]', 'the request body as received: a file, or "-"/nothing for stdin')
    .requiredOption('--signature <hex>', 'the x-service-signature (or x-surenotify-signature) header value')
    .addHelpText('after', `
The signature is the hex HMAC-SHA256 of the message id (mail.id or sms_data.id) followed by the
event name (event, or eventType), keyed with the notification-service key of the profile.
(The example's signature is the one the sandbox's key gives.)

Examples:
  mailctl webhook verify examples/webhook-payload.json --signature ${EXAMPLE_SIGNATURE}
  cat examples/webhook-payload.json | mailctl webhook verify --signature ${EXAMPLE_SIGNATURE} --json
  mailctl webhook verify examples/webhook-payload.json --signature 00ff   # exit 1: not signed with this key`)
    .action(action(() => import('./verify.js')));
  w.command('listen')
    .description('receive webhooks locally: verify, store as JSONL, optionally forward')
    .option('--port <n>', 'port to listen on (default 8787; 0 picks a free one)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--out <file>', 'JSONL file the verified events are appended to, created 0600 (default ./webhook-events.jsonl)')
    .option('--force', 'with --out naming a symbolic link: replace the link with a new file')
    .option('--forward <url>', 're-post each verified event (same body and signature header) to a local app')
    .option('--max-body <bytes>', 'largest body accepted; bigger ones get 413 (default 262144, at most 8388608)')
    .addHelpText('after', `
Requests without a valid signature get 401 and are not stored. Each stored event is on disk
(fsync'd) before the 200 goes back; the file is only ever appended to. A repeat of one of the
last 20,000 stored events (same message id and event) gets 200 and is neither stored nor
forwarded again. At most 64 connections at once; headers must arrive within 5 s and a whole
request within 10 s, or the connection is dropped.

The service must reach the listener from the internet. Tunnels are not part of mailctl; start
one next to it and register the tunnel's public https URL, for example:
  mailctl webhook listen --port 8787 --forward http://127.0.0.1:3000/hooks
  cloudflared tunnel --url http://127.0.0.1:8787      (or: ngrok http 8787)
  mailctl webhook set delivery https://<your-tunnel-host>/

Examples:
  mailctl webhook listen --port 0 --out events.jsonl    # until Ctrl-C (0: any free port)
  mailctl webhook listen --port 0 --max-body 65536      # until Ctrl-C`)
    .action(action(() => import('./listen.js')));
}
