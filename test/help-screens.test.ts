// The help screens the build renders (commands/help-screens.ts, scripts/bundle.mjs) and the bin
// serves for a pipe or a file (bin/help-screen.cjs): every command, under every spelling the
// bin answers (each alias, --help, -h, `help WORDS`), gets exactly what main() prints for that
// line, whatever the environment says; any other line, and a terminal, get main() itself.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../commands/main.js';
import { commandWords } from '../commands/help-screens.js';
import { runCli, tempDir } from './helpers/cli.js';
import { commandTree } from './helpers/reference.js';
import { Pty, ptyUnavailable, stripAnsi } from './helpers/pty.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'mailctl.js');
const { helpWords, screenFor } = createRequire(import.meta.url)('../bin/help-screen.cjs') as {
  helpWords: (argv: string[]) => string[] | undefined;
  screenFor: (argv: string[]) => Buffer | undefined;
};

/** The lines the bin answers for one command spelling. */
function linesFor(typed: string[]): string[][] {
  return [[...typed, '--help'], [...typed, '-h'], ...(typed.length ? [['help', ...typed]] : [])];
}

/** main() as it prints for a terminal `columns` wide. */
async function onTerminal(argv: string[], columns: number): Promise<string> {
  const stdout = Object.assign(new PassThrough(), { columns, isTTY: true });
  let out = '';
  stdout.on('data', (c) => (out += c));
  const code = await main({ argv, env: { MAILCTL_CONFIG_DIR: tempDir() }, stdin: Readable.from([]), stdout, stderr: new PassThrough(), stdinTTY: true, stdoutTTY: true, stderrTTY: true });
  expect(code).toBe(0);
  return out;
}

function spawnBin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, HOME: tempDir(), ...env }, timeout: 15_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

describe('help screens served without main()', () => {
  const spellings = commandWords();

  it('cover every command of the tree, under each of its names', () => {
    // mailctl itself, the nouns and their verbs, and the aliases (group, ls, rm, …) as spellings of their own.
    expect(spellings.length).toBeGreaterThan(new Set(spellings.map((s) => s.canonical.join(' '))).size);
    for (const { typed } of spellings) for (const line of linesFor(typed)) expect(screenFor(line), line.join(' ')).toBeDefined();
    // Read the other way: every page of the command reference (its own walk of the declarations,
    // test/helpers/reference.ts) has a screen, and the index holds nothing but these spellings.
    for (const { words } of commandTree()) expect(screenFor([...words, '--help']), words.join(' ')).toBeDefined();
    const index = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'cli', 'help-screens.json'), 'utf8')) as { screens: Record<string, unknown> };
    expect(Object.keys(index.screens).sort()).toEqual(spellings.map((s) => s.typed.join(' ')).sort());
  });

  it('each is what main() prints for that line, with or without settings in the environment or the config folder', async () => {
    // A config folder with a default profile that sets what a setting can (output, sandbox,
    // time zone, URLs): the screens were rendered with none.
    const configured = tempDir();
    for (const set of [['output', 'json'], ['sandbox', 'true'], ['timezone', 'Asia/Taipei'], ['campaign-url', 'http://127.0.0.1:8080/'], ['from-address', 'news@example.com']]) {
      const r = await runCli(['--profile', 'work', 'config', 'set', ...set], { configDir: configured });
      expect(r, set.join(' ')).toMatchObject({ exitCode: 0 });
    }
    expect(await runCli(['config', 'use', 'work'], { configDir: configured })).toMatchObject({ exitCode: 0 });
    const envs = [
      {},
      { MAILCTL_PROFILE: 'staging', MAILCTL_API_KEY: 'k-123', NO_COLOR: '1', CI: 'true', TERM: 'dumb', COLUMNS: '200' },
      { FORCE_COLOR: '1', CLICOLOR_FORCE: '1', MAILCTL_CAMPAIGN_URL: 'http://127.0.0.1:9' },
      { MAILCTL_CONFIG_DIR: configured, FORCE_COLOR: '3', TERM: 'xterm-256color', COLUMNS: '40', LINES: '10' },
    ];
    for (const { typed } of spellings) {
      for (const line of linesFor(typed)) {
        const served = screenFor(line)!.toString('utf8');
        for (const env of envs) {
          const live = await runCli(line, { env });
          expect({ line: line.join(' '), ...live }).toEqual({ line: line.join(' '), stdout: served, stderr: '', exitCode: 0 });
        }
      }
    }
  });

  it('are not used for any other line: flags besides the help flag, an unknown word, a topic, arguments', () => {
    for (const argv of [
      ['groups', '--help', '--json'], ['--no-input', 'groups', '--help'], ['groups', '--help', 'list'],
      ['grops', '--help'], ['help', 'environment'], ['help', 'exit-codes'], ['help'], ['campaign', 'show', 'CP123', '--help'],
      ['groups', 'list'], [], ['--version'], ['--', '--help'], ['help', 'groups', '--sandbox'],
    ]) {
      expect(helpWords(argv) && screenFor(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it('the built bin prints them to a pipe, exit 0, nothing on stderr; with another flag main() prints the same', async () => {
    for (const line of [['--help'], ['group', 'ls', '-h'], ['help', 'campaign', 'create'], ['config', 'set-key', '--help']]) {
      const served = await spawnBin(line);
      expect(served).toEqual({ code: 0, stdout: screenFor(line)!.toString('utf8'), stderr: '' });
      // --no-input changes nothing in a help screen, and makes the line one main() answers.
      expect(await spawnBin(['--no-input', ...line])).toEqual(served);
    }
  });

  it('a line the screens do not hold gets main()\'s answer from the bin', async () => {
    for (const line of [['grops', '--help'], ['help', 'exit-codes'], ['groups', '--help', '--json']]) {
      const { exitCode, stdout, stderr } = await runCli(line);
      expect(await spawnBin(line)).toEqual({ code: exitCode, stdout, stderr });
    }
  });

  it.skipIf(!!ptyUnavailable)('a terminal gets main() itself, laid out for its width', async () => {
    // A screen whose layout depends on the width, so a screen laid out for 80 columns would show.
    const argv = ['campaign', 'create', '--help'];
    const wide = await onTerminal(argv, 150);
    expect(wide).not.toEqual(screenFor(argv)!.toString('utf8'));
    const pty = new Pty(argv, { env: { PATH: process.env.PATH, HOME: tempDir(), MAILCTL_CONFIG_DIR: path.join(tempDir(), 'config') }, cols: 150 });
    expect(await pty.exited()).toBe(0);
    expect(pty.text()).toBe(stripAnsi(wide));
  });
});
