// The nouns of mailctl. Start-up builds only the noun being run (each verb's code still loads
// lazily, when it runs); the others appear as one-line entries so `mailctl --help` can list them and commander can
// suggest a near miss. test/commands-registry.test.ts keeps these lines equal to what each
// noun registers.
import type { Command as CommanderCommand } from 'commander';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../src/cli/declared.js';
import { scanArgv, type ArgvScan } from '../src/cli/argv-scan.js';
import { register as importer } from './import/index.js';
import { register as contacts } from './contacts/index.js';
import { register as groups } from './groups/index.js';
import { register as campaign } from './campaign/index.js';
import { register as report } from './report/index.js';
import { register as template } from './template/index.js';
import { register as automation } from './automation/index.js';
import { register as balance } from './balance/index.js';
import { register as send } from './send/index.js';
import { register as webhook } from './webhook/index.js';
import { register as events } from './events/index.js';
import { register as sms } from './sms/index.js';
import { register as domain } from './domain/index.js';
import { register as config } from './config/index.js';
import { register as sandbox } from './sandbox/index.js';
import { register as doctor } from './doctor/index.js';
import { register as completion } from './completion/index.js';
import { register as mcp, SUMMARY as MCP_SUMMARY } from './mcp/index.js';

export interface Noun {
  name: string;
  aliases: string[];
  summary: string;
  /**
   * Registration only (commander calls); each verb's code still loads when it runs. Nouns declare
   * on @commander-js/extra-typings' typed view of the program; tests hand in commander's own
   * Command, the same class at runtime. (Method syntax, so a noun's register that takes the
   * typed view fits here.)
   */
  register(program: CommanderCommand | CommandUnknownOpts, action: ActionFactory): void;
}

export const NOUNS: Noun[] = [
  { name: 'import', aliases: [], summary: 'check a contacts CSV locally, upload it into a group, and wait for the result', register: importer },
  { name: 'contacts', aliases: ['contact'], summary: 'contacts in groups (import them with `mailctl import`)', register: contacts },
  { name: 'groups', aliases: ['group'], summary: 'contact groups (lists)', register: groups },
  { name: 'campaign', aliases: ['campaigns'], summary: 'create, list, schedule, follow, pause and delete email campaigns', register: campaign },
  { name: 'report', aliases: ['reports'], summary: 'campaign reports: finished campaigns, metrics, detail files', register: report },
  { name: 'template', aliases: ['templates'], summary: 'email templates', register: template },
  { name: 'automation', aliases: [], summary: 'start or stop recipients in automation workflows', register: automation },
  { name: 'balance', aliases: [], summary: 'show the remaining email and SMS balance', register: balance },
  { name: 'send', aliases: [], summary: 'send transactional email (default) or SMS, batched and resumable', register: send },
  { name: 'webhook', aliases: ['webhooks'], summary: 'register, receive and verify notification-service webhooks', register: webhook },
  { name: 'events', aliases: [], summary: 'look up delivery events of transactional email (or SMS with --sms)', register: events },
  { name: 'sms', aliases: [], summary: 'SMS account settings (to send SMS: mailctl send sms)', register: sms },
  { name: 'domain', aliases: ['domains'], summary: 'sender domains for transactional email (from public material, not the spec)', register: domain },
  { name: 'config', aliases: [], summary: 'profiles, API keys and defaults', register: config },
  { name: 'sandbox', aliases: [], summary: 'the built-in emulator of both services (no account needed)', register: sandbox },
  { name: 'doctor', aliases: [], summary: 'check the set-up: each setting and where it comes from, keys (one cheap call per service), config folder, clock, Node', register: doctor },
  { name: 'completion', aliases: [], summary: 'print the shell completion script for bash, zsh or fish', register: completion },
  { name: 'mcp', aliases: [], summary: MCP_SUMMARY, register: mcp },
];

/** The noun of that name or alias. */
function nounNamed(name: string | undefined): Noun | undefined {
  return name === undefined ? undefined : NOUNS.find((n) => n.name === name || n.aliases.includes(name));
}

/** The noun argv runs (`mailctl --profile x groups list` → groups; `help groups` → groups), as src/cli/argv-scan.ts reads it. */
export function nounOf(argv: readonly string[]): Noun | undefined {
  return nounNamed(scanArgv(argv).noun);
}

/** Registers the noun the scanned line runs in full and the others as one-line entries; completion gets every noun. */
export function registerFor(scan: Pick<ArgvScan, 'noun' | 'complete'>, program: CommandUnknownOpts, action: ActionFactory): void {
  // Completion reads the whole tree.
  if (scan.complete) {
    for (const noun of NOUNS) noun.register(program, action);
    return;
  }
  const chosen = nounNamed(scan.noun);
  for (const noun of NOUNS) {
    if (noun === chosen) noun.register(program, action);
    else program.command(noun.name).aliases(noun.aliases).description(noun.summary);
  }
}
