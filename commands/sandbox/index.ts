import { Argument, Option, type Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';
import { collect } from '../../src/cli/collect.js';
import { offer } from '../../src/cli/offer.js';
import { SHAPES, shapeHelp } from '../../src/sandbox/shapes.js';

export function register(program: Command, action: ActionFactory): void {
  const s = program.command('sandbox').description('the built-in emulator of both services (no account needed)');
  s.command('serve')
    .description('serve the sandbox over HTTP on 127.0.0.1 and print its base URLs')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--daily-limit <n>', 'campaign-service requests allowed per day (spec: 300000)')
    .option('--no-rate-limit', 'turn off the 2 requests/second limit')
    .addOption(offer(new Option('--shape <name=value>', 'answer with a documented alternate response shape (repeatable; "alternate" for all)').argParser(collect), [
      'alternate', ...Object.entries(SHAPES).flatMap(([name, s]) => s.values.map((v) => `${name}=${v}`)),
    ]))
    .addHelpText('after', () => `
Response shapes (--shape NAME=VALUE; the first value is the spec's and the default):
${shapeHelp().join('\n')}
--shape alternate serves every alternate at once: mailctl reads all of them.`)
    .action(action(() => import('./serve.js')));
  const field = s
    .command('field')
    .alias('fields')
    .description('custom contact fields of the sandbox (the real service defines them in its back office)');
  field
    .command('add')
    .description('define a custom field; its type is fixed once created, as in the service')
    .argument('<name>', 'field name, e.g. TIER')
    .addArgument(offer(new Argument('<type>', 'string, number or date'), ['string', 'number', 'date']))
    .option('--dry-run', 'show the request without sending it')
    .action(action(() => import('./field-add.js')));
  field.command('list').alias('ls').description('list the custom fields').action(action(() => import('./field-list.js')));
  s.command('reset')
    .description('forget everything the --sandbox state holds')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show what would be forgotten; delete nothing')
    .action(action(() => import('./reset.js')));
}
