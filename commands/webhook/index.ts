import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';
import { collect } from '../../src/cli/collect.js';

const TYPES = 'email: delivery (3), open (4), click (5), bounce (6), complaint (7); with --sms: delivery (3), bounce (6)';

export function register(program: Command, action: ActionFactory): void {
  const w = program.command('webhook').alias('webhooks').description('register, receive and verify notification-service webhooks');
  w.command('list').alias('ls').description('list registered webhooks').option('--sms', 'the SMS webhooks').action(action(() => import('./list.js')));
  w.command('set')
    .description('register (or replace) the webhook of one event type')
    .argument('<type>', TYPES)
    .argument('<url>', 'where the service POSTs the events')
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('--dry-run', 'show the request without sending it')
    .action(action(() => import('./set.js')));
  w.command('delete')
    .description('remove the webhook of one event type')
    .argument('<type>', TYPES)
    .option('--sms', 'an SMS webhook (delivery or bounce only)')
    .option('--yes', 'do not ask for confirmation')
    .option('--dry-run', 'show the request without sending it')
    .action(action(() => import('./delete.js')));
  w.command('verify')
    .description('check a webhook payload against its signature (exit 0 valid, 1 invalid)')
    .argument('[payload]', 'the request body as received: a file, or "-"/nothing for stdin')
    .requiredOption('--signature <hex>', 'the x-service-signature (or x-surenotify-signature) header value')
    .addHelpText('after', `
The signature is the hex HMAC-SHA256 of the message id (mail.id or sms_data.id) followed by the
event name (event, or eventType), keyed with the notification-service key of the profile.`)
    .action(action(() => import('./verify.js')));
  w.command('listen')
    .description('receive webhooks locally: verify, store as JSONL, optionally forward')
    .option('--port <n>', 'port to listen on (default 8787; 0 picks a free one)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--out <file>', 'JSONL file the verified events are appended to, created 0600 (default ./webhook-events.jsonl)')
    .option('--force', 'with --out (or --failed-out) naming a symbolic link: replace the link with a new file')
    .option('--forward <url>', 're-post each verified event (same body and signature header) to a local app; with --route, each event no route names')
    .option('--route <event=url>', 're-post this event to its own URL (repeatable); event: delivery, open, click, bounce, complaint, sms-delivery, sms-bounce', collect)
    .option('--failed-out <file>', 'JSONL file for events that could not be forwarded, same lines as --out (default: beside --out, NAME.failed.jsonl)')
    .option('--max-body <bytes>', 'largest body accepted; bigger ones get 413 (default 262144, at most 8388608)')
    .addHelpText('after', `
Requests without a valid signature get 401 and are not stored. Each stored event is on disk
(fsync'd) before the 200 goes back; the file is only ever appended to. A repeat of one of the
last 20,000 stored events (same message id and event) gets 200 and is neither stored nor
forwarded again. At most 64 connections at once; headers must arrive within 5 s and a whole
request within 10 s, or the connection is dropped.

Forwarding happens after the 200. An event goes to its --route URL, else to --forward, else it is
only stored. A forward that gets no connection, no answer within 10 s, 408, 429 or 5xx is tried
up to 6 times (waits of about 0.5, 1, 2, 4, 8 s, cut at random; a Retry-After up to 30 s is
honoured; given up 60 s after the first try); any other answer is the app refusing it, not
retried. At most 8 forwards are under way at once; the rest wait in line. An event not
forwarded — refused, failed, arriving when 10,000 events (or 32 MiB) are already held, or still
held at Ctrl-C — is appended (0600) to the --failed-out file in the --out line format, so
\`mailctl webhook replay FILE --to URL\` can send it again. For example:
  mailctl webhook listen --route bounce=http://127.0.0.1:3000/bounces \\
    --route sms-bounce=http://127.0.0.1:3000/sms --forward http://127.0.0.1:3000/hooks

The service must reach the listener from the internet. Tunnels are not part of mailctl; start
one next to it and register the tunnel's public https URL, for example:
  mailctl webhook listen --port 8787 --forward http://127.0.0.1:3000/hooks
  cloudflared tunnel --url http://127.0.0.1:8787      (or: ngrok http 8787)
  mailctl webhook set delivery https://<your-tunnel-host>/`)
    .action(action(() => import('./listen.js')));
}
