// `mailctl mcp` driven by the MCP SDK's own client: over the built binary's stdio
// (spawnMcp), or in-process over memory streams (inProcessMcp: an injected clock, fast tuning).
// Every protocol message both ways is kept as its JSON text, with the server's stderr, so a
// test can look for a key in all of it; a transport error (a stdout line that is not a protocol
// message) is kept too.
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { main } from '../../commands/main.js';
import type { Clock } from '../../src/core/clock.js';
import type { Tuning } from '../../src/run/context.js';
import { FAST } from './cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = path.join(root, 'bin', 'mailctl.js');

export interface McpSession {
  client: Client;
  /** Every protocol message, both ways, as JSON text. */
  messages: string[];
  /** Transport errors: a line on the server's stdout that is not a protocol message shows here. */
  errors: Error[];
  stderr(): string;
  /** One tool call; the result's text content parsed (its first item: the document or the plan). */
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  isError: boolean;
  /** The first text content, parsed. */
  doc: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  structured: Record<string, unknown>;
  /** Every text content. */
  texts: string[];
}

/** Keeps every message that passes, and the errors, of the transport it wraps. */
class Recorded implements Transport {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  onmessage?: (m: JSONRPCMessage) => void;

  constructor(private readonly inner: Transport, private readonly log: string[], private readonly errors: Error[]) {}

  async start(): Promise<void> {
    this.inner.onmessage = (m) => {
      this.log.push(JSON.stringify(m));
      this.onmessage?.(m);
    };
    this.inner.onerror = (e) => {
      this.errors.push(e);
      this.onerror?.(e);
    };
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(m: JSONRPCMessage): Promise<void> {
    this.log.push(JSON.stringify(m));
    await this.inner.send(m);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}

async function session(inner: Transport, stderr: () => string, closed: () => Promise<void>): Promise<McpSession> {
  const messages: string[] = [];
  const errors: Error[] = [];
  const client = new Client({ name: 'mailctl-test', version: '1.0.0' });
  await client.connect(new Recorded(inner, messages, errors));
  return {
    client, messages, errors, stderr,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const texts = (r.content as Array<{ type: string; text: string }>).map((c) => c.text);
      return { isError: !!r.isError, doc: JSON.parse(texts[0]), structured: r.structuredContent as Record<string, unknown>, texts };
    },
    async close() {
      await client.close();
      await closed();
    },
  };
}

/** The built binary, started as an MCP client starts a server. */
export async function spawnMcp(args: string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env, stderr: 'pipe', cwd: root });
  let err = '';
  transport.stderr?.on('data', (c) => (err += c));
  return session(transport, () => err, async () => {});
}

/** A transport over the in-process server's stdin and stdout. */
class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  onmessage?: (m: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly fromServer: PassThrough, private readonly toServer: PassThrough) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let m: JSONRPCMessage | null;
        try {
          m = this.buffer.readMessage();
        } catch (e) {
          this.onerror?.(e as Error);
          continue;
        }
        if (!m) break;
        this.onmessage?.(m);
      }
    });
  }

  async send(m: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(m));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

/** `mailctl <argv>` (argv holding `mcp`) run by main() in this process; `exit` settles when it ends. */
export async function inProcessMcp(argv: string[], o: { env: Record<string, string | undefined>; clock?: Clock; tuning?: Partial<Tuning> }): Promise<McpSession & { exit: Promise<number> }> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c) => (err += c));
  const exit = main({ argv, env: o.env, stdin: toServer, stdout: fromServer, stderr, clock: o.clock, tuning: { ...FAST, ...o.tuning } });
  const s = await session(new StreamTransport(fromServer, toServer), () => err, async () => {
    await exit;
  });
  return { ...s, exit };
}
