// Help is laid out for the run's own stdout (src/cli/main.ts configureOutput), not for the
// process's: a terminal's width when that stdout is a terminal, commander's 80 columns otherwise
// — whatever the process this runs in is attached to (tests, the MCP server, the build rendering
// the help screens).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../commands/main.js';
import { tempDir } from './helpers/cli.js';

/** `mailctl campaign create --help` printed to a stream that says it is (or is not) a terminal of `columns`. */
async function help(tty: boolean, columns: number): Promise<string> {
  const stdout = Object.assign(new PassThrough(), { columns });
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (c) => (out += c));
  const code = await main({
    argv: ['campaign', 'create', '--help'], env: { PATH: process.env.PATH, MAILCTL_CONFIG_DIR: tempDir() },
    stdin: new PassThrough(), stdout, stderr, stdinTTY: tty, stdoutTTY: tty, stderrTTY: tty,
  });
  expect(code).toBe(0);
  return out;
}
const longest = (s: string) => Math.max(...s.split('\n').map((l) => l.length));

describe('help layout follows the run\'s stdout', () => {
  it('a terminal of 150 columns gets lines wider than 80; narrower than its width', async () => {
    const wide = await help(true, 150);
    expect(longest(wide)).toBeGreaterThan(80);
    expect(longest(wide)).toBeLessThanOrEqual(150);
  });

  it('a stream that is not a terminal gets one layout (commander\'s 80 columns), whatever columns it claims', async () => {
    const piped = await help(false, 150);
    expect(await help(false, 40)).toBe(piped);
    const onTerminal = await help(true, 150);
    expect(piped).not.toBe(onTerminal);
    // Same words as the terminal's screen, wrapped differently.
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(words(piped)).toEqual(words(onTerminal));
  });
});
