// The tools mailctl mcp serves (commands/mcp/catalog.ts), built from the real command tree: one per
// row of commands/mcp/tools.ts, each taking exactly its command's declared flags and arguments.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { catalog } from '../commands/mcp/catalog.js';
import { NOUNS } from '../commands/index.js';
import { SERVER_FLAGS, TOOL_SPECS } from '../commands/mcp/tools.js';

describe('the served tools', () => {
  const tools = catalog();
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program as never, () => async () => {});
  const commandAt = (p: readonly string[]) => p.reduce<CommandUnknownOpts>((c, w) => c.commands.find((s) => s.name() === w)!, program);

  it('one per row of the table, named by its command words', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOL_SPECS.map((s) => s.name ?? s.path.join('_')));
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const t of tools) expect(t.name).toMatch(/^[a-z_]{1,64}$/);
  });

  it('no tool offers standard input ("-"): a tool has none, the server\'s is the protocol', () => {
    const texts = tools.flatMap((t) => [t.listing.description, ...Object.values(t.listing.inputSchema.properties ?? {}).map((p) => p.description ?? '')]);
    expect(texts.filter((x) => /stdin|standard input|"-"/i.test(x))).toEqual([]);
    // The CLI's own help still says it (the strings the catalog leaves out are really there).
    expect(commandAt(['send', 'email']).options.find((o) => o.long === '--html-file')?.description).toContain('"-" reads stdin');
  });

  it('writes are the commands that declare --dry-run; destructive ones, --yes', () => {
    expect(tools.filter((t) => t.write).map((t) => t.name).sort()).toEqual([
      'automation_terminate', 'automation_trigger', 'campaign_create', 'campaign_delete', 'campaign_pause', 'groups_create', 'import',
      'report_export', 'send', 'send_sms', 'webhook_delete', 'webhook_set',
    ]);
    expect(tools.filter((t) => t.destructive).map((t) => t.name).sort()).toEqual(['campaign_delete', 'campaign_pause', 'webhook_delete']);
    for (const t of tools) {
      expect(t.listing.annotations.readOnlyHint).toBe(!t.write);
      if (t.write) expect(t.listing.annotations.destructiveHint).toBe(t.destructive);
    }
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s takes exactly its command\'s flags and arguments, with their descriptions', (_n, t) => {
    const spec = TOOL_SPECS.find((s) => (s.name ?? s.path.join('_')) === t.name)!;
    const cmd = commandAt(t.path);
    const left = new Set([...Object.keys(SERVER_FLAGS), ...Object.keys(spec.omit ?? {}), '--help']);
    const options = cmd.options.filter((o) => !o.hidden && !left.has(o.long!));
    const expected = [...options.map((o) => o.long!.slice(2)), ...cmd.registeredArguments.map((a) => a.name()), ...(t.write ? ['confirm'] : [])];
    expect(Object.keys(t.listing.inputSchema.properties!)).toEqual(expected);
    // The declaration's words, less what it says of standard input (a tool has none; see above).
    for (const o of options) expect(t.listing.inputSchema.properties![o.long!.slice(2)].description).toContain(o.description.replace(/ \("-" reads stdin\)|; - reads standard input/g, ''));
    // Every omitted flag exists: a renamed flag must not leave a stale row.
    for (const flag of Object.keys(spec.omit ?? {})) expect(cmd.options.some((o) => o.long === flag), `${t.name} omits ${flag}`).toBe(true);
    expect(t.listing.description).toContain(cmd.description().slice(1));
  });
});
