// The nouns of mailctl as start-up needs them: each one's name, aliases and one-line summary, and
// where its registration is. Start-up loads the registration of the noun being run only (each
// noun's commands/<noun>/index.ts is a chunk of its own in the bundle: the registrations of all
// eighteen, and what only they import, were parsed by every command); the others appear as
// one-line entries so `mailctl --help` can list them and commander can suggest a near miss.
// commands/index.ts puts the registrations beside these lines for what needs the whole tree at
// once (tests, the MCP catalog, the help screens); test/commands-registry.test.ts keeps the
// lines equal to what each noun registers.
import type { Command as CommanderCommand } from 'commander';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../src/cli/declared.js';
import type { ArgvScan } from '../src/cli/argv-scan.js';
import { SUMMARY as MCP_SUMMARY } from './mcp/index.js';

/** What a noun's commands/<noun>/index.ts provides. */
export interface NounModule {
  /**
   * Registration only (commander calls); each verb's code still loads when it runs. Nouns declare
   * on @commander-js/extra-typings' typed view of the program; tests hand in commander's own
   * Command, the same class at runtime. (Method syntax, so a noun's register that takes the
   * typed view fits here.)
   */
  register(program: CommanderCommand | CommandUnknownOpts, action: ActionFactory): void;
}

export interface NounLine {
  name: string;
  aliases: string[];
  summary: string;
  /** Its registration, loaded when the noun runs. */
  load(): Promise<NounModule>;
}

export const NOUN_LINES: NounLine[] = [
  { name: 'import', aliases: [], summary: 'check a contacts CSV locally, upload it into a group, and wait for the result', load: () => import('./import/index.js') },
  { name: 'contacts', aliases: ['contact'], summary: 'contacts in groups (import them with `mailctl import`)', load: () => import('./contacts/index.js') },
  { name: 'groups', aliases: ['group'], summary: 'contact groups (lists)', load: () => import('./groups/index.js') },
  { name: 'campaign', aliases: ['campaigns'], summary: 'create, list, schedule, follow, pause and delete email campaigns', load: () => import('./campaign/index.js') },
  { name: 'report', aliases: ['reports'], summary: 'campaign reports: finished campaigns, metrics, detail files', load: () => import('./report/index.js') },
  { name: 'template', aliases: ['templates'], summary: 'email templates', load: () => import('./template/index.js') },
  { name: 'automation', aliases: [], summary: 'start or stop recipients in automation workflows', load: () => import('./automation/index.js') },
  { name: 'balance', aliases: [], summary: 'show the remaining email and SMS balance', load: () => import('./balance/index.js') },
  { name: 'send', aliases: [], summary: 'send transactional email (default) or SMS, batched and resumable', load: () => import('./send/index.js') },
  { name: 'webhook', aliases: ['webhooks'], summary: 'register, receive and verify notification-service webhooks', load: () => import('./webhook/index.js') },
  { name: 'events', aliases: [], summary: 'look up delivery events of transactional email (or SMS with --sms)', load: () => import('./events/index.js') },
  { name: 'sms', aliases: [], summary: 'SMS account settings (to send SMS: mailctl send sms)', load: () => import('./sms/index.js') },
  { name: 'domain', aliases: ['domains'], summary: 'sender domains for transactional email (from public material, not the spec)', load: () => import('./domain/index.js') },
  { name: 'config', aliases: [], summary: 'profiles, API keys and defaults', load: () => import('./config/index.js') },
  { name: 'sandbox', aliases: [], summary: 'the built-in emulator of both services (no account needed)', load: () => import('./sandbox/index.js') },
  { name: 'doctor', aliases: [], summary: 'check the set-up: each setting and where it comes from, keys (one cheap call per service), config folder, clock, Node', load: () => import('./doctor/index.js') },
  { name: 'completion', aliases: [], summary: 'print the shell completion script for bash, zsh or fish', load: () => import('./completion/index.js') },
  { name: 'mcp', aliases: [], summary: MCP_SUMMARY, load: () => import('./mcp/index.js') },
];

/** The noun of that name or alias. */
export function nounLineNamed(name: string | undefined): NounLine | undefined {
  return name === undefined ? undefined : NOUN_LINES.find((n) => n.name === name || n.aliases.includes(name));
}

/** Registers the noun the scanned line runs in full and the others as one-line entries; completion gets every noun. */
export async function registerFor(scan: Pick<ArgvScan, 'noun' | 'complete'>, program: CommandUnknownOpts, action: ActionFactory): Promise<void> {
  // Completion reads the whole tree.
  if (scan.complete) {
    for (const noun of await Promise.all(NOUN_LINES.map((n) => n.load()))) noun.register(program, action);
    return;
  }
  const chosen = nounLineNamed(scan.noun);
  const registration = await chosen?.load();
  for (const noun of NOUN_LINES) {
    if (noun === chosen) registration!.register(program, action);
    else program.command(noun.name).aliases(noun.aliases).description(noun.summary);
  }
}
