// `webhook listen --out` naming a folder (or a path in a missing folder) used to end in
// "unexpected failure: EISDIR … This is a bug in mailctl" with exit 1. It is bad input: one
// sentence naming the file and the fix, exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('webhook listen --out that cannot be written', () => {
  it('a folder: exit 2 naming the file and how to fix it', async () => {
    const dir = tempDir();
    const r = await runCli(['webhook', 'listen', '--port', '0', '--out', dir], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Cannot write the events file ${dir}: it is a folder.`);
    expect(r.stderr).toContain('--out FILE');
    expect(r.stderr).not.toContain('unexpected failure');
  });

  it('a file in a folder that does not exist: exit 2, nothing created', async () => {
    const missing = path.join(tempDir(), 'no-such-folder', 'events.jsonl');
    const r = await runCli(['--json', 'webhook', 'listen', '--port', '0', '--out', missing], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toBe(`Cannot write the events file ${missing}: its folder does not exist.`);
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  });
});
