import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

export const SUMMARY = 'serve the Model Context Protocol on stdin/stdout: the commands as tools for an agent, writes planned before they are made';

export function register(program: Command, action: ActionFactory): void {
  declareServe(program).action(action(() => import('./serve.js')));
}

export function declareServe(program: CommandUnknownOpts) {
  return program
    .command('mcp')
    .description(SUMMARY)
    .option('--read-only', 'serve the read tools only (the write tools are neither listed nor run)')
    .addHelpText('after', `
An MCP client (Claude Desktop, an IDE, an agent framework) starts \`mailctl mcp\` and talks to it
on stdin and stdout; the server prints nothing else there (its own lines go to stderr) and never
prompts. Each tool runs one command in-process with --json and --no-input, under the profile and
--sandbox the server was started with; its result is the command's JSON document, a failure its
{"error": {code, …}} with the exit code. No key is ever part of a result.

Reads (groups list, campaign status and list, report metrics, balance, events, doctor, …) run at once.
Writes (import, groups create, campaign create/pause/delete, report export, send, send sms,
automation trigger/terminate, webhook set/delete) take two calls: without "confirm" the command
runs as --dry-run and the result is its plan, the exact requests a real run makes, with a token;
the same call with "confirm": TOKEN makes them. A token is refused when it was already used, is
older than 10 minutes, or was made for other arguments; the plan is recorded again first, and a
plan that changed meanwhile (a file, a setting) is refused with the new one. Sends keep their
journal and resume as \`mailctl send\` does. Client set-up: docs/mcp.md.

Examples:
  mailctl mcp --sandbox              # until Ctrl-C (an MCP client starts it; try it with no account)
  mailctl mcp --read-only            # until Ctrl-C
  printf '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\\n' | mailctl mcp --sandbox --read-only`);
}
