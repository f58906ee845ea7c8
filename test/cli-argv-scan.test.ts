// src/cli/argv-scan.ts: the one reading of argv before commander parses it — the noun to
// register, `help X Y`, completion, and the global flags an early error's hint and --json
// document carry. Table-driven over the lines users type; the behaviour built on it (help
// topics, help NOUN VERB, usage hints, --json usage errors) is tested end to end in
// help-topics, cli-main, json-error-codes and cli-repeats.
import { describe, expect, it } from 'vitest';
import { Command } from '@commander-js/extra-typings';
import { commandLineOf, GLOBAL_VALUE_OPTIONS, scanArgv, type ArgvScan } from '../src/cli/argv-scan.js';
import { declareRoot } from '../src/run/root-options.js';
import { runCli } from './helpers/cli.js';

const plain: ArgvScan = { sandbox: false, asksJson: false };

describe('scanArgv', () => {
  it.each<[string[], Partial<ArgvScan>]>([
    [[], {}],
    [['--version'], {}],
    [['groups', 'list'], { noun: 'groups' }],
    // A global option's value is never the noun, whatever it is.
    [['--profile', 'groups', 'template', 'list'], { noun: 'template', profile: 'groups' }],
    [['--output', 'json', 'groups'], { noun: 'groups', asksJson: true }],
    [['--output', 'tsv', 'groups'], { noun: 'groups' }],
    [['--output=json', 'groups'], { noun: 'groups', asksJson: true }],
    [['--query', '[0]', 'groups', 'list'], { noun: 'groups', asksJson: true }],
    [['groups', 'list', '--query=[0].name'], { noun: 'groups', asksJson: true }],
    [['--json', '-v', 'group', 'ls'], { noun: 'group', asksJson: true }],
    // Flags anywhere on the line; the last --profile wins, as commander keeps it.
    [['groups', 'list', '--sandbox', '--profile=ops'], { noun: 'groups', sandbox: true, profile: 'ops' }],
    [['--profile', 'a', 'balance', '--profile', 'b'], { noun: 'balance', profile: 'b' }],
    // As commander reads it: a value-taking global takes the next word even when it looks like a flag.
    [['--profile', '--json', 'balance'], { noun: 'balance', profile: '--json' }],
    [['--profile'], {}],
    // Nothing after `--` is a flag or a command word.
    [['send', '--', '--json', '--sandbox', '--profile', 'x'], { noun: 'send' }],
    [['--', 'groups'], {}],
    // help: the word after it is the topic or command; the words around it rebuild the line.
    [['help'], { noun: undefined }],
    [['help', 'reports'], { noun: 'reports', help: { word: 'reports', before: [], after: ['reports'] } }],
    [['help', 'exit-codes'], { noun: 'exit-codes', help: { word: 'exit-codes', before: [], after: ['exit-codes'] } }],
    [['--profile', 'ops', 'help', 'campaign', 'create'], { noun: 'campaign', profile: 'ops', help: { word: 'campaign', before: ['--profile', 'ops'], after: ['campaign', 'create'] } }],
    [['--profile', 'help', 'groups'], { noun: 'groups', profile: 'help' }],
    [['-q', 'help', 'campaigns', 'rm', '--json'], { noun: 'campaigns', asksJson: true, help: { word: 'campaigns', before: ['-q'], after: ['campaigns', 'rm', '--json'] } }],
    [['help', '--', 'groups'], { noun: undefined }],
    [['groups', 'help'], { noun: 'groups' }],
    // Completion: the words the shell has, never read as a command line.
    [['__complete'], { complete: [''] }],
    [['__complete', '--', 'groups', '--json'], { complete: ['groups', '--json'] }],
    [['__complete', 'help', 'gr'], { complete: ['help', 'gr'] }],
  ])('%j', (argv, want) => {
    expect(scanArgv(argv)).toEqual({ ...plain, ...want });
  });

  it('knows every global option that takes a value (the root declaration is the list)', () => {
    const root = declareRoot(new Command('mailctl'));
    const valued = root.options.filter((o) => o.required || o.optional).map((o) => o.long);
    expect([...GLOBAL_VALUE_OPTIONS].sort()).toEqual(valued.sort());
  });
});

describe('commandLineOf', () => {
  it.each<[string[], string[], string[]]>([
    [['--profile', 'ops', 'groups', 'list', '--sandbox'], [], ['groups', 'list']],
    [['--profile=ops', 'groups', 'list'], [], ['groups', 'list']],
    // A value stays a value: a subject that reads "--sandbox" is kept, once the command's own flags are known.
    [['send', '--subject', '--sandbox', '--to', 'a@example.com'], ['--subject', '--to'], ['send', '--subject', '--sandbox', '--to', 'a@example.com']],
    [['send', '--subject', '--sandbox'], [], ['send', '--subject']],
    // After `--`, everything is kept as typed.
    [['send', '--', '--profile', 'x', '--sandbox'], [], ['send', '--', '--profile', 'x', '--sandbox']],
  ])('%j (command flags %j)', (argv, own, want) => {
    expect(commandLineOf(argv, new Set([...GLOBAL_VALUE_OPTIONS, ...own]))).toEqual(want);
  });
});

// What the scan feeds, seen from outside: an error before the run's output is chosen.
describe('errors before the output is chosen', () => {
  it('a usage error under --output json is the one JSON document; under --profile --json (a profile named "--json") it is not', async () => {
    const asked = await runCli(['--output', 'json', 'groups', 'list', '--bogus']);
    expect(asked.exitCode).toBe(2);
    expect(JSON.parse(asked.stdout).error).toMatchObject({ code: 'USAGE', exitCode: 2 });
    const value = await runCli(['--profile', '--json', 'groups', 'list', '--bogus']);
    expect(value.exitCode).toBe(2);
    expect(value.stdout).toBe('');
    expect(value.stderr).toContain("unknown option '--bogus'");
  });

  it('a bad --query on a terminal: the error is painted as the IO paints it, and not with NO_COLOR', async () => {
    const tty = await runCli(['groups', 'list', '--csv', '--json'], { tty: true });
    expect(tty.exitCode).toBe(2);
    expect(tty.stderr).toMatch(/^\u001b\[31merror:\u001b\[39m --json and --csv ask for different outputs/);
    expect(JSON.parse(tty.stdout).error).toMatchObject({ code: 'USAGE', exitCode: 2 });
    const plainText = await runCli(['groups', 'list', '--csv', '--json'], { tty: true, env: { NO_COLOR: '1' } });
    expect(plainText.stderr).toMatch(/^error: --json and --csv ask for different outputs/);
  });

  it('the usage hint of a refused line carries the --profile and --sandbox it was typed with', async () => {
    const r = await runCli(['groups', 'list', '--bogus', '--sandbox', '--profile=ops']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('(run `mailctl --profile ops --sandbox groups list --help` for details)');
  });
});
