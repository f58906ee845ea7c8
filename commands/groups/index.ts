import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  const groups = program.command('groups').alias('group').description('contact groups (lists)');
  groups
    .command('list')
    .alias('ls')
    .description('list contact groups')
    .option('--page <n>', 'page to show, starting at 0')
    .option('--size <n>', 'groups per page')
    .option('--all', 'walk every page (paced to the rate limit)')
    .action(action(() => import('./list.js')));
  groups
    .command('create')
    .description('create a contact group and print its code')
    .argument('<name>', 'group name')
    .option('--dry-run', 'show the request without sending it')
    .action(action(() => import('./create.js')));
}
