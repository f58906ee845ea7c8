import type { Command } from 'commander';
import type { ActionFactory } from '../../src/cli/main.js';

export function register(program: Command, action: ActionFactory): void {
  const sms = program.command('sms').description('SMS account settings (to send SMS: mailctl send sms)');
  sms.command('numbers').description('list the exclusive sending numbers of the account').action(action(() => import('./numbers.js')));
}
