// The nouns of mailctl with their registrations, for what needs the whole tree at once: the
// tests, the MCP server's tool catalog, the help screens the build renders. Start-up does not
// load this file: it registers the noun being run from commands/nouns.ts, which keeps each
// noun's line (name, aliases, summary) and loads its registration only when the noun runs.
// test/commands-registry.test.ts keeps those lines equal to what each noun registers.
import { NOUN_LINES, type NounModule } from './nouns.js';
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
import { register as mcp } from './mcp/index.js';

export interface Noun extends NounModule {
  name: string;
  aliases: string[];
  summary: string;
}

/** Each noun's registration, by name (the same modules commands/nouns.ts loads one at a time). */
const REGISTER: Record<string, NounModule['register']> = {
  import: importer, contacts, groups, campaign, report, template, automation, balance, send,
  webhook, events, sms, domain, config, sandbox, doctor, completion, mcp,
};

export const NOUNS: Noun[] = NOUN_LINES.map(({ name, aliases, summary }) => ({ name, aliases, summary, register: REGISTER[name] }));
