import { Argument, Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';
import { offer } from '../../src/run/offer.js';
import { SHAPES, shapeHelp } from '../../src/sandbox/shapes.js';

export function register(program: Command, action: ActionFactory): void {
  const s = program.command('sandbox').description('the built-in emulator of both services (no account needed)')
    .addHelpText('after', `
--sandbox runs any command against an emulator inside mailctl, its state kept in the config
folder; \`sandbox serve\` offers the same emulator over HTTP to other programs. In it,
news@example.com is the default sender and example.com a verified domain.

Examples:
  mailctl --sandbox groups create Newsletter
  mailctl --sandbox send --to a@example.com --subject Hi --html "<p>Hi</p>"
  mailctl sandbox serve --port 0     # until Ctrl-C
  mailctl sandbox reset --yes`);
  declareServe(s).action(action(() => import('./serve.js')));
  const field = s
    .command('field')
    .alias('fields')
    .description('custom contact fields of the sandbox (the real service defines them in its back office)')
    .addHelpText('after', `
Examples:
  mailctl --sandbox sandbox field add TIER string
  mailctl --sandbox sandbox field list`);
  declareFieldAdd(field).action(action(() => import('./field-add.js')));
  declareFieldList(field).action(action(() => import('./field-list.js')));
  declareBalance(s).action(action(() => import('./balance.js')));
  declareReset(s).action(action(() => import('./reset.js')));
}

export function declareServe(s: CommandUnknownOpts) {
  return s.command('serve')
    .description('serve the sandbox over HTTP on 127.0.0.1 and print its base URLs')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--daily-limit <n>', 'campaign-service requests allowed per day (spec: 300000)')
    .option('--no-rate-limit', 'turn off the 2 requests/second limit')
    .addOption(offer(new Option('--shape <name=value>', 'answer with a documented alternate response shape (repeatable; "alternate", "last" or "unknown" for all)').argParser(collect), [
      'alternate', 'last', 'spec', 'unknown', ...Object.entries(SHAPES).flatMap(([name, s]) => s.values.map((v) => `${name}=${v}`)),
    ]))
    .addHelpText('after', () => `
Response shapes (--shape NAME=VALUE; the first value is the spec's and the default):
${shapeHelp().join('\n')}
--shape alternate serves every second value at once, --shape last every last one: mailctl reads
all of them. --shape unknown wraps every answer in a key nobody documents ({"unexpected": …}):
every command that reads one must fail with BAD_RESPONSE (exit 1), never show "nothing".

Examples:
  mailctl sandbox serve --port 0                           # until Ctrl-C
  mailctl sandbox serve --port 0 --shape alternate --no-rate-limit   # until Ctrl-C`);
}

export function declareFieldAdd(field: CommandUnknownOpts) {
  return field
    .command('add')
    .description('define a custom field; its type is fixed once created, as in the service')
    .argument('<name>', 'field name, e.g. TIER')
    .addArgument(offer(new Argument('<type>', 'string, number or date'), ['string', 'number', 'date']))
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `
Examples:
  mailctl --sandbox sandbox field add SCORE number
  mailctl --sandbox sandbox field add RENEWS date --dry-run
  mailctl --sandbox import examples/contacts.csv --group Newsletter --create-group --dry-run`);
}

export function declareFieldList(field: CommandUnknownOpts) {
  return field.command('list').alias('ls').description('list the custom fields')
    .addHelpText('after', `
Examples:
  mailctl --sandbox sandbox field list
  mailctl --sandbox sandbox field list --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareBalance(s: CommandUnknownOpts) {
  return s.command('balance')
    .description('show or set the sandbox balance (the real one is topped up in the back office)')
    .option('--set-email <n>', 'set the email balance')
    .option('--set-sms <n>', 'set the SMS balance (in parts)')
    .option('--dry-run', 'show the request that would set it, and send nothing')
    .addHelpText('after', `
Examples:
  mailctl --sandbox sandbox balance --set-sms 3     # then: mailctl --sandbox send sms … is refused
  mailctl --sandbox sandbox balance`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareReset(s: CommandUnknownOpts) {
  return s.command('reset')
    .description('forget everything the --sandbox state holds')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show what would be forgotten; delete nothing')
    .addHelpText('after', `
Examples:
  mailctl sandbox reset --dry-run
  mailctl sandbox reset --yes`);
}
