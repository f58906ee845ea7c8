import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  program
    .command('balance')
    .description('show the remaining email and SMS balance')
    .action(action(() => import('./show.js')));
}
