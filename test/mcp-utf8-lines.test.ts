// `mailctl mcp` reads JSON-RPC lines from standard input. The SDK decoded them leniently, so a
// byte that is not UTF-8 inside a tool's arguments became U+FFFD and the call ran with it. Such a
// line is now answered as a parse error (-32700, id null: JSON-RPC's answer to a line it cannot
// read) naming the line and the offset of its first bad byte, and nothing of it is run.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { utf8Lines } from '../src/mcp/utf8-lines.js';

const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const line = (m: unknown) => Buffer.from(`${JSON.stringify(m)}\n`);

describe('mcp: lines that are not UTF-8', () => {
  it('are answered -32700 naming the line and offset; the good lines around them are served', async () => {
    // A read (tools/list) carries the bad bytes, so the test could never send anything itself.
    const head = Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"Zoë ');
    const bad = Buffer.concat([head, Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]);
    const stdin = Buffer.concat([line(init), bad, line({ jsonrpc: '2.0', id: 3, method: 'tools/list' })]);
    const r = await runCli(['--sandbox', 'mcp'], { stdin, env: { MAILCTL_CONFIG_DIR: tempDir(), MAILCTL_API_KEY: 'k-utf8-mcp-test-1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    const answers = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: number | null; error?: { code: number; message: string }; result?: unknown });
    // JSON-RPC answers in any order; each request once, the unreadable line as a parse error.
    expect(answers.map((a) => [a.id, a.error?.code ?? 'result']).sort()).toEqual([[null, -32700], [1, 'result'], [3, 'result']]);
    expect(answers.find((a) => a.id === null)!.error!.message).toBe(`Parse error: line 2 is not valid UTF-8 (the first invalid byte is at offset ${head.length} of the line, counting from 0).`);
    expect(r.stdout).not.toContain('\ufffd');
  });

  it('cut anywhere into chunks, the same lines pass and the same one is held back', async () => {
    const text = Buffer.concat([Buffer.from('{"a":"Zoë 王"}\n'), Buffer.from([0x7b, 0xe4, 0xb8, 0x41, 0x7d, 0x0a]), Buffer.from('{"b":"🎉"}')]);
    for (let cut = 1; cut < text.length; cut++) {
      const refused: Array<[number, number]> = [];
      const out: Buffer[] = [];
      for await (const c of utf8Lines(Readable.from([text.subarray(0, cut), text.subarray(cut)]), (n, at) => refused.push([n, at]))) out.push(c as Buffer);
      expect(Buffer.concat(out).toString(), `cut ${cut}`).toBe('{"a":"Zoë 王"}\n{"b":"🎉"}');
      expect(refused).toEqual([[2, 1]]);
    }
  });
});
