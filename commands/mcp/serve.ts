// mailctl mcp: the Model Context Protocol on stdin/stdout, with the official SDK (loaded here
// only, so no other command's start-up pays for it). stdout carries protocol messages and
// nothing else: each call's output is captured (./call.ts) and the server's own lines go to
// stderr. It ends when the client closes stdin (after answering what it was asked) or on Ctrl-C.
import type { Readable, Writable } from 'node:stream';
import type { Verb } from '../../src/cli/declared.js';
import type { Context } from '../../src/run/context.js';
import type { declareServe } from './index.js';
import { version } from '../../src/core/version.js';
import { redactor } from '../../src/api/redact.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { PlanBook } from '../../src/mcp/plan-tokens.js';
import { utf8Lines } from '../../src/mcp/utf8-lines.js';
import { catalog, type Tool } from './catalog.js';
import { callTool, failure, type ServerRun } from './call.js';

export const run: Verb<typeof declareServe> = async (ctx, opts) => {
  const [{ Server }, { StdioServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  // A config problem stops the start (exit 3) rather than every call.
  const settings = await ctx.settings();
  const readOnly = !!opts.readOnly;
  const all = catalog();
  const served = new Map<string, Tool>(all.filter((t) => !readOnly || !t.write).map((t) => [t.name, t]));
  const known = new Set(all.map((t) => t.name));
  const env = ctx.env;
  const serverRun: ServerRun = {
    env,
    clock: ctx.clock,
    tuning: ctx.tuning,
    signal: ctx.signal,
    globals: [...(ctx.globals.profile !== undefined ? ['--profile', ctx.globals.profile] : []), ...(ctx.globals.sandbox ? ['--sandbox'] : [])],
    redact: redactor([settings.campaignKey, settings.notifyKey, env.MAILCTL_API_KEY, env.MAILCTL_CAMPAIGN_API_KEY, env.MAILCTL_NOTIFY_API_KEY]),
    book: new PlanBook(ctx.clock),
  };

  const server = new Server(
    { name: 'mailctl', title: 'mailctl', version: version() },
    {
      capabilities: { tools: {} },
      instructions: `mailctl drives the campaign and notification email services${settings.sandbox ? ' (here: the built-in sandbox, no real mail is sent)' : ''}. Reads run at once. A write called without "confirm" sends nothing and returns its plan (the exact requests) and a token; call it again with the same arguments and "confirm": token to carry the plan out.${readOnly ? ' This server serves reads only.' : ''}`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...served.values()].map((t) => t.listing) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    const tool = served.get(name);
    if (!tool) {
      if (known.has(name)) {
        return failure(serverRun, 'READ_ONLY', `This server was started with --read-only: it serves reads only, and ${name} is a write; nothing was sent.`, 'Start it without --read-only (mailctl mcp) to plan and confirm writes.');
      }
      throw new McpError(ErrorCode.InvalidParams, `No tool named "${forTerminal(name, 100)}"; tools/list names them.`);
    }
    try {
      return await callTool(serverRun, tool, args, extra.signal);
    } catch (e) {
      // A bug, not a refusal: said in the result rather than as a protocol error.
      return failure(serverRun, 'FAILED', `unexpected failure: ${e instanceof Error ? e.message : String(e)}`, 'This is a bug in mailctl; please report it.');
    }
  });

  // Lines that are not UTF-8 are answered as parse errors (utf8Lines), never read with U+FFFD.
  const input = utf8Lines(ctx.io.stdin, (line, at) => {
    const message = `Parse error: line ${line} is not valid UTF-8 (the first invalid byte is at offset ${at} of the line, counting from 0).`;
    transport.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message } } as never).catch(() => {});
  });
  const transport = new StdioServerTransport(input, ctx.io.stdout);
  await server.connect(transport);
  answerMalformed(transport);
  const answered = countAnswers(transport);
  ctx.io.info(`mailctl MCP server on stdin/stdout: ${served.size} tools${readOnly ? ' (reads only)' : ''}, profile "${forTerminal(settings.profileName, 100)}"${settings.sandbox ? ', the sandbox' : ''}.`);
  await ended(ctx, input);
  await answered.allAnswered();
  await server.close();
  // The SDK pauses the stream it was given; standard input, piped into it, must let go too, or
  // a client holding it open keeps the process alive after Ctrl-C.
  stopReading(ctx.io.stdin, input);
};

/**
 * A line that is not JSON (-32700), or JSON that is no JSON-RPC message (-32600), gets the
 * protocol's own error answer with a null id, as JSON-RPC 2.0 asks, where the SDK drops it
 * silently and only reports it to onerror: a client then waits on nothing.
 */
function answerMalformed(transport: { onerror?: (e: Error) => void; send: (m: never) => Promise<void> }): void {
  const reported = transport.onerror;
  transport.onerror = (e: Error) => {
    reported?.(e);
    // The SDK reads a line with JSON.parse (a SyntaxError), then checks it against its schema (an
    // error carrying the schema's `issues`); any other error (a stream's) is not about a message.
    const code = e instanceof SyntaxError ? -32700 : Array.isArray((e as { issues?: unknown }).issues) ? -32600 : undefined;
    if (code === undefined) return;
    const message = code === -32700 ? 'Parse error: the line is not JSON.' : 'Invalid Request: the line is not a JSON-RPC 2.0 message.';
    transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as never).catch(() => {});
  };
}

function stopReading(stdin: Readable, input: Readable): void {
  stdin.unpipe(input as unknown as Writable);
  input.destroy();
  if (stdin.listenerCount('data') === 0) stdin.pause();
}

/** Resolves when the client closes stdin (its last line passed on to the SDK), or on Ctrl-C. */
function ended(ctx: Context, stdin: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    if (ctx.signal.aborted) return resolve();
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

interface Message {
  id?: string | number;
  method?: unknown;
  params?: { requestId?: string | number };
  result?: unknown;
  error?: unknown;
}

/**
 * Keeps the ids of the requests not yet answered, so the server ends only after answering what
 * it was asked (a client may write its requests and close stdin at once). A request the client
 * cancels gets no answer (the SDK sends none), so its cancellation settles it.
 */
function countAnswers(transport: { onmessage?: (m: never, extra?: never) => void; send: (m: never, o?: never) => Promise<void> }): { allAnswered(): Promise<void> } {
  const open = new Set<string | number>();
  let idle: (() => void) | undefined;
  const settle = (id: string | number | undefined) => {
    if (id === undefined || !open.delete(id)) return;
    if (!open.size) idle?.();
  };
  const received = transport.onmessage;
  transport.onmessage = ((m: Message, extra?: never) => {
    if (m.id !== undefined && typeof m.method === 'string') open.add(m.id);
    received?.(m as never, extra);
    if (m.method === 'notifications/cancelled') settle(m.params?.requestId);
  }) as never;
  const send = transport.send.bind(transport);
  transport.send = (async (m: Message, o?: never) => {
    try {
      await send(m as never, o);
    } finally {
      if (m.method === undefined && ('result' in m || 'error' in m)) settle(m.id);
    }
  }) as never;
  return {
    async allAnswered() {
      // What the last chunk of stdin held is handed to its handler a tick later.
      await new Promise((r) => setImmediate(r));
      if (open.size) await new Promise<void>((r) => (idle = r));
    },
  };
}
