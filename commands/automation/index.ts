import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';
import { collect } from '../../src/cli/collect.js';


const HELP = `
Recipients: one with --to (plus --name and --var k=v), or many with --recipients: a CSV with an
"address" (or "email") column, an optional "name" column and one column per variable, or a JSON
array of {"address", "name", "variables": {...}}. More than 100 go out as requests of 100, one
after another. Variable values are checked first (at most 100 characters, not starting with a
digit, no mathematical expressions); any problem stops the run before a request.

Exit codes: 0 all accepted · 5 some refused (listed with the service's reason) · 1 none accepted ·
2 bad input, nothing sent.`;

function eventCommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .option('--workflow <id>', 'workflow id (set when the workflow was created in the back office)')
    .option('--to <email>', 'one recipient')
    .option('--name <name>', 'name of the --to recipient')
    .option('--var <name=value>', 'a variable of the --to recipient (repeatable)', collect)
    .option('--recipients <file>', 'many recipients: CSV or JSON')
    .option('--dry-run', 'print the exact requests (key masked) and send nothing')
    .addHelpText('after', HELP);
}

export function register(program: Command, action: ActionFactory): void {
  const automation = program.command('automation').description('start or stop recipients in automation workflows');
  eventCommand(automation, 'trigger', 'start recipients in a workflow (event TRIGGER)')
    .addHelpText('after', '\nExample:\n  mailctl automation trigger --workflow welcome --to new@example.com --name Ann --var plan=pro')
    .action(action(() => import('./trigger.js')));
  eventCommand(automation, 'terminate', 'end recipients\' run through a workflow early (event TERMINATE)')
    .addHelpText('after', '\nExample:\n  mailctl automation terminate --workflow welcome --recipients churned.csv')
    .action(action(() => import('./terminate.js')));
}
