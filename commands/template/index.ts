import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  const t = program.command('template').alias('templates').description('email templates');
  t.command('list').alias('ls').description('list templates and the account capacity').action(action(() => import('./list.js')));
  t.command('show')
    .description('show one template; --out writes its html to a file')
    .argument('<id>', 'template id')
    .option('--out <file>', 'write the html to this file ("-" for stdout)')
    .option('--force', 'overwrite --out if it exists')
    .action(action(() => import('./show.js')));
}
