// The tools of `mailctl mcp`, built from the command tree: each row of ./tools.ts is looked up
// among the registered commands and read by src/cli/tool-schema.ts, so a tool takes exactly the
// flags its command declares (less the server's own and a row's `omit`).
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { NOUNS } from '../index.js';
import type { ActionFactory } from '../../src/cli/declared.js';
import { declares, isDestructive } from '../../src/run/write-flags.js';
import { inputSchema, paramsOf, type JsonSchema, type ToolParam } from '../../src/cli/tool-schema.js';
import { PLAN_TTL_MS } from '../../src/mcp/plan-tokens.js';
import { SERVER_FLAGS, TOOL_SPECS, type ToolSpec } from './tools.js';

export interface Tool {
  name: string;
  /** The command's words after `mailctl`. */
  path: readonly string[];
  params: ToolParam[];
  /** Planned, then confirmed (the command declares --dry-run). */
  write: boolean;
  /** Cannot be undone (the command declares --yes): the confirmed run passes it. */
  destructive: boolean;
  /** The confirmed run's bodies are held to the plan too (./tools.ts). */
  exactBodies: boolean;
  /** What tools/list shows. */
  listing: {
    name: string;
    title: string;
    description: string;
    inputSchema: JsonSchema;
    annotations: { title: string; readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  };
}

/** The parameter that carries a plan's token back. */
export const CONFIRM = 'confirm';

const TTL_MINUTES = PLAN_TTL_MS / 60_000;

export function catalog(specs: readonly ToolSpec[] = TOOL_SPECS): Tool[] {
  const program = new Command('mailctl');
  const noAction = (() => async () => {}) as unknown as ActionFactory;
  for (const noun of NOUNS) noun.register(program, noAction);
  return specs.map((spec) => toolOf(spec, commandAt(program, spec.path)));
}

function commandAt(program: CommandUnknownOpts, path: readonly string[]): CommandUnknownOpts {
  let cmd = program;
  for (const word of path) {
    const next = cmd.commands.find((c) => c.name() === word);
    if (!next) throw new Error(`mcp tools: no command \`mailctl ${path.join(' ')}\``);
    cmd = next;
  }
  return cmd;
}

/**
 * A tool has no standard input (the server's is the protocol: a "-" is refused, commands/mcp/
 * call.ts), so what the CLI's help says of "-" is not offered to an agent.
 * test/mcp-tool-schema.test.ts fails on a description that still mentions it.
 */
function withoutStdin(p: ToolParam): ToolParam {
  const description = p.schema.description?.replace(/ \("-" reads stdin\)|; - reads standard input/g, '');
  return description === p.schema.description ? p : { ...p, schema: { ...p.schema, description } };
}

function toolOf(spec: ToolSpec, cmd: CommandUnknownOpts): Tool {
  const name = spec.name ?? spec.path.join('_');
  const write = declares(cmd, '--dry-run') && !spec.read;
  const destructive = write && isDestructive(cmd);
  const params = paramsOf(cmd, new Set([...Object.keys(SERVER_FLAGS), ...Object.keys(spec.omit ?? {})])).map(withoutStdin);
  const title = `mailctl ${spec.path.join(' ')}`;
  // Flags left out for one reason are named together.
  const byWhy = new Map<string, string[]>();
  for (const [flag, why] of Object.entries(spec.omit ?? {})) byWhy.set(why, [...(byWhy.get(why) ?? []), flag]);
  const notTaken = [...byWhy].map(([why, flags]) => `${flags.join(', ')} (${why})`);
  const description = [
    `${cmd.description()[0].toUpperCase()}${cmd.description().slice(1)}.`,
    write
      ? `A write, in two steps: called without "${CONFIRM}" it sends nothing and returns the plan, the requests a real run makes (key masked), with a token; called again with the same arguments and "${CONFIRM}" set to that token (once, within ${TTL_MINUTES} minutes) it makes them.${destructive ? ' It cannot be undone.' : ''}`
      : `Reads only. The result is the JSON document of \`${title} --json\`.`,
    notTaken.length ? `Not taken here: ${notTaken.join('; ')}.` : '',
  ].filter(Boolean).join(' ');
  const confirm: Record<string, JsonSchema> = write ? { [CONFIRM]: { type: 'string', description: 'the token a call with the same arguments and no confirm returned: carries that plan out' } } : {};
  return {
    name,
    path: spec.path,
    params,
    write,
    destructive,
    exactBodies: !!spec.exactBodies,
    listing: {
      name,
      title,
      description,
      inputSchema: inputSchema(params, confirm),
      annotations: write
        ? { title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: false, openWorldHint: true }
        : { title, readOnlyHint: true, openWorldHint: true },
    },
  };
}
