// Start-up builds only the noun being run; every other noun is a one-line entry taken from
// commands/index.ts. These tests keep those entries equal to what each noun really registers,
// and check that the noun is found wherever global flags put it.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { NOUNS } from '../commands/index.js';
import { nounLineNamed } from '../commands/nouns.js';
import { scanArgv } from '../src/cli/argv-scan.js';

/** The noun start-up registers in full for argv, as registerFor finds it (commands/nouns.ts). */
const nounOf = (argv: string[]) => nounLineNamed(scanArgv(argv).noun);
import { runCli } from './helpers/cli.js';

describe('noun registry', () => {
  it.each(NOUNS.map((n) => [n.name, n] as const))('%s: the --help line matches its real registration', (_name, noun) => {
    const program = new Command('mailctl');
    noun.register(program, () => async () => {});
    const real = program.commands.find((c) => c.name() === noun.name);
    expect(real, `${noun.name} registers a command of that name`).toBeDefined();
    expect(real!.description()).toBe(noun.summary);
    expect(real!.aliases()).toEqual(noun.aliases);
  });

  it('finds the noun after global flags, through aliases and after `help`', () => {
    expect(nounOf(['--profile', 'groups', 'template', 'list'])?.name).toBe('template');
    expect(nounOf(['--json', '-v', 'group', 'ls'])?.name).toBe('groups');
    expect(nounOf(['help', 'reports'])?.name).toBe('report');
    expect(nounOf(['--version'])).toBeUndefined();
  });

  it('top-level help lists every noun; a noun\'s help shows its verbs', async () => {
    const top = await runCli(['--help']);
    expect(top.exitCode).toBe(0);
    for (const n of NOUNS) expect(top.stdout).toContain(n.name);
    const groups = await runCli(['--profile', 'x', 'groups', '--help']);
    expect(groups.stdout).toMatch(/list\|ls/);
    expect(groups.stdout).toContain('create');
  });

  it('a misspelt noun is a usage error with a suggestion', async () => {
    const r = await runCli(['grops', 'list']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Did you mean groups?');
  });
});
