// Every noun registers its subcommands here. Registration loads only commander; the code
// that runs a command is imported when that command runs (keeps --help and --version fast).
import type { Command } from 'commander';
import type { ActionFactory } from '../src/cli/main.js';
import { register as balance } from './balance/index.js';
import { register as groups } from './groups/index.js';
import { register as template } from './template/index.js';
import { register as config } from './config/index.js';
import { register as sandbox } from './sandbox/index.js';
import { register as send } from './send/index.js';
import { register as webhook } from './webhook/index.js';
import { register as events } from './events/index.js';
import { register as sms } from './sms/index.js';
import { register as domain } from './domain/index.js';
import { register as importer } from './import/index.js';
import { register as contacts } from './contacts/index.js';
import { register as campaign } from './campaign/index.js';
import { register as report } from './report/index.js';
import { register as automation } from './automation/index.js';

export function registerAll(program: Command, action: ActionFactory): void {
  for (const register of [groups, template, balance, config, sandbox, send, webhook, events, sms, domain, importer, contacts, campaign, report, automation]) register(program, action);
}
